/**
 * Soak: a damaged state.db is salvaged of every row SQLite can still read, as sqlite3's own
 * `.recover` reads them. Each damage (random bytes over a leaf, over an interior page, over a
 * leaf's cells only, a broken overflow chain) is applied to two copies of one file: `.recover` reads
 * one, Skilltray's recovery the other, and every run, rule and remembered approval `.recover` got
 * back must be in the recovered state.db. Prints the counts side by side.
 */
import { copyFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { addRule } from '../../../src-main/core/store/rules.js';
import { remember } from '../../../src-main/core/store/approvals.js';
import { recordDecision, recordRequest, recordResult, recordStart } from '../../../src-main/core/store/run-records.js';
import { openStateDb } from '../../../src-main/core/store/state-db.js';
import { breakOverflowChain, damagePage, pagesOf } from '../store/damage.js';
import { recoverShell } from '../../support/sqlite-recover.js';
import { tempDir } from '../../support/temp.js';
import { thisProcess } from '../../../src-main/core/process-identity.js';

/** A state.db with rules, remembered approvals and 400 runs, every tenth with output long enough to overflow its page. */
function populate(path: string): void {
  const db = openStateDb(path);
  for (let i = 0; i < 12; i++) addRule(db, `tool:skill-${i}/*`, i % 3 === 0 ? 'deny' : 'allow');
  for (let i = 0; i < 6; i++)
    remember(db, {
      skill: `notes-${i}`,
      tool: 'append',
      skillHash: 'h'.repeat(64),
      identity: { rootKind: 'home', path: `/h/skills/notes-${i}`, trust: 'user' },
      programPath: '/usr/bin/tee',
      profile: { name: 'workspace', network: false, hosts: [] },
      folder: '/h/notes',
    });
  for (let i = 0; i < 400; i++) {
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
    const stdout = `${i}:`.padEnd(i % 10 === 0 ? 9_000 : 120, 'o');
    recordResult(db, id, {
      exitCode: 0,
      signal: null,
      timedOut: false,
      cancelled: false,
      stdout,
      stderr: '',
      droppedBytes: { stdout: 0, stderr: 0 },
      durationMs: 1,
    });
  }
  db.close();
}

interface Found {
  runs: Set<string>;
  rules: Set<string>;
  remembered: Set<string>;
}

/** Runs, rules and remembered approvals in a database, as identities that cannot collide with garbage (ids and patterns as written). */
function found(path: string): Found {
  const db = new Database(path, { readonly: true });
  const all = <T>(sql: string): T[] => {
    try {
      return db.prepare(sql).all() as T[];
    } catch {
      return [];
    }
  };
  try {
    return {
      runs: new Set(
        all<{ id: unknown }>('SELECT id FROM runs')
          .map((r) => String(r.id))
          .filter((id) => /^run-\d{4}$/.test(id)),
      ),
      rules: new Set(
        all<{ pattern: unknown; effect: unknown }>('SELECT pattern, effect FROM rules')
          .map((r) => `${String(r.effect)} ${String(r.pattern)}`)
          .filter((r) => /^(allow|deny) tool:skill-\d+\/\*$/.test(r)),
      ),
      remembered: new Set(
        all<{ skill: unknown }>('SELECT skill FROM remembered_approvals')
          .map((r) => String(r.skill))
          .filter((s) => /^notes-\d$/.test(s)),
      ),
    };
  } finally {
    db.close();
  }
}

/** What sqlite3's `.recover` reads out of `damaged`, loaded into a database of its own. */
async function recoverWithSqlite(damaged: string, dir: string): Promise<Found> {
  const shell = await recoverShell();
  const script = await execa(shell, [damaged, '.recover'], { stripFinalNewline: false });
  const out = join(dir, 'by-recover.db');
  // A STRICT table refuses a garbage value .recover read (a blob where text goes): the shell says
  // so, leaves that row out and goes on, as Skilltray's salvage must leave it out too.
  await execa(shell, [out], { input: script.stdout, reject: false });
  return found(out);
}

const DAMAGES: { name: string; apply: (path: string, pages: { leaves: number[]; interior: number[]; overflow: number[] }) => void }[] = [
  { name: 'random bytes over a leaf of runs', apply: (path, p) => damagePage(path, p.leaves[Math.floor(p.leaves.length / 2)] as number, 7) },
  { name: "random bytes over a leaf's cells (garbage rowids)", apply: (path, p) => damagePage(path, p.leaves[3] as number, 19, { offset: 1200, count: 2896 }) },
  { name: 'random bytes over an interior page of runs', apply: (path, p) => damagePage(path, p.interior[0] as number, 23, { offset: 0, count: 64 }) },
  { name: 'a broken overflow chain', apply: (path, p) => breakOverflowChain(path, p.overflow[2] as number) },
];

describe('soak: state.db salvage against sqlite3 .recover', () => {
  // Compiled once per checkout: the first run waits for the compiler.
  beforeAll(() => recoverShell(), 180_000);

  for (const damage of DAMAGES) {
    it(`${damage.name}: every run, rule and remembered approval .recover reads is saved`, async () => {
      const dir = tempDir();
      const path = join(dir, 'state.db');
      populate(path);
      const pages = { leaves: pagesOf(path, 'runs', 'leaf'), interior: pagesOf(path, 'runs', 'internal'), overflow: pagesOf(path, 'runs', 'overflow') };
      expect(pages.leaves.length).toBeGreaterThan(10);
      expect(pages.interior.length).toBeGreaterThan(0);
      damage.apply(path, pages);
      const copy = join(dir, 'copy.db');
      copyFileSync(path, copy);

      const theirs = await recoverWithSqlite(copy, dir);
      const db = openStateDb(path);
      db.close();
      const ours = found(path);
      expect(existsSync(path)).toBe(true);

      console.log(
        `[soak] salvage vs .recover, ${damage.name}: runs ${ours.runs.size} vs ${theirs.runs.size} of 400, rules ${ours.rules.size} vs ${theirs.rules.size} of 12, remembered ${ours.remembered.size} vs ${theirs.remembered.size} of 6`,
      );
      expect([...theirs.runs].filter((id) => !ours.runs.has(id))).toEqual([]);
      expect([...theirs.rules].filter((r) => !ours.rules.has(r))).toEqual([]);
      expect([...theirs.remembered].filter((r) => !ours.remembered.has(r))).toEqual([]);
      // The damage was found and the file recovered: the comparison is about a real salvage.
      expect(readdirSync(dir).some((f) => f.startsWith('state.db.corrupt-'))).toBe(true);
    });
  }
});
