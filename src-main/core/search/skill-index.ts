/**
 * RFC-0004:C-INDEX: a skill's search index, `<runtime>/.skillc-meta/search-<hash16>.db`, with the
 * FTS5 `sections` table, the `headings` table `show` reads, and `index_meta`. Checking and
 * building follow the RFC's step lists in their order: missing → corrupt → collision → stale.
 * Writing an index file is index-writer.ts.
 *
 * Staleness keeps the RFC's meaning (source_hash against the manifest hash) but checks a stat
 * fingerprint of the sources first (`source_fingerprint`, see skills/fingerprint.ts): while it
 * matches, the sources are the bytes that were hashed and nothing is read; when it moved, the
 * manifest hash decides.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { diskFault, diskFaultError, errnoOf } from '../disk-faults.js';
import { SkilltrayError, toSkilltrayError } from '../../shared/skilltray-error.js';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import { fileIdentity, withBuildLock } from './build-lock.js';
import { manifestHash, walkSkill, type SkillFile, type SkillWalk } from '../skills/walk.js';
import { statFingerprint } from '../skills/fingerprint.js';
import {
  dbOptions,
  recordFingerprint,
  removeAbandonedTemps,
  SCHEMA_VERSION,
  writeIndex,
  type IndexLocation,
  type IndexMeta,
  type IndexOptions,
} from './index-writer.js';
import { tokenizerPreference } from './tokenizer.js';
import type { BuildResult, TokenizerName } from '../../shared/gateway.js';

export { SCHEMA_VERSION };

/** Why an index is stale: the metadata fields that differ from the skill's current state. */
export type StaleField = 'source_hash' | 'schema_version' | 'tokenizer';

export interface OpenIndex {
  db: Database.Database;
  meta: IndexMeta;
  location: IndexLocation;
  /** How freshness was established: the stat fingerprint matched, the manifest hash matched, or the caller vouched for it. */
  freshBy: Freshness;
}

/** How an index was found current. */
export type Freshness = 'fingerprint' | 'hash' | 'trusted';

/** First 16 hex digits of SHA-256 of the canonical source path. */
export function pathHash16(canonicalDir: string): string {
  return createHash('sha256').update(canonicalDir).digest('hex').slice(0, 16);
}

/** Where the index of `dir` lives inside `runtimeDir`. */
export function locateIndex(dir: string, runtimeDir: string): IndexLocation {
  const skillPath = realpathSync(dir);
  const hash16 = pathHash16(skillPath);
  return { skillPath, hash16, path: join(runtimeDir, '.skillc-meta', `search-${hash16}.db`) };
}

/** Reads index_meta; throws on anything RFC-0004 calls corrupt. */
function readMeta(db: Database.Database): IndexMeta {
  const rows = db.prepare('SELECT key, value FROM index_meta').all() as { key: unknown; value: unknown }[];
  const values = new Map(rows.map((row) => [String(row.key), row.value]));
  const text = (key: string): string => {
    const value = values.get(key);
    if (typeof value !== 'string' || value === '') throw new Error(`index_meta.${key} is missing`);
    return value;
  };
  const schemaVersion = text('schema_version');
  if (!/^\d+$/.test(schemaVersion)) throw new Error(`index_meta.schema_version is not an integer: ${schemaVersion}`);
  const indexedAt = values.get('indexed_at');
  const fingerprint = values.get('source_fingerprint');
  return {
    sourceHash: text('source_hash'),
    skillPath: text('skill_path'),
    schemaVersion: Number(schemaVersion),
    indexedAt: typeof indexedAt === 'string' ? indexedAt : null,
    tokenizer: text('tokenizer'),
    sourceFingerprint: typeof fingerprint === 'string' && fingerprint !== '' ? fingerprint : null,
  };
}

/** E002 for an index that failed to read, keeping the failure as its cause. */
export function corruptIndexError(skill: string, cause: unknown): SkilltrayError {
  return skillcErrors.indexUnusable(skill, 'corrupt', cause);
}

/**
 * Opens the index read-only and reads its metadata, or reports it missing or corrupt (damaged, not
 * a database, no index_meta or a key missing): a file that cannot be read (EACCES) or a lock held
 * elsewhere is not a reason to rebuild, and is reported as it is.
 */
function openExisting(
  location: IndexLocation,
  options: IndexOptions,
): { db: Database.Database; meta: IndexMeta } | { state: 'missing' } | { state: 'corrupt'; cause: unknown } {
  if (!existsSync(location.path)) return { state: 'missing' };
  let db: Database.Database | undefined;
  try {
    db = new Database(location.path, dbOptions(options, true));
    return { db, meta: readMeta(db) };
  } catch (cause) {
    db?.close();
    if (!existsSync(location.path)) return { state: 'missing' };
    const fault = diskFault(cause, location.path);
    if (fault === 'read-only') throw skillcErrors.notReadable(location.path, `permission denied (${errnoOf(cause)})`, errnoOf(cause), cause);
    if (fault === 'full' || fault === 'busy') throw toSkilltrayError(cause);
    return { state: 'corrupt', cause };
  }
}

/** Below this size an index's pages (and its full-text index's checksums) are checked every time it is found current: a few milliseconds. */
const CHEAP_CHECK_BYTES = 1 << 20;

/** Whether an index that passed the RFC's checks is whole: quick_check (which covers FTS5's checksums), or integrity_check when `thorough`. */
function isWhole(db: Database.Database, thorough: boolean): boolean {
  try {
    return db.pragma(thorough ? 'integrity_check(1)' : 'quick_check(1)', { simple: true }) === 'ok';
  } catch {
    return false;
  }
}

function staleFields(meta: IndexMeta, sourceHash: string, tokenizer: TokenizerName): StaleField[] {
  const fields: StaleField[] = [];
  if (meta.sourceHash !== sourceHash) fields.push('source_hash');
  if (meta.schemaVersion < SCHEMA_VERSION) fields.push('schema_version');
  if (meta.tokenizer !== tokenizer) fields.push('tokenizer');
  return fields;
}

/** Whether `meta` describes the sources of `walk` now: by stat fingerprint first, else by manifest hash; null when stale. */
function checkSources(meta: IndexMeta, walk: SkillWalk, tokenizer: TokenizerName): Freshness | null {
  const settings = meta.schemaVersion >= SCHEMA_VERSION && meta.tokenizer === tokenizer;
  if (settings && meta.sourceFingerprint !== null && meta.sourceFingerprint === statFingerprint(walk.files)) return 'fingerprint';
  return staleFields(meta, manifestHash(walk.files), tokenizer).length === 0 ? 'hash' : null;
}

/** Options of openIndexForSearch. */
export interface OpenIndexOptions extends IndexOptions {
  /** The caller knows the sources have not changed since the index was last found current (the app's watcher). */
  trustSources?: boolean;
}

/**
 * Opens `dir`'s index for reading after RFC-0004's search steps: E002 when missing, corrupt or
 * stale, E003 on a collision. `skill` is the argument as the user gave it, for the E002 message.
 */
export function openIndexForSearch(dir: string, runtimeDir: string, skill: string, options: OpenIndexOptions = {}): OpenIndex {
  const location = locateIndex(dir, runtimeDir);
  const opened = openExisting(location, options);
  if (!('db' in opened)) throw opened.state === 'corrupt' ? corruptIndexError(skill, opened.cause) : skillcErrors.indexUnusable(skill, 'missing');
  const { db, meta } = opened;
  let freshBy: Freshness | null = 'trusted';
  try {
    if (meta.skillPath !== location.skillPath) throw skillcErrors.indexCollision(location.hash16);
    if (!options.trustSources) freshBy = checkSources(meta, walkSkill(dir), tokenizerPreference(options.nativeBinding));
    if (freshBy === null) throw skillcErrors.indexUnusable(skill, 'stale');
  } catch (error) {
    db.close();
    throw error;
  }
  return { db, meta, location, freshBy };
}

/** Runs a read against an open index; any database failure means the index is corrupt (E002). */
export function readIndex<T>(index: OpenIndex, skill: string, read: (db: Database.Database) => T): T {
  try {
    return read(index.db);
  } catch (error) {
    throw error instanceof SkilltrayError ? error : corruptIndexError(skill, error);
  }
}

/** Opens the index of the skill at `dir`, runs `read` on it and closes it: a read that keeps nothing open (the gateway outside app mode). */
export function withSkillIndex<T>(dir: string, runtimeDir: string, skill: string, options: OpenIndexOptions, read: (index: OpenIndex) => T): T {
  const index = openIndexForSearch(dir, runtimeDir, skill, options);
  try {
    return read(index);
  } finally {
    index.db.close();
  }
}

/** Options of buildIndex. */
export interface BuildOptions extends IndexOptions {
  /** Check an index found current page by page and its full-text index whole (integrity_check), and rebuild it if damaged. */
  verify?: boolean;
  /** Told before an index is written (not when it is up to date): which files it will read, and why. */
  beforeWrite?(files: readonly SkillFile[], reason: 'missing' | 'corrupt' | 'stale'): void;
}

/**
 * `skilltray build`'s index step (RFC-0004 build lifecycle): creates a missing index, replaces a
 * corrupt or stale one, leaves an up-to-date one alone, and refuses (E003) an index that belongs
 * to another source path, leaving that file in place. An index found current is checked for damage
 * too when that is cheap (a small file) or asked for (`verify`). One build of an index runs at a
 * time: a process that waited while another built it uses that build.
 */
export function buildIndex(dir: string, runtimeDir: string, options: BuildOptions = {}): BuildResult {
  const location = locateIndex(dir, runtimeDir);
  const tokenizer = tokenizerPreference(options.nativeBinding);
  const seen = fileIdentity(location.path);
  const found = currentIndex(location, dir, tokenizer, options);
  if ('status' in found) return found;
  try {
    mkdirSync(join(location.path, '..'), { recursive: true });
    return withBuildLock(
      location.path,
      seen,
      () => {
        removeAbandonedTemps(location);
        const files = walkSkill(dir).files;
        options.beforeWrite?.(files, found.reason ?? 'missing');
        const { sourceHash, ...counts } = writeIndex(location, files, tokenizer, options);
        return {
          status: found.reason === null ? 'created' : 'rebuilt',
          reason: found.reason,
          path: location.path,
          hash16: location.hash16,
          source_hash: sourceHash,
          tokenizer,
          ...counts,
        };
      },
      // Another process built it while this one waited: checked again, and normally current now.
      () => buildIndex(dir, runtimeDir, options),
      options,
    );
  } catch (error) {
    throw diskFaultError(error, location.path) ?? toSkilltrayError(error);
  }
}

/** The up-to-date result for an index that is current and whole, or why it must be (re)built; `dir` is walked only when there is an index to check. */
function currentIndex(location: IndexLocation, dir: string, tokenizer: TokenizerName, options: BuildOptions): BuildResult | { reason: BuildResult['reason'] } {
  const opened = openExisting(location, options);
  if (!('db' in opened)) return { reason: opened.state === 'corrupt' ? 'corrupt' : null };
  const { db, meta } = opened;
  let fresh: Freshness | null;
  let walk: SkillWalk;
  try {
    if (meta.skillPath !== location.skillPath) throw skillcErrors.indexCollision(location.hash16);
    walk = walkSkill(dir);
    fresh = checkSources(meta, walk, tokenizer);
    if (fresh === null) return { reason: 'stale' };
    const cheap = (fileSize(location.path) ?? Infinity) <= CHEAP_CHECK_BYTES;
    if ((options.verify || cheap) && !isWhole(db, options.verify === true)) return { reason: 'corrupt' };
  } finally {
    db.close();
  }
  if (fresh === 'hash') recordFingerprint(location, meta, walk.files, options);
  return {
    status: 'up-to-date',
    reason: null,
    path: location.path,
    hash16: location.hash16,
    source_hash: meta.sourceHash,
    tokenizer,
    files: 0,
    sections: 0,
    headings: 0,
  };
}

function fileSize(path: string): number | null {
  return statSync(path, { throwIfNoEntry: false })?.size ?? null;
}

/** Deletes every search index (and build leftover) in `runtimeDir`, leaving its access log: its skill was uninstalled. */
export function removeIndexes(runtimeDir: string): void {
  const dir = join(runtimeDir, '.skillc-meta');
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) if (name.startsWith('search-')) rmSync(join(dir, name), { force: true });
}
