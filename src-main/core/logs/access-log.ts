/**
 * RFC-0007:C-LOGGING: every command that resolves a skill appends one row to
 * `<runtime>/.skillc-meta/logs.db`. When that write fails (a sandbox that makes the runtime dir
 * read-only), the row goes to `<cwd>/.skillc/logs/<skill>/.skillc-meta/logs.db` for
 * `skilltray sync` to merge later; when that fails too, logging is off with a warning.
 * Logging never throws to its caller.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { toSkilltrayError } from '../../shared/skilltray-error.js';
import { canonicalPath } from '../files/paths.js';
import { utcSeconds } from '../timestamps.js';

/** Schema of access logs, primary and fallback alike. */
export const ACCESS_LOG_SCHEMA = `
  CREATE TABLE IF NOT EXISTS access_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    timestamp TEXT NOT NULL,
    run_id TEXT NOT NULL,
    command TEXT NOT NULL,
    skill TEXT NOT NULL,
    skill_path TEXT NOT NULL,
    cwd TEXT NOT NULL,
    args TEXT NOT NULL,
    error TEXT
  );
  CREATE INDEX IF NOT EXISTS idx_access_log_timestamp ON access_log(timestamp);
  CREATE INDEX IF NOT EXISTS idx_access_log_skill_path ON access_log(skill_path);
`;

/** How old fallback logs may get before each invocation reminds the user to sync. */
export const STALE_FALLBACK_MS = 60 * 60 * 1000;

/** Printed when neither the primary nor the fallback log could be written. */
export const LOGGING_DISABLED_WARNING = "warning: logging disabled; run 'skilltray sync' after session to merge logs";

/** Printed (once per invocation) when this skill's fallback log is over an hour old. */
export function staleFallbackWarning(skill: string): string {
  return `warning: stale local logs for '${skill}'; run 'skilltray sync' to upload`;
}

/** `<runtime>/.skillc-meta/logs.db`. */
export function accessLogPath(runtimeDir: string): string {
  return join(runtimeDir, '.skillc-meta', 'logs.db');
}

/** `<cwd>/.skillc/logs/`: where fallback logs of a project collect, one directory per skill. */
export function fallbackLogsDir(cwd: string): string {
  return join(cwd, '.skillc', 'logs');
}

/** `<cwd>/.skillc/logs/<skill>/.skillc-meta/logs.db`. */
export function fallbackLogPath(cwd: string, skill: string): string {
  return join(fallbackLogsDir(cwd), skill, '.skillc-meta', 'logs.db');
}

/** `YYYYMMDDTHHMMSSZ-<rand4>`, as RFC-0007 generates run ids. */
export function generateRunId(date: Date = new Date()): string {
  return `${utcSeconds(date).replace(/[-:]/g, '')}-${randomBytes(2).toString('hex')}`;
}

let processRunId: string | null = null;

/** `SKC_RUN_ID` from `env` when set, else one id generated for this process. */
export function runIdFor(env: NodeJS.ProcessEnv): string {
  const fromEnv = env.SKC_RUN_ID;
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  processRunId ??= generateRunId();
  return processRunId;
}

/** One row of the access log as written. */
export interface AccessRow {
  timestamp: string;
  run_id: string;
  command: string;
  skill: string;
  skill_path: string;
  cwd: string;
  /** JSON text. */
  args: string;
  error: string | null;
}

export interface AccessEntry {
  /** The subcommand: outline, show, open, sources, search, build, stats, … */
  command: string;
  /** The skill's name (its directory's basename). */
  skill: string;
  /** The resolved skill directory (canonicalised before it is written). */
  skillPath: string;
  /** The skill's runtime dir (`<home>/runtime/<skill>`). */
  runtimeDir: string;
  /** Where the command was invoked (canonicalised before it is written). */
  cwd: string;
  args: Record<string, unknown>;
  /** The failure's text, or null/absent on success. */
  error?: string | null;
}

export interface LogOutcome {
  destination: 'primary' | 'fallback' | 'disabled';
  /** The database written, or null when logging is disabled. */
  path: string | null;
  /** Warnings this call produced, for stderr. */
  warnings: string[];
}

export interface AccessLoggerOptions {
  /** Environment of the invocation (SKC_RUN_ID). */
  env: NodeJS.ProcessEnv;
  nativeBinding?: string;
  /** Clock, for tests. */
  now?: () => Date;
  /**
   * Queue accesses and write them once the current task is done, many to a transaction: a
   * long-running process (the app, serve, mcp) then answers before it logs. flush() writes the queue.
   */
  batch?: boolean;
}

/** Opens (creating directories and schema) an access log database for writing. */
export function openAccessLogForWrite(path: string, nativeBinding?: string): Database.Database {
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, nativeBinding === undefined ? {} : { nativeBinding });
  try {
    db.pragma('busy_timeout = 5000');
    db.exec(ACCESS_LOG_SCHEMA);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Appends rows to the access log at `path` in one transaction. */
export function appendAccessRows(path: string, rows: readonly AccessRow[], nativeBinding?: string): void {
  const db = openAccessLogForWrite(path, nativeBinding);
  try {
    const insert = db.prepare(
      'INSERT INTO access_log (timestamp, run_id, command, skill, skill_path, cwd, args, error) VALUES (@timestamp, @run_id, @command, @skill, @skill_path, @cwd, @args, @error)',
    );
    db.transaction(() => {
      for (const row of rows) insert.run(row);
    })();
  } finally {
    db.close();
  }
}

/**
 * The access log of one invocation (a CLI run, an MCP tool call): it holds the run id and
 * emits the stale-fallback reminder at most once.
 */
export class AccessLogger {
  /** Every warning produced so far, in order. */
  readonly warnings: string[] = [];
  private readonly options: AccessLoggerOptions;
  private staleWarned = false;
  /** Accesses waiting for flush() (batching only). */
  private queue: { entry: AccessEntry; at: Date }[] = [];

  constructor(options: AccessLoggerOptions) {
    this.options = options;
  }

  private isStale(fallback: string, now: Date): boolean {
    try {
      const stat = statSync(fallback, { throwIfNoEntry: false });
      return stat !== undefined && now.getTime() - stat.mtimeMs > STALE_FALLBACK_MS;
    } catch {
      return false;
    }
  }

  /**
   * The row for `entry` accessed at `now` and where its fallback log is, or null when even that
   * cannot be worked out. A batch passes a `canonical` that remembers, and the fallbacks it has
   * already checked for staleness.
   */
  private rowOf(
    entry: AccessEntry,
    now: Date,
    warnings: string[],
    canonical: (path: string) => string = canonicalPath,
    checked = new Set<string>(),
  ): { row: AccessRow; fallback: string } | null {
    try {
      const cwd = canonical(entry.cwd);
      const row: AccessRow = {
        timestamp: utcSeconds(now),
        run_id: runIdFor(this.options.env),
        command: entry.command,
        skill: entry.skill,
        skill_path: canonical(entry.skillPath),
        cwd,
        args: JSON.stringify(entry.args),
        error: entry.error ?? null,
      };
      const fallback = fallbackLogPath(cwd, entry.skill);
      // Checked before writing: a write to the fallback below would make it look fresh.
      if (!this.staleWarned && !checked.has(fallback) && this.isStale(fallback, now)) {
        this.staleWarned = true;
        warnings.push(staleFallbackWarning(entry.skill));
      }
      checked.add(fallback);
      return { row, fallback };
    } catch {
      return null;
    }
  }

  /** Writes one entry to the primary log, else the fallback; never throws. */
  log(entry: AccessEntry, at?: Date): LogOutcome {
    const warnings: string[] = [];
    const outcome = (destination: LogOutcome['destination'], path: string | null): LogOutcome => {
      this.warnings.push(...warnings);
      return { destination, path, warnings };
    };
    const made = this.rowOf(entry, at ?? this.options.now?.() ?? new Date(), warnings);
    if (made === null) {
      warnings.push(LOGGING_DISABLED_WARNING);
      return outcome('disabled', null);
    }
    const primary = accessLogPath(entry.runtimeDir);
    for (const [destination, path] of [
      ['primary', primary],
      ['fallback', made.fallback],
    ] as const) {
      try {
        appendAccessRows(path, [made.row], this.options.nativeBinding);
        return outcome(destination, path);
      } catch {
        // EAFP: any failure of the primary (read-only, locked, corrupt) sends the row to the fallback.
      }
    }
    warnings.push(LOGGING_DISABLED_WARNING);
    return outcome('disabled', null);
  }

  /** Logs an access: now, or — batching — queued for the write after the current task. */
  record(entry: AccessEntry): void {
    if (!this.options.batch) {
      this.log(entry);
      return;
    }
    if (this.queue.length === 0) setImmediate(() => this.flush());
    this.queue.push({ entry, at: this.options.now?.() ?? new Date() });
  }

  /** Writes every queued access: one transaction per primary log, entry by entry (with fallbacks) where that fails. */
  flush(): void {
    const queued = this.queue.splice(0);
    const byLog = new Map<string, { entry: AccessEntry; at: Date }[]>();
    for (const item of queued) {
      const path = accessLogPath(item.entry.runtimeDir);
      byLog.set(path, [...(byLog.get(path) ?? []), item]);
    }
    // A batch names the same few directories over and over: each is canonicalised once.
    const seen = new Map<string, string>();
    const canonical = (path: string): string => {
      let known = seen.get(path);
      if (known === undefined) {
        known = canonicalPath(path);
        seen.set(path, known);
      }
      return known;
    };
    const checked = new Set<string>();
    for (const [path, items] of byLog) {
      const warnings: string[] = [];
      const rows = items.map((item) => this.rowOf(item.entry, item.at, warnings, canonical, checked)?.row);
      this.warnings.push(...warnings);
      try {
        if (rows.some((row) => row === undefined)) throw new Error('an entry has no row');
        appendAccessRows(path, rows as AccessRow[], this.options.nativeBinding);
      } catch {
        for (const item of items) this.log(item.entry, item.at);
      }
    }
  }
}

/** What a command's run looks like in the log: its args, and its failure text if it threw. */
export interface LoggedCommand {
  command: string;
  skill: string;
  skillPath: string;
  runtimeDir: string;
  cwd: string;
}

/**
 * Runs `run`, logs it with the args `argsOf` derives (from the result, or from nothing when it
 * failed) and the error text on failure, and returns or rethrows what `run` did.
 */
export function withAccessLog<T>(logger: AccessLogger, command: LoggedCommand, argsOf: (result: T | undefined) => Record<string, unknown>, run: () => T): T {
  let result: T;
  try {
    result = run();
  } catch (error) {
    logger.record({ ...command, args: argsOf(undefined), error: toSkilltrayError(error).format() });
    throw error;
  }
  logger.record({ ...command, args: argsOf(result), error: null });
  return result;
}
