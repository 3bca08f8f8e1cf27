/**
 * The sandbox migration on a database written before it: every run and approval kept, the CHECK on
 * decided_by loosened to take 'caller' (a withdrawn request) and nothing else new, the history
 * indexes rebuilt, and approvals given for uncontained runs kept as profile `none`. It edits the
 * runs table the owner migration rebuilt before it, so it is checked from before both as well, and
 * on a fresh database.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { listRemembered } from '../../../src-main/core/store/approvals.js';
import { MIGRATIONS, SCHEMA_VERSION, applyMigrations, userVersion } from '../../../src-main/core/store/migrations.js';
import { getRun } from '../../../src-main/core/store/run-queries.js';
import { recordDecision, recordInterrupted, recordRequest } from '../../../src-main/core/store/run-records.js';
import type { StateDb } from '../../../src-main/core/store/state-db.js';
import { useTempHomes } from './temp-home.js';
import { thisProcess } from '../../../src-main/core/process-identity.js';

const homes = useTempHomes();
const sandboxStep = MIGRATIONS.findIndex((m) => m.up.toString().includes('unsandboxed_skills'));
const ownerStep = MIGRATIONS.findIndex((m) => m.up.toString().includes('owner_pid'));

/** What both rebuilds of `runs` let in: a browser's run withdrawn by its caller, and a run interrupted with its owner. */
function takesWhatIsNew(db: StateDb): void {
  recordRequest(
    db,
    { id: 'withdrawn', traceId: 't', surface: 'browser', skill: 'git', tool: 'git_status', args: {}, command: null, programPath: null, skillHash: 'h' },
    thisProcess(),
  );
  recordDecision(db, 'withdrawn', { outcome: 'refused', decidedBy: 'caller', errorCode: 'E613' });
  expect(getRun(db, 'withdrawn')).toMatchObject({ surface: 'browser', decidedBy: 'caller', status: 'refused' });
  recordRequest(
    db,
    { id: 'cut', traceId: 't', surface: 'cli', skill: 'git', tool: 'git_status', args: {}, command: null, programPath: null, skillHash: 'h' },
    thisProcess(),
  );
  expect(recordInterrupted(db, 'cut', 'its owner stopped')).toBe(true);
  expect(getRun(db, 'cut')).toMatchObject({ status: 'interrupted', errorCode: 'E705' });
  expect(() => db.prepare(`UPDATE runs SET decided_by = 'somebody' WHERE id = 'withdrawn'`).run()).toThrow(/CHECK/);
  expect(() => db.prepare(`UPDATE runs SET surface = 'tray' WHERE id = 'withdrawn'`).run()).toThrow(/CHECK/);
}

describe('the sandbox migration', () => {
  it('keeps a pre-sandbox database whole and lets it record what is new', () => {
    const raw = new Database(join(homes.dir(), 'state.db'));
    try {
      applyMigrations(raw, MIGRATIONS.slice(0, sandboxStep));
      raw
        .prepare(
          `INSERT INTO runs (id, trace_id, surface, skill, tool, args, command, program_path, skill_hash, requested_at, outcome, decided_by, actor, status)
         VALUES ('old', 't', 'mcp', 'git', 'git_status', '{}', '{"program":"git","args":["status"],"cwd":"/r","timeoutMs":1,"env":[],"skill":"git","tool":"git_status","skillHash":"h"}', '/usr/bin/git', 'h', 5, 'approved', 'user', 'tray', 'succeeded')`,
        )
        .run();
      raw
        .prepare(`INSERT INTO remembered_approvals (skill, tool, skill_hash, program_path, created_at) VALUES ('git', 'git_log', 'h', '/usr/bin/git', 7)`)
        .run();

      expect(applyMigrations(raw)).toBe(SCHEMA_VERSION);
      expect(userVersion(raw)).toBe(SCHEMA_VERSION);
      // The old run reads back whole, with no sandbox recorded and no caller-supplied arguments marked.
      expect(getRun(raw, 'old')).toMatchObject({
        skill: 'git',
        decidedBy: 'user',
        actor: 'tray',
        status: 'succeeded',
        sandbox: null,
        answer: null,
        command: { args: ['status'], supplied: [] },
      });
      // An approval given for an uncontained run is pinned to the widest profile, so nothing narrower lapses it
      // (no run of it is in history, so the folder migration later revokes it: it asks once more).
      expect(raw.prepare("SELECT profile, network FROM remembered_approvals WHERE skill = 'git'").get()).toEqual({ profile: 'none', network: 1 });
      expect(listRemembered(raw, 'any-session')).toEqual([]);
      // 'caller' is now a decider; anything else unknown is still refused by the CHECK.
      recordRequest(
        raw,
        { id: 'new', traceId: 't', surface: 'http', skill: 'git', tool: 'git_status', args: {}, command: null, programPath: null, skillHash: 'h' },
        thisProcess(),
      );
      recordDecision(raw, 'new', { outcome: 'refused', decidedBy: 'caller', errorCode: 'E613' });
      expect(getRun(raw, 'new')).toMatchObject({ decidedBy: 'caller', status: 'refused' });
      expect(() => raw.prepare(`UPDATE runs SET decided_by = 'somebody' WHERE id = 'new'`).run()).toThrow(/CHECK/);
      expect(() => raw.prepare(`UPDATE runs SET answer = 'maybe' WHERE id = 'new'`).run()).toThrow(/CHECK/);
      // The history indexes came back with the rebuilt table.
      const plan = raw.prepare(`EXPLAIN QUERY PLAN SELECT id FROM runs WHERE skill = 'git' ORDER BY requested_at DESC`).all() as { detail: string }[];
      expect(plan.map((row) => row.detail).join(' ')).toMatch(/USING INDEX runs_by_skill/);
      expect(raw.prepare(`SELECT name FROM sqlite_master WHERE name = 'unsandboxed_skills'`).get()).toEqual({ name: 'unsandboxed_skills' });
    } finally {
      raw.close();
    }
  });

  it('takes a database from before owners and sandboxes through both rebuilds of runs', () => {
    expect(ownerStep).toBeGreaterThan(0);
    expect(ownerStep).toBeLessThan(sandboxStep);
    const raw = new Database(join(homes.dir(), 'state.db'));
    try {
      applyMigrations(raw, MIGRATIONS.slice(0, ownerStep));
      raw
        .prepare(
          `INSERT INTO runs (id, trace_id, surface, skill, tool, args, command, program_path, skill_hash, requested_at, outcome, decided_by, actor, status, stdout)
         VALUES ('old', 't', 'ui', 'git', 'git_status', '{}', NULL, '/usr/bin/git', 'h', 5, 'denied', 'user', 'tray', 'denied', 'out')`,
        )
        .run();
      expect(applyMigrations(raw)).toBe(SCHEMA_VERSION);
      expect(getRun(raw, 'old')).toMatchObject({
        surface: 'ui',
        decidedBy: 'user',
        actor: 'tray',
        status: 'denied',
        stdout: 'out',
        sandbox: null,
        answer: null,
        ownerPid: null,
        pgid: null,
      });
      takesWhatIsNew(raw);
    } finally {
      raw.close();
    }
  });

  it('gives a fresh database the same schema', () => {
    const raw = new Database(join(homes.dir(), 'state.db'));
    try {
      expect(applyMigrations(raw)).toBe(SCHEMA_VERSION);
      takesWhatIsNew(raw);
    } finally {
      raw.close();
    }
  });
});
