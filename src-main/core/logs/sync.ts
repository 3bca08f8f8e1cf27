/**
 * RFC-0007:C-SYNC: moves the fallback access logs a sandboxed session left under
 * `<project>/.skillc/logs/<skill>/` into each skill's primary log, then deletes them. Each skill
 * stands alone: one that fails (E041, E042) keeps its local logs while the others are moved.
 * Re-running is safe: rows already in the primary log are not copied again.
 */
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SkilltrayError } from '../../shared/skilltray-error.js';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import { canonicalPath } from '../files/paths.js';
import { compareBytewise } from '../files/paths.js';
import { accessLogPath, fallbackLogPath, fallbackLogsDir, openAccessLogForWrite, type AccessRow } from './access-log.js';
import type { SyncedSkill, SyncResult } from '../../shared/gateway.js';

export interface SyncOptions {
  /** The project whose `.skillc/logs/` is synced (`--project`, default the cwd). */
  project: string;
  /** Sync only this skill's logs; E040 when it has none. */
  skill?: string;
  dryRun?: boolean;
  /** The primary runtime dir of a skill name (`<home>/runtime/<name>`). */
  runtimeDirFor(skill: string): string;
  nativeBinding?: string;
}

const COLUMNS = ['timestamp', 'run_id', 'command', 'skill', 'skill_path', 'cwd', 'args', 'error'] as const;

/** Skill directories under `<project>/.skillc/logs/` that hold a fallback log, bytewise by name. */
function discover(project: string): string[] {
  const dir = fallbackLogsDir(project);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((name) => !name.startsWith('.') && isFile(fallbackLogPath(project, name))).sort(compareBytewise);
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function readSource(path: string, nativeBinding: string | undefined): AccessRow[] {
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true, ...(nativeBinding === undefined ? {} : { nativeBinding }) });
    return db.prepare(`SELECT ${COLUMNS.join(', ')} FROM access_log ORDER BY id`).all() as AccessRow[];
  } catch (error) {
    throw skillcErrors.syncSourceNotReadable(path, error);
  } finally {
    db?.close();
  }
}

/** Rows of `rows` the destination does not hold yet, counting duplicates (a multiset difference). */
function missingRows(db: Database.Database, rows: readonly AccessRow[]): AccessRow[] {
  const count = db.prepare(`SELECT count(*) AS n FROM access_log WHERE ${COLUMNS.map((c) => `${c} IS @${c}`).join(' AND ')}`);
  const seen = new Map<string, number>();
  const missing: AccessRow[] = [];
  for (const row of rows) {
    const key = JSON.stringify(COLUMNS.map((c) => row[c]));
    const occurrence = (seen.get(key) ?? 0) + 1;
    seen.set(key, occurrence);
    if (occurrence > (count.get(row) as { n: number }).n) missing.push(row);
  }
  return missing;
}

/** Rows a dry run would copy: against the destination when it can be read, else all of them. */
function countWouldSync(destination: string, rows: readonly AccessRow[], nativeBinding: string | undefined): number {
  if (!existsSync(destination)) return rows.length;
  let db: Database.Database | undefined;
  try {
    db = new Database(destination, { readonly: true, fileMustExist: true, ...(nativeBinding === undefined ? {} : { nativeBinding }) });
    return missingRows(db, rows).length;
  } catch {
    return rows.length;
  } finally {
    db?.close();
  }
}

function copyRows(runtimeDir: string, destination: string, rows: readonly AccessRow[], nativeBinding: string | undefined): number {
  let db: Database.Database | undefined;
  try {
    db = openAccessLogForWrite(destination, nativeBinding);
    const target = db;
    const insert = target.prepare(`INSERT INTO access_log (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')})`);
    return target.transaction(() => {
      const missing = missingRows(target, rows);
      for (const row of missing) insert.run(row);
      return missing.length;
    })();
  } catch (error) {
    throw skillcErrors.syncDestinationNotWritable(runtimeDir, error);
  } finally {
    db?.close();
  }
}

function syncOne(project: string, skill: string, options: SyncOptions): SyncedSkill {
  const source = fallbackLogPath(project, skill);
  const runtimeDir = options.runtimeDirFor(skill);
  const destination = accessLogPath(runtimeDir);
  const base = { skill, source, destination };
  try {
    const rows = readSource(source, options.nativeBinding);
    if (options.dryRun === true) return { ...base, entries: countWouldSync(destination, rows, options.nativeBinding), status: 'would_sync', error: null };
    const entries = copyRows(runtimeDir, destination, rows, options.nativeBinding);
    const localDir = join(fallbackLogsDir(project), skill);
    try {
      rmSync(localDir, { recursive: true, force: true });
    } catch (error) {
      throw skillcErrors.internal(`could not remove local logs '${localDir}' after syncing them`, { cause: error });
    }
    return { ...base, entries, status: 'synced', error: null };
  } catch (error) {
    const failure = error instanceof SkilltrayError ? error : skillcErrors.internal((error as Error).message, { cause: error });
    return { ...base, entries: 0, status: 'failed', error: failure.toJSON() };
  }
}

/** Syncs every skill's fallback logs of the project (or only `options.skill`'s). */
export function syncLogs(options: SyncOptions): SyncResult {
  const project = canonicalPath(options.project);
  const found = discover(project);
  let skills = found;
  if (options.skill !== undefined) {
    if (!found.includes(options.skill)) throw skillcErrors.noLocalLogs();
    skills = [options.skill];
  }
  return { project, dry_run: options.dryRun === true, skills: skills.map((skill) => syncOne(project, skill, options)) };
}
