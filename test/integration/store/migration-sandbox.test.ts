/**
 * The sandbox migration on a database written before it: every run and approval kept, the CHECK on
 * decided_by loosened to take 'caller' (a withdrawn request) and nothing else new, the history
 * indexes rebuilt, and approvals given for uncontained runs kept as profile `none`.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { listRemembered } from '../../../src-main/core/store/approvals.js';
import { MIGRATIONS, SCHEMA_VERSION, applyMigrations, userVersion } from '../../../src-main/core/store/migrations.js';
import { getRun, recordDecision, recordRequest } from '../../../src-main/core/store/runs.js';
import { useTempHomes } from './temp-home.js';

const homes = useTempHomes();
const sandboxStep = MIGRATIONS.findIndex((m) => m.up.toString().includes('unsandboxed_skills'));

describe('the sandbox migration', () => {
  it('keeps a pre-sandbox database whole and lets it record what is new', () => {
    const raw = new Database(join(homes.dir(), 'state.db'));
    try {
      applyMigrations(raw, MIGRATIONS.slice(0, sandboxStep));
      raw.prepare(
        `INSERT INTO runs (id, trace_id, surface, skill, tool, args, command, program_path, skill_hash, requested_at, outcome, decided_by, actor, status)
         VALUES ('old', 't', 'mcp', 'git', 'git_status', '{}', '{"program":"git","args":["status"],"cwd":"/r","timeoutMs":1,"env":[],"skill":"git","tool":"git_status","skillHash":"h"}', '/usr/bin/git', 'h', 5, 'approved', 'user', 'tray', 'succeeded')`,
      ).run();
      raw.prepare(`INSERT INTO remembered_approvals (skill, tool, skill_hash, program_path, created_at) VALUES ('git', 'git_log', 'h', '/usr/bin/git', 7)`).run();

      expect(applyMigrations(raw)).toBe(SCHEMA_VERSION);
      expect(userVersion(raw)).toBe(SCHEMA_VERSION);
      // The old run reads back whole, with no sandbox recorded and no caller-supplied arguments marked.
      expect(getRun(raw, 'old')).toMatchObject({ skill: 'git', decidedBy: 'user', actor: 'tray', status: 'succeeded', sandbox: null, answer: null, command: { args: ['status'], supplied: [] } });
      // An approval given for an uncontained run is pinned to the widest profile, so nothing narrower lapses it.
      expect(listRemembered(raw, 'any-session')).toMatchObject([{ skill: 'git', tool: 'git_log', profile: { name: 'none', network: true }, expires: 'revoke' }]);
      // 'caller' is now a decider; anything else unknown is still refused by the CHECK.
      recordRequest(raw, { id: 'new', traceId: 't', surface: 'http', skill: 'git', tool: 'git_status', args: {}, command: null, programPath: null, skillHash: 'h' });
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
});
