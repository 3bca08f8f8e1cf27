/**
 * Writing a search index file (RFC-0004:C-INDEX): the schema, one pass over the sources in one
 * transaction, and the atomic swap — a temp file beside the index, fsynced and renamed over it, so
 * a crash never leaves a half-written file under the index's name.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { utcSeconds } from '../timestamps.js';
import { commitTemp, FlushAhead, tempBeside } from '../files/atomic-write.js';
import { hashBytes, hashFile } from '../files/hash.js';
import { normaliseText } from '../files/text.js';
import { ManifestHasher, UNREADABLE, type SkillFile } from '../skills/walk.js';
import { isAlive, thisProcess } from '../process-identity.js';
import { settledFingerprint } from '../skills/fingerprint.js';
import { fileRows, isIndexedFile } from './documents.js';
import { TOKENIZE_CLAUSE } from './tokenizer.js';
import type { TokenizerName } from '../../shared/gateway.js';

export interface IndexMeta {
  sourceHash: string;
  skillPath: string;
  schemaVersion: number;
  indexedAt: string | null;
  tokenizer: string;
  /** Stat fingerprint of the sources the index was built from, when they had settled (not an RFC key). */
  sourceFingerprint: string | null;
}

export interface IndexLocation {
  /** Canonical skill directory. */
  skillPath: string;
  hash16: string;
  path: string;
}

export interface IndexOptions {
  nativeBinding?: string;
}

/** Version of the index layout; indexes below it are stale. */
export const SCHEMA_VERSION = 2;

/** Options to open an index with: read-only (it must exist) or for writing, through the given native binding. */
export function dbOptions(options: IndexOptions, readonly: boolean): Database.Options {
  return {
    ...(readonly ? { readonly: true, fileMustExist: true } : {}),
    ...(options.nativeBinding === undefined ? {} : { nativeBinding: options.nativeBinding }),
  };
}

/**
 * Removes what builds of this index left when their process died: the temp file and the journal
 * SQLite keeps beside it while it writes (`<temp>-journal`, `-wal`, `-shm`). Best effort: what cannot
 * be removed now is tried again at the next build.
 */
export function removeAbandonedTemps(location: IndexLocation): void {
  const dir = join(location.path, '..');
  const prefix = `search-${location.hash16}.db.`;
  for (const name of readdirSync(dir)) {
    // `<pid>-<start token>-<hex>` (the builder's ProcessIdentity); an older build's name holds the pid alone.
    const match = name.startsWith(prefix) ? /^(\d+)(?:-(\d+))?-[0-9a-f]{8}\.tmp(?:-journal|-wal|-shm)?$/.exec(name.slice(prefix.length)) : null;
    if (match && !isAlive({ pid: Number(match[1]), started: match[2] ?? '' })) {
      try {
        rmSync(join(dir, name), { force: true });
      } catch {
        // Read-only: left for a later build.
      }
    }
  }
}

/**
 * FTS5 keeps new terms in memory up to this many bytes before it writes them out as a segment
 * (1 MiB by default). A bigger buffer makes fewer, larger segments, and so fewer merges of them
 * while a big skill is indexed (a 79 MB skill's insert takes about a fifth less CPU). The setting
 * is stored with the index, which is written once; memory grows by at most this much.
 */
const PENDING_TERMS_BYTES = 16 << 20;

const SCHEMA = (tokenizer: TokenizerName): string => `
  CREATE VIRTUAL TABLE sections USING fts5(file, section, content, tokenize='${TOKENIZE_CLAUSE[tokenizer]}');
  INSERT INTO sections (sections, rank) VALUES ('hashsize', ${PENDING_TERMS_BYTES});
  CREATE TABLE headings (
    id INTEGER PRIMARY KEY,
    file TEXT NOT NULL,
    text TEXT NOT NULL,
    level INTEGER NOT NULL,
    start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL
  );
  CREATE TABLE index_meta (key TEXT PRIMARY KEY, value TEXT);
`;

/** Bytes of sources read between two early flushes of a big index (about four times as much index): see FlushAhead. */
const FLUSH_EVERY_BYTES = 16 << 20;

/** Made once the headings are in: one sort of 100,000 rows costs less than keeping a B-tree in order through every insert. */
const HEADINGS_INDEX = 'CREATE INDEX idx_headings_text ON headings(text COLLATE NOCASE)';

/** A file's hash for the manifest when it is not read whole: in chunks, or UNREADABLE. */
function hashOrUnreadable(abs: string): string {
  try {
    return hashFile(abs);
  } catch {
    return UNREADABLE;
  }
}

/** What a build wrote: the hash of the sources it read, and its counts. */
export interface Written {
  sourceHash: string;
  files: number;
  sections: number;
  headings: number;
}

/**
 * Fills the new index in one transaction, one file at a time: each indexed file is read once for
 * both its hash and its rows, and its rows are inserted before the next file is read, so memory
 * holds one file, not the skill. The source hash is therefore the hash of the bytes indexed.
 */
function fillIndex(db: Database.Database, location: IndexLocation, files: readonly SkillFile[], tokenizer: TokenizerName, ahead: FlushAhead): Written {
  const insertSection = db.prepare('INSERT INTO sections (file, section, content) VALUES (?, ?, ?)');
  const insertHeading = db.prepare('INSERT INTO headings (file, text, level, start_line, end_line) VALUES (?, ?, ?, ?, ?)');
  const insertMeta = db.prepare('INSERT INTO index_meta (key, value) VALUES (?, ?)');
  return db.transaction((): Written => {
    const manifest = new ManifestHasher();
    const written: Written = { sourceHash: '', files: 0, sections: 0, headings: 0 };
    let unflushed = 0;
    for (const file of files) {
      let bytes: Buffer | null = null;
      if (isIndexedFile(file.rel)) {
        try {
          bytes = readFileSync(file.abs);
        } catch {
          // Unreadable or too large to hold: hashed in chunks (or as unreadable) and not indexed.
        }
      }
      if (bytes === null) {
        manifest.add(file.rel, hashOrUnreadable(file.abs));
        continue;
      }
      manifest.add(file.rel, hashBytes(bytes));
      unflushed += bytes.length;
      if (unflushed >= FLUSH_EVERY_BYTES) {
        ahead.flush();
        unflushed = 0;
      }
      let text: string;
      try {
        text = normaliseText(bytes.toString('utf8'));
      } catch {
        continue;
      }
      written.files++;
      const rows = fileRows(file.rel, text);
      for (const row of rows.sections) insertSection.run(row.file, row.section, row.content);
      for (const row of rows.headings) insertHeading.run(row.file, row.text, row.level, row.startLine, row.endLine);
      written.sections += rows.sections.length;
      written.headings += rows.headings.length;
    }
    db.exec(HEADINGS_INDEX);
    written.sourceHash = manifest.digest();
    insertMeta.run('source_hash', written.sourceHash);
    insertMeta.run('skill_path', location.skillPath);
    insertMeta.run('schema_version', String(SCHEMA_VERSION));
    insertMeta.run('indexed_at', utcSeconds(new Date()));
    insertMeta.run('tokenizer', tokenizer);
    // Taken after every file was read: a fingerprint recorded now vouches only for settled content.
    const fingerprint = settledFingerprint(files);
    if (fingerprint !== null) insertMeta.run('source_fingerprint', fingerprint);
    return written;
  })();
}

/** Writes a complete index to a temp file and renames it over `location.path`. */
export function writeIndex(location: IndexLocation, files: readonly SkillFile[], tokenizer: TokenizerName, options: IndexOptions): Written {
  const self = thisProcess();
  const temp = tempBeside(location.path, self.started === '' ? `${self.pid}` : `${self.pid}-${self.started}`);
  let written: Written;
  const ahead = new FlushAhead(temp);
  try {
    const db = new Database(temp, dbOptions(options, false));
    try {
      // The temp file is private until the rename; a journal would only slow the build down.
      db.pragma('journal_mode = OFF');
      db.pragma('synchronous = OFF');
      db.exec(SCHEMA(tokenizer));
      written = fillIndex(db, location, files, tokenizer, ahead);
    } finally {
      db.close();
    }
    commitTemp(temp, location.path);
  } catch (error) {
    try {
      for (const leftover of [temp, `${temp}-journal`]) rmSync(leftover, { force: true });
    } catch {
      // Read-only: the next build removes them (removeAbandonedTemps).
    }
    throw error;
  } finally {
    ahead.finish();
  }
  return written;
}

/**
 * Records the fingerprint of sources the manifest hash has just found unchanged (a `touch`, a
 * checkout that rewrote the same bytes), so the next check need not hash them again. Best effort:
 * an index that cannot be written to now is only checked by hash next time.
 */
export function recordFingerprint(location: IndexLocation, meta: IndexMeta, files: readonly SkillFile[], options: IndexOptions): void {
  const fingerprint = settledFingerprint(files);
  if (fingerprint === null || fingerprint === meta.sourceFingerprint) return;
  try {
    const db = new Database(location.path, dbOptions(options, false));
    try {
      db.prepare("INSERT OR REPLACE INTO index_meta (key, value) VALUES ('source_fingerprint', ?)").run(fingerprint);
    } finally {
      db.close();
    }
  } catch {
    // Read-only or busy: the index stays correct, only slower to check.
  }
}
