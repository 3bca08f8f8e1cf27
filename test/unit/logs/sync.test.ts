import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { accessLogPath, appendAccessRows, fallbackLogPath, type AccessRow } from '../../../src-main/core/logs/access-log.js';
import { syncLogs } from '../../../src-main/core/logs/sync.js';
import { tempDir } from '../../fixtures/gateway/skill-fixture.js';
import { thrownBy } from '../../support/errors.js';
import { formatSync, syncExitStatus } from '../../../src-main/cli/format/sync.js';

function entry(n: number, skill: string): AccessRow {
  return {
    timestamp: `2026-01-30T10:00:${String(n).padStart(2, '0')}Z`,
    run_id: 'run',
    command: 'show',
    skill,
    skill_path: `/skills/${skill}`,
    cwd: '/p',
    args: `{"n":${n}}`,
    error: null,
  };
}

function setup(): { project: string; home: string; runtimeDirFor: (skill: string) => string } {
  const project = realpathSync(tempDir());
  const home = tempDir();
  return { project, home, runtimeDirFor: (skill) => join(home, 'runtime', skill) };
}

function count(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM access_log').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('RFC-0007:C-SYNC', () => {
  it('moves every skill’s fallback entries into its primary log and deletes the local logs', () => {
    const { project, runtimeDirFor } = setup();
    appendAccessRows(fallbackLogPath(project, 'rust'), [entry(1, 'rust'), entry(2, 'rust'), entry(3, 'rust')]);
    appendAccessRows(fallbackLogPath(project, 'cuda'), [entry(1, 'cuda')]);
    const result = syncLogs({ project, runtimeDirFor });
    expect(result.skills.map((s) => [s.skill, s.status, s.entries])).toEqual([
      ['cuda', 'synced', 1],
      ['rust', 'synced', 3],
    ]);
    expect(formatSync(result)).toEqual({
      stdout: "Synced 1 entries for 'cuda' (local logs removed)\nSynced 3 entries for 'rust' (local logs removed)",
      stderr: '',
    });
    expect(syncExitStatus(result)).toBe(0);
    expect(count(accessLogPath(runtimeDirFor('rust')))).toBe(3);
    expect(existsSync(join(project, '.skillc', 'logs', 'rust'))).toBe(false);
    expect(existsSync(join(project, '.skillc', 'logs', 'cuda'))).toBe(false);
  });

  it('is idempotent: entries already in the primary log are not copied again, true duplicates are kept', () => {
    const { project, runtimeDirFor } = setup();
    const rows = [entry(1, 'rust'), entry(2, 'rust'), entry(2, 'rust')];
    appendAccessRows(accessLogPath(runtimeDirFor('rust')), [entry(1, 'rust')]);
    appendAccessRows(fallbackLogPath(project, 'rust'), rows);
    expect(syncLogs({ project, runtimeDirFor }).skills[0]).toMatchObject({ status: 'synced', entries: 2 });
    expect(count(accessLogPath(runtimeDirFor('rust')))).toBe(3);
    // A second copy of the same fallback (as after a crash between copy and delete) adds nothing.
    appendAccessRows(fallbackLogPath(project, 'rust'), rows);
    expect(syncLogs({ project, runtimeDirFor }).skills[0]).toMatchObject({ status: 'synced', entries: 0 });
    expect(count(accessLogPath(runtimeDirFor('rust')))).toBe(3);
  });

  it('--dry-run reports what would be synced and writes or deletes nothing', () => {
    const { project, runtimeDirFor } = setup();
    appendAccessRows(accessLogPath(runtimeDirFor('rust')), [entry(1, 'rust')]);
    appendAccessRows(fallbackLogPath(project, 'rust'), [entry(1, 'rust'), entry(2, 'rust')]);
    const result = syncLogs({ project, runtimeDirFor, dryRun: true });
    expect(result).toMatchObject({ dry_run: true, skills: [{ skill: 'rust', status: 'would_sync', entries: 1 }] });
    expect(formatSync(result).stdout).toBe("Would sync 1 entries for 'rust'");
    expect(count(accessLogPath(runtimeDirFor('rust')))).toBe(1);
    expect(existsSync(fallbackLogPath(project, 'rust'))).toBe(true);
  });

  it('no local logs: "No local logs to sync", exit 0 (stray files and dirs without a log are ignored)', () => {
    const { project, runtimeDirFor } = setup();
    mkdirSync(join(project, '.skillc', 'logs', 'empty'), { recursive: true });
    writeFileSync(join(project, '.skillc', 'logs', 'stray.txt'), 'x');
    const result = syncLogs({ project, runtimeDirFor });
    expect(formatSync(result)).toEqual({ stdout: 'No local logs to sync', stderr: '' });
    expect(syncExitStatus(result)).toBe(0);
  });

  it('E040 when the named skill has no local logs; a named skill syncs alone', () => {
    const { project, runtimeDirFor } = setup();
    appendAccessRows(fallbackLogPath(project, 'rust'), [entry(1, 'rust')]);
    appendAccessRows(fallbackLogPath(project, 'cuda'), [entry(1, 'cuda')]);
    expect(thrownBy(() => syncLogs({ project, runtimeDirFor, skill: 'go' })).format()).toBe('error[E040]: no local logs found');
    expect(syncLogs({ project, runtimeDirFor, skill: 'rust' }).skills.map((s) => s.skill)).toEqual(['rust']);
    expect(existsSync(fallbackLogPath(project, 'cuda'))).toBe(true);
  });

  it('each skill is independent: A is synced and removed, B fails with E041 and keeps its logs, exit 1', () => {
    const { project, home, runtimeDirFor } = setup();
    appendAccessRows(fallbackLogPath(project, 'a'), [entry(1, 'a')]);
    appendAccessRows(fallbackLogPath(project, 'b'), [entry(1, 'b')]);
    mkdirSync(join(home, 'runtime'), { recursive: true });
    writeFileSync(runtimeDirFor('b'), 'a file where the runtime dir should be');
    const result = syncLogs({ project, runtimeDirFor });
    expect(result.skills.map((s) => [s.skill, s.status, s.error?.code ?? null])).toEqual([
      ['a', 'synced', null],
      ['b', 'failed', 'E041'],
    ]);
    expect(formatSync(result)).toEqual({
      stdout: "Synced 1 entries for 'a' (local logs removed)",
      stderr: `error[E041]: sync destination not writable: '${runtimeDirFor('b')}'`,
    });
    expect(syncExitStatus(result)).toBe(1);
    expect(existsSync(fallbackLogPath(project, 'a'))).toBe(false);
    expect(existsSync(fallbackLogPath(project, 'b'))).toBe(true);
  });

  it('E042 when a fallback database cannot be read', () => {
    const { project, runtimeDirFor } = setup();
    const source = fallbackLogPath(project, 'broken');
    mkdirSync(join(source, '..'), { recursive: true });
    writeFileSync(source, Buffer.alloc(2048, 0x42));
    const result = syncLogs({ project, runtimeDirFor });
    expect(result.skills[0]).toMatchObject({
      skill: 'broken',
      status: 'failed',
      error: { code: 'E042', kind: 'sync_source_not_readable', message: `sync source not readable: '${source}'` },
    });
    expect(existsSync(source)).toBe(true);
  });
});
