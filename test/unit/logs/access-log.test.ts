import { chmodSync, mkdirSync, realpathSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SkilltrayError } from '../../../src-main/shared/skilltray-error.js';
import {
  ACCESS_LOG_SCHEMA,
  accessLogPath,
  AccessLogger,
  fallbackLogPath,
  generateRunId,
  LOGGING_DISABLED_WARNING,
  runIdFor,
  staleFallbackWarning,
  withAccessLog,
  type AccessEntry,
} from '../../../src-main/core/logs/access-log.js';
import { logArgs } from '../../../src-main/core/gateway/log-args.js';
import { makeSkill, tempDir, withEnforcedModes } from '../../fixtures/gateway/skill-fixture.js';

interface Setup {
  base: string;
  dir: string;
  runtime: string;
  cwd: string;
  entry: AccessEntry;
}

function setup(): Setup {
  const base = tempDir();
  const dir = makeSkill(base, 'demo', { 'SKILL.md': '# Demo\n' });
  const runtime = join(base, 'home', 'runtime', 'demo');
  const cwd = join(base, 'project');
  mkdirSync(cwd);
  return {
    base,
    dir,
    runtime,
    cwd,
    entry: { command: 'show', skill: 'demo', skillPath: dir, runtimeDir: runtime, cwd, args: { section: 'Demo', file: 'SKILL.md', max_lines: null } },
  };
}

function rows(path: string): Record<string, unknown>[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare('SELECT * FROM access_log ORDER BY id').all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

const fixedClock = (iso: string) => () => new Date(iso);

describe('RFC-0007:C-LOGGING', () => {
  it('creates the runtime dir, .skillc-meta/, the database and schema, and writes one row with every column', () => {
    const { dir, runtime, cwd, entry } = setup();
    const logger = new AccessLogger({ env: { SKC_RUN_ID: 'run-42' }, now: fixedClock('2026-01-30T12:34:56.789Z') });
    const outcome = logger.log(entry);
    expect(outcome).toEqual({ destination: 'primary', path: accessLogPath(runtime), warnings: [] });
    expect(accessLogPath(runtime)).toBe(join(runtime, '.skillc-meta', 'logs.db'));
    expect(rows(accessLogPath(runtime))).toEqual([
      {
        id: 1,
        timestamp: '2026-01-30T12:34:56Z',
        run_id: 'run-42',
        command: 'show',
        skill: 'demo',
        skill_path: realpathSync(dir),
        cwd: realpathSync(cwd),
        args: '{"section":"Demo","file":"SKILL.md","max_lines":null}',
        error: null,
      },
    ]);
  });

  it('canonicalises skill_path and cwd: symlinks and .. resolved', () => {
    const { base, dir, cwd, entry, runtime } = setup();
    symlinkSync(dir, join(base, 'skill-link'));
    symlinkSync(cwd, join(base, 'cwd-link'));
    new AccessLogger({ env: {} }).log({ ...entry, skillPath: join(base, 'skill-link'), cwd: join(base, 'cwd-link', 'sub', '..') });
    expect(rows(accessLogPath(runtime))[0]).toMatchObject({ skill_path: realpathSync(dir), cwd: realpathSync(cwd) });
  });

  it('run id: SKC_RUN_ID when set, else YYYYMMDDTHHMMSSZ-<rand4> generated once per process', () => {
    expect(runIdFor({ SKC_RUN_ID: 'from-env' })).toBe('from-env');
    const generated = runIdFor({});
    expect(generated).toMatch(/^\d{8}T\d{6}Z-[0-9a-f]{4}$/);
    expect(runIdFor({ SKC_RUN_ID: '' })).toBe(generated);
    expect(generateRunId(new Date('2026-01-30T01:02:03Z'))).toMatch(/^20260130T010203Z-[0-9a-f]{4}$/);
  });

  it('records the error text of a failed command; search logs {query, result_count}', () => {
    const { runtime, entry } = setup();
    const logger = new AccessLogger({ env: {} });
    const failure = new SkilltrayError('E020', "section not found: 'Nope'");
    expect(() =>
      withAccessLog(
        logger,
        entry,
        (result?: number) => ({ ok: result ?? null }),
        () => {
          throw failure;
        },
      ),
    ).toThrow(failure);
    expect(
      withAccessLog(
        logger,
        { ...entry, command: 'search' },
        (result?: { results: unknown[] }) => logArgs.search('auth token', result as never),
        () => ({ results: [1, 2, 3] }),
      ),
    ).toEqual({ results: [1, 2, 3] });
    const written = rows(accessLogPath(runtime));
    expect(written.map((r) => [r.command, r.args, r.error])).toEqual([
      ['show', '{"ok":null}', "error[E020]: section not found: 'Nope'"],
      ['search', '{"query":"auth token","result_count":3}', null],
    ]);
  });

  it('falls back to <cwd>/.skillc/logs/<skill>/.skillc-meta/logs.db when the primary cannot be written', () => {
    const { runtime, cwd, entry } = setup();
    mkdirSync(join(runtime, '..'), { recursive: true });
    writeFileSync(runtime, 'a file where the runtime dir should be');
    const outcome = new AccessLogger({ env: {} }).log(entry);
    const fallback = fallbackLogPath(realpathSync(cwd), 'demo');
    expect(fallback).toBe(join(realpathSync(cwd), '.skillc', 'logs', 'demo', '.skillc-meta', 'logs.db'));
    expect(outcome).toEqual({ destination: 'fallback', path: fallback, warnings: [] });
    expect(rows(fallback)).toHaveLength(1);
  });

  it('falls back when the runtime dir is read-only (EAFP on the insert)', (ctx) => {
    const { base, runtime, cwd, entry } = setup();
    chmodSync(base, 0o777);
    chmodSync(cwd, 0o777);
    mkdirSync(runtime, { recursive: true });
    chmodSync(runtime, 0o555);
    const attempt = withEnforcedModes(runtime, () => new AccessLogger({ env: {} }).log(entry));
    chmodSync(runtime, 0o755);
    if (attempt === null) return ctx.skip('directory modes are not enforced for this user');
    expect(attempt.value.destination).toBe('fallback');
    expect(rows(fallbackLogPath(realpathSync(cwd), 'demo'))).toHaveLength(1);
  });

  it('when both locations fail: the logging-disabled warning, no exception', () => {
    const { runtime, cwd, entry } = setup();
    mkdirSync(join(runtime, '..'), { recursive: true });
    writeFileSync(runtime, 'not a dir');
    writeFileSync(join(cwd, '.skillc'), 'not a dir either');
    const logger = new AccessLogger({ env: {} });
    expect(logger.log(entry)).toEqual({ destination: 'disabled', path: null, warnings: [LOGGING_DISABLED_WARNING] });
    expect(LOGGING_DISABLED_WARNING).toBe("warning: logging disabled; run 'skilltray sync' after session to merge logs");
    expect(logger.warnings).toEqual([LOGGING_DISABLED_WARNING]);
  });

  it('warns about fallback logs older than an hour, once per invocation', () => {
    const { cwd, entry } = setup();
    const fallback = fallbackLogPath(realpathSync(cwd), 'demo');
    mkdirSync(join(fallback, '..'), { recursive: true });
    const db = new Database(fallback);
    db.exec(ACCESS_LOG_SCHEMA);
    db.close();
    const now = new Date('2026-01-30T12:00:00Z');
    utimesSync(fallback, new Date(now.getTime() - 61 * 60_000), new Date(now.getTime() - 61 * 60_000));
    const logger = new AccessLogger({ env: {}, now: () => now });
    expect(logger.log(entry).warnings).toEqual([staleFallbackWarning('demo')]);
    expect(staleFallbackWarning('demo')).toBe("warning: stale local logs for 'demo'; run 'skilltray sync' to upload");
    expect(logger.log(entry).warnings).toEqual([]);
    expect(new AccessLogger({ env: {}, now: () => now }).log(entry).warnings).toEqual([staleFallbackWarning('demo')]);
  });

  it('no stale warning for fresh fallback logs', () => {
    const { cwd, entry } = setup();
    const fallback = fallbackLogPath(realpathSync(cwd), 'demo');
    mkdirSync(join(fallback, '..'), { recursive: true });
    writeFileSync(fallback, '');
    const now = new Date();
    utimesSync(fallback, new Date(now.getTime() - 59 * 60_000), new Date(now.getTime() - 59 * 60_000));
    expect(new AccessLogger({ env: {}, now: () => now }).log(entry).warnings).toEqual([]);
  });

  it('appends: several commands of one run share its run id', () => {
    const { runtime, entry } = setup();
    const logger = new AccessLogger({ env: { SKC_RUN_ID: 'session' } });
    logger.log(entry);
    logger.log({ ...entry, command: 'outline', args: logArgs.outline({ level: 2 }) });
    expect(rows(accessLogPath(runtime)).map((r) => [r.id, r.command, r.run_id, r.args])).toEqual([
      [1, 'show', 'session', JSON.stringify(entry.args)],
      [2, 'outline', 'session', '{"level":2}'],
    ]);
  });
});
