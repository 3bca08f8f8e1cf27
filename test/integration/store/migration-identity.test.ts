/**
 * The state.db migration that pins trust to identity, on a database written before it: a remembered
 * approval gets the folder of the run it was given on (from history); a read-only one whose run is
 * gone holds in any folder, any other such one is revoked (it asks once more); at most one is live
 * per tool and folder. Rules from before are pinned on first use, to the skills they cover then whose
 * identity is beyond doubt: a name two skills share is left for the person to allow again.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SkilltrayCore } from '../../../src-main/core/api.js';
import { listRemembered } from '../../../src-main/core/store/approvals.js';
import { MIGRATIONS, applyMigrations } from '../../../src-main/core/store/migrations.js';
import { listRules } from '../../../src-main/core/store/rules.js';
import { skillMd, testHome, writeSkill } from '../../support/temp.js';
import { useTempHomes } from './temp-home.js';

const homes = useTempHomes();
const identityStep = MIGRATIONS.findIndex((m) => m.up.toString().includes('remembered_active_in'));

/** A database at the version before identities, holding what `fill` writes. */
function before(path: string, fill: (db: Database.Database) => void): void {
  const raw = new Database(path);
  try {
    applyMigrations(raw, MIGRATIONS.slice(0, identityStep));
    fill(raw);
  } finally {
    raw.close();
  }
}

describe('the identity migration', () => {
  it('pins each live approval to the folder of the run it was given on, keeps read-only ones anywhere, revokes the rest', () => {
    const path = join(homes.dir(), 'state.db');
    before(path, (db) => {
      db.prepare(
        `INSERT INTO runs (id, trace_id, surface, skill, tool, args, command, program_path, skill_hash, requested_at, decided_at, outcome, decided_by, answer, status)
         VALUES ('r1', 't', 'mcp', 'notes', 'append', '{}', '{"program":"tee","args":[],"cwd":"/home/me/proj","timeoutMs":1,"env":[],"skill":"notes","tool":"append","skillHash":"h"}', '/usr/bin/tee', 'h', 90, 101, 'approved', 'user', 'always', 'succeeded')`,
      ).run();
      const add = db.prepare(
        'INSERT INTO remembered_approvals (skill, tool, skill_hash, program_path, profile, network, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      );
      add.run('notes', 'append', 'h', '/usr/bin/tee', 'workspace', 0, 100, null);
      add.run('git', 'git_log', 'g', '/usr/bin/git', 'read-only', 0, 50, null);
      add.run('edit', 'write', 'e', '/usr/bin/ed', 'workspace', 0, 60, null);
      add.run('old', 'gone', 'o', '/usr/bin/true', 'workspace', 0, 10, 20);
      db.prepare("INSERT INTO rules (pattern, effect, created_at) VALUES ('tool:notes/append', 'allow', 1)").run();
    });
    const db = homes.open(path);
    expect(listRemembered(db, 'any').map((r) => [`${r.skill}/${r.tool}`, r.folder, r.identity])).toEqual([
      ['git/git_log', null, null],
      ['notes/append', '/home/me/proj', null],
    ]);
    expect(db.prepare("SELECT revoked_at FROM remembered_approvals WHERE skill IN ('edit', 'old') ORDER BY skill").all()).toEqual([
      { revoked_at: expect.any(Number) },
      { revoked_at: 20 },
    ]);
    expect(listRules(db).map((r) => r.pins)).toEqual([null]);
    // One live approval per tool and folder, now.
    const insert = db.prepare(
      "INSERT INTO remembered_approvals (skill, tool, skill_hash, program_path, folder, created_at) VALUES ('notes', 'append', 'x', '/x', ?, 1)",
    );
    expect(() => insert.run('/home/me/proj')).toThrow(/UNIQUE/);
    expect(() => insert.run('/home/me/other')).not.toThrow();
  });
});

describe('rules made before pins', () => {
  const cores: SkilltrayCore[] = [];
  afterEach(async () => {
    for (const core of cores.splice(0)) await core.close();
  });

  const tool = (name: string, extra: Record<string, unknown> = {}) =>
    skillMd(
      { name, description: `The ${name} skill.`, version: '1.0.0', ...extra },
      '\n### go\n\nRuns.\n\n#### Parameters\n\nNone.\n\n#### Command\n\n```\ntrue\n```\n',
    );

  it('keep working for the one skill of their name they were written for, and not where two skills share it', () => {
    const t = testHome();
    writeSkill(t.bundled, 'git', tool('git', { read_only: true }));
    t.sealBundled();
    writeSkill(t.skills, 'git', tool('git'));
    writeSkill(t.skills, 'notes', tool('notes'));
    before(join(t.home, 'state.db'), (db) => {
      const add = db.prepare("INSERT INTO rules (pattern, effect, created_at) VALUES (?, 'allow', 1)");
      for (const pattern of ['tool:git/go', 'skill:notes', 'skill:gone']) add.run(pattern);
      db.prepare("INSERT INTO rules (pattern, effect, created_at) VALUES ('skill:x*', 'deny', 1)").run();
    });
    const core = new SkilltrayCore(t.config());
    cores.push(core);
    const cwd = t.work;
    expect(core.runs.dryRun({ skill: 'notes', tool: 'go', surface: 'cli', cwd })).toMatchObject({
      decision: 'auto',
      reason: 'allowed by rule #2 (skill:notes)',
    });
    const git = core.runs.dryRun({ skill: 'git', tool: 'go', surface: 'cli', cwd });
    expect(git).toMatchObject({ decision: 'ask' });
    expect(git.reason).toContain(
      "rule #1 (tool:git/go) does not cover this 'git' (a rule covers the skills it named when it was made); add it again to let it cover this one",
    );
    expect(core.policy.rules().map((r) => [r.pattern, (r.pins ?? []).map((p) => `${p.skill}:${p.rootKind}`)])).toEqual([
      ['tool:git/go', []],
      ['skill:notes', ['notes:env']],
      ['skill:gone', []],
      ['skill:x*', []],
    ]);
  });
});
