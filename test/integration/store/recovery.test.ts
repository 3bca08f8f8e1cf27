import { closeSync, existsSync, openSync, readdirSync, writeFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { listRules } from '../../../src-main/core/store/rules.js';
import { findRemembered, listRemembered, remember } from '../../../src-main/core/store/approvals.js';
import { listNotices } from '../../../src-main/core/store/notices.js';
import { getRun, listRuns } from '../../../src-main/core/store/run-queries.js';
import { recordDecision, recordRequest, recordResult, recordStart } from '../../../src-main/core/store/run-records.js';
import { getSettings, setPaletteShortcut, setRetention } from '../../../src-main/core/store/settings.js';
import { DEFAULT_LIMIT_CEILING } from '../../../src-main/core/policy/resource-limits.js';
import { listUnsandboxed } from '../../../src-main/core/store/unsandboxed.js';
import { listSwitches, setSwitch } from '../../../src-main/core/store/switches.js';
import { listTrustedProjects, trustProject } from '../../../src-main/core/store/trusted-projects.js';
import { openStateDb, recoverStateDb, replaceDamaged, type StateDb } from '../../../src-main/core/store/state-db.js';
import type { Notice } from '../../../src-main/shared/runs.js';
import { breakFirstColumn, breakOverflowChain, damagePage, pagesOf } from './damage.js';
import { addPersonsChoices, useTempHomes } from './temp-home.js';
import { thisProcess } from '../../../src-main/core/process-identity.js';

const homes = useTempHomes();
/** The owner session remembered approvals are looked up in (they are "until revoked", so any session sees them). */
const SESSION = 'session-after-recovery';

/**
 * A state.db with an allow and a deny rule, a remembered approval, an unsandboxed skill, changed settings and `runs` finished runs (output of `outputBytes`
 * each).
 */
function populated(path: string, runs = 300, outputBytes = 100): void {
  const db = openStateDb(path);
  addPersonsChoices(db);
  setRetention(db, { outputDays: 9 });
  setPaletteShortcut(db, 'Alt+K');
  for (let i = 0; i < runs; i++) {
    const id = recordRequest(
      db,
      {
        id: `run-${String(i).padStart(4, '0')}`,
        traceId: `t${i}`,
        surface: 'cli',
        skill: 'git',
        tool: 'git_log',
        args: { i },
        command: null,
        programPath: '/usr/bin/git',
        skillHash: 'h',
        requestedAt: 1_000 + i,
      },
      thisProcess(),
    );
    recordDecision(db, id, { outcome: 'auto', decidedBy: 'policy', reason: 'bundled read-only' });
    recordStart(db, id);
    recordResult(db, id, {
      exitCode: 0,
      signal: null,
      timedOut: false,
      cancelled: false,
      stdout: `${i}:`.padEnd(outputBytes, 'o'),
      stderr: '',
      droppedBytes: { stdout: 0, stderr: 0 },
      durationMs: 1,
    });
  }
  db.close();
}

/** Opens `path` as the owner does, collecting the notices told. */
function openTold(path: string): { db: StateDb; told: Notice[] } {
  const told: Notice[] = [];
  const db = openStateDb(path, { onRecovered: (n) => told.push(n) });
  return { db, told };
}

/** A populated state.db in `dir` whose header names a schema format no SQLite writes: it will not open, so its tables are read from its pages. */
function unsupportedFormat(dir: string): string {
  const path = join(dir, 'state.db');
  populated(path, 5);
  // The schema format number, a big-endian 4-byte integer at offset 44: 1 to 4 in every file SQLite writes.
  const fd = openSync(path, 'r+');
  writeSync(fd, Buffer.from([0, 0, 0, 9]), 0, 4, 44);
  closeSync(fd);
  return path;
}

const asideFiles = (dir: string): string[] => readdirSync(dir).filter((f) => f.startsWith('state.db.corrupt-') && !/-(wal|shm)$/.test(f));

describe('a damaged state.db', () => {
  it('random bytes over a page of history: moved aside, and rules, remembered approvals, settings and the other runs recovered, told once', () => {
    const dir = homes.dir();
    const path = join(dir, 'state.db');
    populated(path);
    const leaves = pagesOf(path, 'runs', 'leaf');
    expect(leaves.length).toBeGreaterThan(3);
    damagePage(path, leaves[Math.floor(leaves.length / 2)] as number);

    const { db, told } = openTold(path);
    try {
      expect(told).toHaveLength(1);
      expect(told[0]).toMatchObject({ code: 'E901' });
      expect(told[0]?.message).toMatch(
        /^state\.db was damaged \(.+\) and was moved to .*state\.db\.corrupt-.* a new one holds what could still be read: 2 rules, 1 remembered approval, 1 skill you run without a sandbox, your settings, \d+ runs of history \(some could not be read\)\.$/,
      );
      expect(asideFiles(dir)).toHaveLength(1);
      expect(listRules(db).map((r) => [r.effect, r.pattern])).toEqual([
        ['allow', 'tool:git/*'],
        ['deny', 'skill:danger*'],
      ]);
      expect(findRemembered(db, 'notes', 'append', SESSION)).toMatchObject([
        {
          programPath: '/usr/bin/tee',
          profile: { name: 'workspace', network: false, hosts: [] },
          folder: '/h/notes',
          identity: { rootKind: 'home', trust: 'user' },
          expires: 'revoke',
        },
      ]);
      expect(listUnsandboxed(db)).toEqual(['legacy']);
      expect(getSettings(db)).toEqual({
        mode: 'Dev',
        paused: false,
        paletteShortcut: 'Alt+K',
        retention: { outputDays: 9, outputMaxMb: 100 },
        limitCeiling: DEFAULT_LIMIT_CEILING,
      });
      const kept = listRuns(db, { limit: 1000 });
      expect(kept.length).toBeGreaterThan(250);
      expect(kept.length).toBeLessThan(300);
      expect(getRun(db, kept[0]?.id as string)).toMatchObject({ status: 'succeeded', outcome: 'auto', stdout: expect.stringMatching(/^\d+:o+$/) });
      // The new file works: a run can be recorded again.
      recordRequest(
        db,
        { traceId: 'after', surface: 'cli', skill: 'git', tool: 'git_log', args: {}, command: null, programPath: null, skillHash: 'h' },
        thisProcess(),
      );
      expect(listNotices(db)).toEqual([told[0]]);
    } finally {
      db.close();
    }
    // Healthy now: opened again, nothing more is told or moved.
    const again = openTold(path);
    expect(again.told).toEqual([]);
    expect(asideFiles(dir)).toHaveLength(1);
    again.db.close();
  });

  it('a damaged page of a run’s output keeps the run’s record — who, what, when, the decision — and says its end could not be read', () => {
    const path = join(homes.dir(), 'state.db');
    populated(path, 20, 9000);
    // The first overflow page of a row's output: what lies past it (the rest of the output, then the status) is lost.
    const overflow = pagesOf(path, 'runs', 'overflow', /\+000000$/);
    breakOverflowChain(path, overflow[0] as number);
    const { db } = openTold(path);
    try {
      const runs = listRuns(db);
      expect(runs).toHaveLength(20);
      const lost = runs.map((r) => getRun(db, r.id)).filter((r) => r?.stdout === null);
      expect(lost).toHaveLength(1);
      // What lies past the output in the record (its status) went with it: the run says so instead of looking pending.
      expect(lost[0]).toMatchObject({
        skill: 'git',
        tool: 'git_log',
        surface: 'cli',
        outcome: 'auto',
        decidedBy: 'policy',
        status: 'failed',
        errorCode: 'E901',
      });
      expect(lost[0]?.reason).toBe('recovered from a damaged state.db: how this run ended could not be read');
    } finally {
      db.close();
    }
  });

  it('a remembered approval that can be read only in part is dropped, never saved wider (its session lost would make it last until revoked)', () => {
    const path = join(homes.dir(), 'state.db');
    // A session id long enough to spill over two overflow pages, so breaking the chain hides it and nothing before it.
    const session = 's'.repeat(10_000);
    const db = openStateDb(path);
    remember(db, {
      skill: 'notes',
      tool: 'append',
      skillHash: 'h'.repeat(64),
      identity: { rootKind: 'home', path: '/h/skills/notes', trust: 'user' },
      programPath: '/usr/bin/tee',
      profile: { name: 'workspace', network: false, hosts: [] },
      folder: '/h/notes',
      session,
    });
    remember(db, {
      skill: 'git',
      tool: 'git_status',
      skillHash: 'g'.repeat(64),
      identity: { rootKind: 'bundled', path: '/app/skills/git', trust: 'bundled' },
      programPath: '/usr/bin/git',
      profile: { name: 'read-only', network: false, hosts: [] },
      folder: null,
    });
    db.close();
    breakOverflowChain(path, pagesOf(path, 'remembered_approvals', 'overflow', /\+000000$/)[0] as number);
    const { db: recovered, told } = openTold(path);
    try {
      expect(told.map((n) => n.code)).toEqual(['E901']);
      expect(told[0]?.message).toContain('some remembered approvals could not be read (those tools will ask again)');
      expect(listRemembered(recovered, session).map((r) => `${r.skill}/${r.tool}`)).toEqual(['git/git_status']);
    } finally {
      recovered.close();
    }
  });

  it('a row whose record breaks off before its first column is counted as lost, and the tables after it are still recovered', () => {
    const dir = homes.dir();
    const path = join(dir, 'state.db');
    populated(path, 5);
    const db = openStateDb(path);
    setSwitch(db, 'evil', false, null, 1);
    setSwitch(db, 'other', false, null, 1);
    trustProject(db, '/h/project', 'd'.repeat(64), 1);
    db.close();
    breakFirstColumn(path, pagesOf(path, 'skill_switches', 'leaf')[0] as number);
    const { db: recovered, told } = openTold(path);
    try {
      expect(told.map((n) => n.code)).toEqual(['E901']);
      expect(told[0]?.message).toContain(
        'some skills you turned on or off could not be read (a skill you turned off may be on again), so runs are paused until you check your skills and resume',
      );
      expect(told[0]?.details).toMatchObject({ tables: { skill_switches: { read: 2, written: 1, complete: false } } });
      expect(getSettings(recovered).paused).toBe(true);
      expect(listSwitches(recovered)).toEqual([{ skill: 'other', scope: 'all', enabled: false }]);
      // What comes after skill_switches in the copy is there too.
      expect(listTrustedProjects(recovered).map((p) => p.path)).toEqual(['/h/project']);
      expect(listRules(recovered)).toHaveLength(2);
      expect(listRuns(recovered)).toHaveLength(5);
      expect(listNotices(recovered)).toEqual(told);
    } finally {
      recovered.close();
    }
    expect(asideFiles(dir)).toHaveLength(1);
  });

  it('says loudly when rules cannot be read back (a deny rule may be lost), and pauses runs', () => {
    const dir = homes.dir();
    const path = join(dir, 'state.db');
    populated(path, 5);
    damagePage(path, pagesOf(path, 'rules', 'leaf')[0] as number, 3);
    const { db, told } = openTold(path);
    try {
      expect(told.map((n) => n.code)).toEqual(['E902']);
      expect(told[0]?.message).toContain('SOME RULES COULD NOT BE READ BACK: a deny rule you had may be gone');
      expect(told[0]?.message).toContain('Runs are paused until you check your rules');
      expect(getSettings(db).paused).toBe(true);
      expect(findRemembered(db, 'notes', 'append', SESSION)).not.toEqual([]);
      expect(listRuns(db)).toHaveLength(5);
    } finally {
      db.close();
    }
  });

  it('a file that is not a database at all: moved aside, nothing read, runs paused (rules unknown)', () => {
    const dir = homes.dir();
    const path = join(dir, 'state.db');
    writeFileSync(path, 'this is not sqlite, just text long enough to fill a header page '.repeat(20));
    const { db, told } = openTold(path);
    try {
      expect(told.map((n) => n.code)).toEqual(['E902']);
      expect(getSettings(db).paused).toBe(true);
      expect(asideFiles(dir)).toHaveLength(1);
      expect(listRemembered(db, SESSION)).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('a header whose schema format no SQLite writes ("unsupported file format"): moved aside, and the person\'s choices read back from its pages', () => {
    const dir = homes.dir();
    const path = unsupportedFormat(dir);
    const { db, told } = openTold(path);
    try {
      expect(told).toHaveLength(1);
      expect(asideFiles(dir)).toHaveLength(1);
      expect(
        listRules(db)
          .map((r) => r.effect)
          .sort(),
      ).toEqual(['allow', 'deny']);
    } finally {
      db.close();
    }
  });

  it("reads a damaged file's tables with the store's own addon, never the default one (under Electron that is Node's)", async () => {
    const path = unsupportedFormat(homes.dir());
    const addon = createRequire(import.meta.url).resolve('better-sqlite3/build/Release/better_sqlite3.node');
    const { stdout } = await execa(process.execPath, [join('test', 'fixtures', 'processes', 'recover-own-addon.mjs'), path, addon]);
    expect(JSON.parse(stdout)).toEqual(['allow', 'deny']);
  });

  it('a connection whose file another process already recovered opens that file instead of recovering again', () => {
    const dir = homes.dir();
    const path = join(dir, 'state.db');
    populated(path, 3);
    const stale = openStateDb(path);
    const other = recoverStateDb(path, {}, 'found damaged elsewhere');
    other.close();
    const told: Notice[] = [];
    const db = replaceDamaged(stale, { onRecovered: (n) => told.push(n) }, 'database disk image is malformed');
    try {
      expect(told).toEqual([]);
      expect(asideFiles(dir)).toHaveLength(1);
      expect(listNotices(db).map((n) => n.code)).toEqual(['E901']);
      expect(existsSync(path)).toBe(true);
    } finally {
      db.close();
    }
  });
});
