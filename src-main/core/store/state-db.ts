/**
 * Opening `<home>/state.db`: the one SQLite file that holds run history, remembered approvals,
 * rules and settings. Only the process that owns runs writes it; WAL lets readers (the CLI on
 * its own, a second window) look at history while it does. A damaged file (PRAGMA quick_check at
 * open, or SQLITE_CORRUPT at any time) is moved aside and replaced by a fresh one holding whatever
 * could still be read, with a notice saying so.
 */
import { closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Notice } from '../../shared/runs.js';
import { SkilltrayError } from '../../shared/skilltray-error.js';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import { stateErrors, stateNotices } from '../../shared/error-messages/state.js';
import { diskFault, diskFaultError, isDamage } from '../disk-faults.js';
import { keepPrivate } from '../files/private-folder.js';
import { applyMigrations, userVersion } from './migrations.js';
import { databaseImage } from './database-image.js';
import { damagedFile, salvage, type DamagedFile, type SalvageReport } from './salvage.js';
import { DatabasePages } from './table-pages.js';

/** An open, migrated state database. */
export type StateDb = Database.Database;

export interface OpenStateDbOptions {
  /** Path of a better-sqlite3 binary built for this process's ABI (Electron), when not the default one. */
  nativeBinding?: string;
  /** Check every page (PRAGMA quick_check) before use; default true. */
  quickCheck?: boolean;
  /** Told once when the file was damaged and has been replaced by a recovered one. */
  onRecovered?: (notice: Notice) => void;
}

// Which file each connection opened (path and inode), so a connection can tell that another process already replaced it.
const opened = new WeakMap<Database.Database, { path: string; ino: number }>();

export { prepared } from './statement-cache.js';

/** What PRAGMA quick_check found wrong. */
class DamagedDatabase extends Error {}

/** True for an error that says the database file is damaged: SQLITE_CORRUPT (any variant), SQLITE_NOTADB, or a failed quick_check. */
export function isCorruption(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) if (e instanceof DamagedDatabase) return true;
  return isDamage(error);
}

/** True when `db` is whole (PRAGMA integrity_check: pages, and every index against its table); false for any damage. */
export function passesIntegrityCheck(db: StateDb): boolean {
  try {
    return (db.pragma('integrity_check(1)') as { integrity_check: string }[]).every((r) => r.integrity_check === 'ok');
  } catch {
    return false;
  }
}

function connect(path: string, options: OpenStateDbOptions, extra: Database.Options = {}): Database.Database {
  return new Database(path, { ...extra, ...(options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding }) });
}

/** Opens, configures, checks and migrates; throws the raw error (closing the connection) when any step fails. */
function openChecked(path: string, options: OpenStateDbOptions): StateDb {
  // Made 0600 before SQLite opens it: SQLite gives its -wal and -shm files the database file's mode.
  if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  const db = connect(path, options);
  try {
    // Only a file with no tables yet can take incremental auto-vacuum without a full VACUUM.
    if (userVersion(db) === 0 && (db.prepare('SELECT count(*) AS n FROM sqlite_schema').get() as { n: number }).n === 0) db.pragma('auto_vacuum = INCREMENTAL');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    if (options.quickCheck !== false) {
      const found = (db.pragma('quick_check(20)') as { quick_check: string }[]).map((r) => r.quick_check);
      if (found.join() !== 'ok') throw new DamagedDatabase(`quick_check: ${found.join('; ')}`);
    }
    applyMigrations(db);
    opened.set(db, { path, ino: statSync(path).ino });
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

// Connections opened read-only because the home refused writes: a write through one is E904 or E905.
const readOnly = new WeakMap<Database.Database, 'read-only' | 'full'>();

/** Why `db` cannot be written ('read-only' home or 'full' disk), or null for a connection that writes as usual. */
export function readOnlyReason(db: StateDb): 'read-only' | 'full' | null {
  return readOnly.get(db) ?? null;
}

/**
 * The state database as it is on a home that refuses writes, for commands that only read: a copy in
 * memory of the file with its WAL applied (SQLite cannot even read a WAL file in place without
 * creating its -shm), or an empty one when there is no file; migrated in memory, then read-only.
 */
function openUnwritable(path: string, options: OpenStateDbOptions, reason: 'read-only' | 'full'): StateDb {
  const image = existsSync(path) ? databaseImage(path) : null;
  const db = new Database(image ?? ':memory:', options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding });
  try {
    db.pragma('foreign_keys = ON');
    applyMigrations(db);
    db.pragma('query_only = ON');
  } catch (error) {
    db.close();
    throw error;
  }
  readOnly.set(db, reason);
  return db;
}

/**
 * Opens (creating it and its directory if needed), checks and migrates the state database at `path`;
 * a damaged one is recovered. On a read-only home or a full disk it is opened for reading only.
 */
export function openStateDb(path: string, options: OpenStateDbOptions = {}): StateDb {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    keepPrivate(dirname(path));
    return openChecked(path, options);
  } catch (error) {
    if (isCorruption(error)) return recoverStateDb(path, options, (error as Error).message);
    if (error instanceof SkilltrayError) throw error;
    const fault = diskFault(error, path);
    if (fault === 'read-only' || fault === 'full') {
      try {
        return openUnwritable(path, options, fault);
      } catch (unreadable) {
        throw (
          diskFaultError(unreadable, path) ??
          skillcErrors.internal(`the state database at ${path} cannot be read: ${(unreadable as Error).message}`, { details: { path }, cause: unreadable })
        );
      }
    }
    throw skillcErrors.internal(`the state database at ${path} is unusable: ${(error as Error).message}`, { details: { path }, cause: error });
  }
}

/**
 * After `db` failed with a corruption error: closes it and returns a usable connection — the file
 * another process already put in its place, or else this one recovered (moved aside, salvaged).
 */
export function replaceDamaged(db: StateDb, options: OpenStateDbOptions, reason: string): StateDb {
  const was = opened.get(db);
  if (was === undefined) throw skillcErrors.internal('not a state database opened by openStateDb');
  db.close();
  let ino: number | null = null;
  try {
    ino = statSync(was.path).ino;
  } catch {
    // gone: recovered below into a new file
  }
  if (ino !== null && ino !== was.ino) return openStateDb(was.path, options);
  return recoverStateDb(was.path, options, reason);
}

/** `<path>.corrupt-<time>`, the name a damaged file is moved to. */
function asideName(path: string, now: Date): string {
  return `${path}.corrupt-${now.toISOString().replace(/[:.]/g, '-')}`;
}

/** The person's notice for a recovery: what was saved, and whether rules (and so deny rules) may be lost. */
function recoveryNotice(report: SalvageReport, aside: string, reason: string): Pick<Notice, 'code' | 'message' | 'details'> {
  const { rules, remembered_approvals: remembered, unsandboxed_skills: unsandboxed, settings, runs } = report;
  const saved = [
    `${rules.written} rule${rules.written === 1 ? '' : 's'}`,
    `${remembered.written} remembered approval${remembered.written === 1 ? '' : 's'}`,
    unsandboxed.written === 0 ? null : `${unsandboxed.written} skill${unsandboxed.written === 1 ? '' : 's'} you run without a sandbox`,
    settings.complete ? 'your settings' : null,
    `${runs.written} run${runs.written === 1 ? '' : 's'} of history${runs.complete ? '' : ' (some could not be read)'}`,
  ].filter((part): part is string => part !== null);
  const details = { aside, reason, tables: report };
  const what = `state.db was damaged (${reason}) and was moved to ${aside}; a new one holds what could still be read: ${saved.join(', ')}`;
  if (!rules.complete) {
    return stateNotices.rulesLost(what, details);
  }
  const lost = [
    remembered.complete ? null : 'some remembered approvals could not be read (those tools will ask again)',
    settings.complete ? null : 'your settings could not be read, so runs are paused until you check the mode and resume',
    report.skill_switches.complete
      ? null
      : 'some skills you turned on or off could not be read (a skill you turned off may be on again), so runs are paused until you check your skills and resume',
    unsandboxed.complete ? null : 'some skills you run without a sandbox could not be read (they run sandboxed again)',
    report.trusted_projects.complete ? null : 'some project folders you trusted could not be read (their skills will ask again)',
    report.voice_settings.complete ? null : 'your voice settings could not be read (they are back to their defaults)',
    report.notices.complete ? null : 'some earlier notices could not be read',
  ];
  return stateNotices.recovered(
    what,
    lost.filter((l) => l !== null),
    details,
  );
}

/** Runs wait for the person when what could not be read may have narrowed what runs: a deny rule, the mode, a skill turned off. */
function pausesRuns(report: SalvageReport): boolean {
  return !report.rules.complete || !report.settings.complete || !report.skill_switches.complete;
}

/** Records `notice` in `db` (pausing runs when asked) in one transaction; returns it as recorded. */
function recordNotice(db: StateDb, notice: Pick<Notice, 'code' | 'message' | 'details'>, pause: boolean): Notice {
  const createdAt = Date.now();
  const id = db.transaction(() => {
    if (pause) db.prepare('UPDATE settings SET paused = 1 WHERE id = 1').run();
    return Number(
      db
        .prepare('INSERT INTO notices (code, message, details, created_at) VALUES (?, ?, ?, ?)')
        .run(notice.code, notice.message, JSON.stringify(notice.details), createdAt).lastInsertRowid,
    );
  })();
  return { id, ...notice, createdAt };
}

/** Copies what the damaged file at `aside` still holds into `fresh`. */
function salvageAside(aside: string, options: OpenStateDbOptions, fresh: StateDb): SalvageReport {
  let source: Database.Database | null = null;
  try {
    source = connect(aside, options, { readonly: true, fileMustExist: true });
  } catch {
    // not even a database any more: only its pages may still hold something
  }
  let file: DamagedFile | null = null;
  try {
    file = damagedFile(new DatabasePages(databaseImage(aside)), () => connect(':memory:', options));
  } catch {
    // no page of it can be read as a database's
  }
  try {
    return salvage(source, file, fresh);
  } finally {
    source?.close();
  }
}

/**
 * Moves the damaged file at `path` (and its WAL and shared-memory files) aside, makes a fresh one,
 * copies in what SQLite can still read, pauses runs when rules, settings or skill switches may be
 * lost, and records the notice (told to `onRecovered` too). When the recovery itself fails it is
 * never left as a quiet near-empty file: see recoveryFailed.
 */
export function recoverStateDb(path: string, options: OpenStateDbOptions, reason: string): StateDb {
  const aside = asideName(path, new Date());
  for (const suffix of ['', '-wal', '-shm']) if (existsSync(path + suffix)) renameSync(path + suffix, aside + suffix);
  let fresh: StateDb | null = null;
  try {
    fresh = openChecked(path, { ...options, quickCheck: false });
    const report = salvageAside(aside, options, fresh);
    const notice = recordNotice(fresh, recoveryNotice(report, aside, reason), pausesRuns(report));
    options.onRecovered?.(notice);
    return fresh;
  } catch (error) {
    throw recoveryFailed(path, aside, reason, fresh, error);
  }
}

/**
 * E906 for a recovery that failed part way: the new file at `path` gets a notice saying so, with runs
 * paused, and is closed; when not even that can be written, the new file is removed and the damaged
 * one put back, so the next open meets the damage again instead of a quiet near-empty file.
 */
function recoveryFailed(path: string, aside: string, reason: string, fresh: StateDb | null, error: unknown): SkilltrayError {
  const failure = error instanceof Error ? error.message : String(error);
  const notice = stateNotices.recoveryFailed(reason, aside, failure);
  let recorded = false;
  if (fresh !== null) {
    try {
      recordNotice(fresh, notice, true);
      recorded = true;
    } catch {
      // put the damaged file back below
    }
    fresh.close();
  }
  if (recorded) return stateErrors.recoveryFailed(notice.message, { aside, reason, failure }, error);
  try {
    for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
    for (const suffix of ['', '-wal', '-shm']) if (existsSync(aside + suffix)) renameSync(aside + suffix, path + suffix);
  } catch {
    return stateErrors.recoveryFailed(`${notice.message} The new state.db could not be written either.`, { aside, reason, failure }, error);
  }
  return stateErrors.recoveryFailed(
    `state.db was damaged (${reason}) and recovering it failed (${failure}); it was put back as it was, and will be recovered again when it is next opened.`,
    { path, reason, failure },
    error,
  );
}
