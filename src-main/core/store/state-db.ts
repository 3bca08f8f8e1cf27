/**
 * Opening `<home>/state.db`: the one SQLite file that holds run history, remembered approvals,
 * rules and settings. Only the process that owns runs writes it; WAL lets readers (the CLI on
 * its own, a second window) look at history while it does.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { SkilltrayError } from '../errors.js';
import { applyMigrations } from './migrations.js';

/** An open, migrated state database. */
export type StateDb = Database.Database;

export interface OpenStateDbOptions {
  /** Path of a better-sqlite3 binary built for this process's ABI (Electron), when not the default one. */
  nativeBinding?: string;
}

// Statements compiled once per connection: history writes happen on every run, and preparing costs more than running.
const statements = new WeakMap<Database.Database, Map<string, Database.Statement<unknown[], unknown>>>();

/** The statement for `sql` on `db`, compiled on first use and reused after. */
export function prepared<P extends unknown[] | object = unknown[], R = unknown>(db: StateDb, sql: string): Database.Statement<P, R> {
  let cache = statements.get(db);
  if (cache === undefined) {
    cache = new Map();
    statements.set(db, cache);
  }
  let statement = cache.get(sql);
  if (statement === undefined) {
    statement = db.prepare(sql);
    cache.set(sql, statement);
  }
  return statement as unknown as Database.Statement<P, R>;
}

/** Opens (creating it and its directory if needed) and migrates the state database at `path`. */
export function openStateDb(path: string, options: OpenStateDbOptions = {}): StateDb {
  mkdirSync(dirname(path), { recursive: true });
  let db: Database.Database;
  try {
    db = new Database(path, options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding });
  } catch (error) {
    throw new SkilltrayError('E999', `cannot open the state database at ${path}: ${(error as Error).message}`, {
      details: { path },
      cause: error,
    });
  }
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    applyMigrations(db);
    return db;
  } catch (error) {
    db.close();
    if (error instanceof SkilltrayError) throw error;
    throw new SkilltrayError('E999', `the state database at ${path} is unusable: ${(error as Error).message}`, {
      details: { path },
      cause: error,
    });
  }
}
