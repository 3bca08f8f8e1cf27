/**
 * Parsed skills kept by directory and stat fingerprint, so a skill whose files have not changed is
 * not parsed (nor its files hashed) again: in memory for the life of a registry, and — given a file
 * — in SQLite between processes, so a CLI command over 10,000 skills does not parse 10,000
 * SKILL.md files each time. An entry is only used for the same root (trust, syntax) and the same
 * loader code, and only recorded once its files have settled (see fingerprint.ts).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { isDamage } from '../disk-faults.js';
import type { Skill, SkillRoot } from '../../shared/model.js';
import type { SkillTree } from './fingerprint.js';
import { decodePayload, encodePayload, recordedPayload } from './cache-payload.js';

interface Entry {
  root: string;
  /** The tree fingerprint (see fingerprint.ts) the skill was parsed at. */
  fingerprint: string;
  tree: SkillTree;
  skill: Skill;
}

/** An entry waiting to be written, with its payload when whoever parsed the skill made it already (kept only until it is written). */
interface Unwritten {
  entry: Entry;
  payload?: string;
}

interface Row {
  dir: string;
  root: string;
  fingerprint: string;
  /** The tree and the skill, serialised together (see cache-payload.ts). */
  skill: string | Buffer;
}

/** What a root contributes to a parse: an entry parsed under another root is not reused. */
function rootKey(root: SkillRoot): string {
  return `${root.kind}\0${root.trust}\0${root.syntax}\0${root.path}`;
}

/**
 * The folders and files whose code decides what a parse produces. In the CLI bundle (dist/cli,
 * made from dist/node by scripts/bundle-cli.js) they are dist/node's, from which it was built, so
 * the app and the CLI stamp alike and share the cache instead of each re-parsing what the other
 * wrote; a bundle with no dist/node beside it stamps its own chunks, whose names change with their code.
 */
function loaderCode(): { dirs: string[] } {
  const here = fileURLToPath(import.meta.url);
  const ownFile = basename(dirname(here)) === 'skills' && basename(dirname(dirname(here))) === 'core';
  const core = ownFile ? new URL('../', import.meta.url) : new URL('../node/src-main/core/', import.meta.url);
  if (!ownFile && !existsSync(new URL('skills/', core))) return { dirs: [dirname(here)] };
  return { dirs: ['skills/', 'markdown/', 'template/', '../shared/', '../shared/error-messages/'].map((dir) => fileURLToPath(new URL(dir, core))) };
}

/** The parsers a parse goes through, located as this module would import them. */
const PARSERS = ['yaml', 'marked'];

let stamp: string | undefined;

/**
 * The package.json of `name` in the first node_modules folder that holds one, looking up from
 * `from` as Node does, or null when none does. Its version names the parser's code, where the
 * entry file's size and mtime may not (yaml's entry only re-exports; a reinstall can keep mtimes);
 * and finding the folder needs no resolution of the package's exports, a third of the stamp's cost.
 */
export function parserManifest(name: string, from: string): string | null {
  for (const dir of createRequire(from).resolve.paths(name) ?? []) {
    try {
      return readFileSync(join(dir, name, 'package.json'), 'utf8');
    } catch {
      // Not in this folder: Node looks in the next one up.
    }
  }
  return null;
}

/**
 * Identifies this build of the loader (names, sizes and mtimes of its code, and its parsers'
 * package.json): a rebuilt or upgraded Skilltray starts a fresh cache.
 */
function loaderStamp(): string {
  if (stamp !== undefined) return stamp;
  const hash = createHash('sha256');
  const add = (path: string): void => {
    const st = statSync(path, { throwIfNoEntry: false });
    hash.update(`${path}\0${st?.size ?? '-'}\0${st?.mtimeMs ?? '-'}\n`);
  };
  const code = loaderCode();
  for (const dir of code.dirs) {
    // Code only (dist/node's modules, or a lone bundle's CommonJS chunks): a source map beside it decides nothing a parse produces.
    for (const name of readdirSync(dir).sort()) if (name.endsWith('.js') || name.endsWith('.cjs')) add(join(dir, name));
  }
  const here = fileURLToPath(import.meta.url);
  for (const name of PARSERS) hash.update(`${name}\0${parserManifest(name, here) ?? '-'}\n`);
  stamp = hash.digest('hex').slice(0, 32);
  return stamp;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS skills (dir TEXT PRIMARY KEY, stamp TEXT NOT NULL, root TEXT NOT NULL, fingerprint TEXT NOT NULL, skill BLOB NOT NULL);
`;

/** A cache of parsed skills; `file` makes it outlive the process. */
export class ParseCache {
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Unwritten | null>();
  private db: Database.Database | null = null;
  private preloaded = false;
  /** Whether rows of other loader builds have been cleared from the file this process. */
  private pruned = false;
  /** False once the file could be opened only for reading: flush then writes nothing. */
  private writable = true;

  private constructor(
    private file: string | null,
    private readonly options: { nativeBinding?: string },
  ) {}

  /** A cache for this process only. */
  static memory(): ParseCache {
    return new ParseCache(null, {});
  }

  /** A cache backed by the SQLite file at `file` (created on first write). */
  static file(file: string, options: { nativeBinding?: string } = {}): ParseCache {
    return new ParseCache(file, options);
  }

  /**
   * The database, opened on first use; null when there is no file or it cannot be used (the cache
   * then lives in memory only). Only a damaged file is deleted and started afresh: a read-only home,
   * a full disk or another process's lock (EROFS, EACCES, SQLITE_FULL, SQLITE_BUSY) is not damage,
   * and deleting on it could pull a live cache's WAL from under that process. A file that cannot be
   * written is read as it is, when it can be.
   */
  private database(): Database.Database | null {
    if (this.db !== null || this.file === null) return this.db;
    const file = this.file;
    const binding = this.options.nativeBinding === undefined ? {} : { nativeBinding: this.options.nativeBinding };
    const open = (): Database.Database => {
      mkdirSync(dirname(file), { recursive: true });
      const db = new Database(file, binding);
      try {
        db.pragma('busy_timeout = 5000');
        // Taken only by a file not yet written: a row is a parsed skill of ~4 KB, which on SQLite's default 4 KB pages
        // spills every row onto an overflow page, each written twice (WAL, then checkpoint).
        db.pragma('page_size = 16384');
        // Asked first: switching to WAL writes, and most opens find it switched already.
        if (db.pragma('journal_mode', { simple: true }) !== 'wal') db.pragma('journal_mode = WAL');
        // No fsync: a power cut may lose or tear what was written last, and a cache loses nothing by
        // it (a row is used only while the stats it was parsed at still match, a damaged file is
        // started afresh), while a cold load's 10,000 rows spend a third of a second waiting on the disk.
        db.pragma('synchronous = OFF');
        db.exec(SCHEMA);
        return db;
      } catch (error) {
        db.close();
        throw error;
      }
    };
    try {
      this.db = open();
    } catch (error) {
      this.db = isDamage(error) ? this.afresh(open) : this.readOnly(file, binding);
      if (this.db === null) this.file = null;
    }
    return this.db;
  }

  /** A damaged cache is only a cache: deleted and started again, or gone without. */
  private afresh(open: () => Database.Database): Database.Database | null {
    try {
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${this.file}${suffix}`, { force: true });
      return open();
    } catch {
      return null;
    }
  }

  /** The cache file opened for reading only (nothing is written back), or null when it cannot even be read. */
  private readOnly(file: string, binding: { nativeBinding?: string }): Database.Database | null {
    let db: Database.Database | undefined;
    try {
      db = new Database(file, { ...binding, readonly: true, fileMustExist: true });
      db.prepare('SELECT count(*) FROM skills').get();
      this.writable = false;
      return db;
    } catch {
      db?.close();
      return null;
    }
  }

  private decode(row: Row): Entry | null {
    try {
      const { tree, skill } = decodePayload(row.skill);
      return { root: row.root, fingerprint: row.fingerprint, tree, skill };
    } catch {
      return null;
    }
  }

  /** Reads every entry of this loader build at once (a full load is about to ask for most of them). */
  preload(): void {
    if (this.preloaded) return;
    this.preloaded = true;
    try {
      const rows = this.database()?.prepare('SELECT dir, root, fingerprint, skill FROM skills WHERE stamp = ?').all(loaderStamp()) as Row[] | undefined;
      for (const row of rows ?? []) {
        const entry = this.decode(row);
        if (entry !== null && !this.entries.has(row.dir)) this.entries.set(row.dir, entry);
      }
    } catch {
      // Unreadable: every skill is parsed, as without a cache.
    }
  }

  private find(dir: string): Entry | undefined {
    const known = this.entries.get(dir);
    if (known !== undefined || this.preloaded) return known;
    try {
      const row = this.database()?.prepare('SELECT dir, root, fingerprint, skill FROM skills WHERE dir = ? AND stamp = ?').get(dir, loaderStamp()) as Row | undefined;
      const entry = row === undefined ? null : this.decode(row);
      if (entry !== null) this.entries.set(dir, entry);
      return entry ?? undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * The skill parsed from `dir` under `root`, if `fingerprintOf` its recorded tree (as the files
   * are now) is the fingerprint it was parsed at (a copy, safe to change).
   */
  get(dir: string, root: SkillRoot, fingerprintOf: (tree: SkillTree) => string): Skill | undefined {
    const entry = this.find(dir);
    if (entry === undefined || entry.root !== rootKey(root) || fingerprintOf(entry.tree) !== entry.fingerprint) return undefined;
    return { ...entry.skill, root, shadows: [] };
  }

  /**
   * The parse recorded for `dir` under `root` and the tree it was recorded with, whatever the files
   * hold now (a copy of the skill): for a caller that has the tree's stats checked as it goes on
   * (tree-check.ts), and gives the parse up when get() finds the files changed.
   */
  recorded(dir: string, root: SkillRoot): { skill: Skill; tree: SkillTree } | undefined {
    const entry = this.find(dir);
    return entry === undefined || entry.root !== rootKey(root) ? undefined : { skill: { ...entry.skill, root, shadows: [] }, tree: entry.tree };
  }

  /** The last settled parse recorded for `dir` under `root`, whatever its files hold now (a copy): what a skill caught mid-rewrite falls back to. */
  lastSettled(dir: string, root: SkillRoot): Skill | undefined {
    // Asked for names no root holds now: a cache file never written is not created by the question.
    const unwritten = this.db === null && this.file !== null && !existsSync(this.file);
    const entry = unwritten ? this.entries.get(dir) : this.find(dir);
    return entry === undefined || entry.root !== rootKey(root) ? undefined : { ...entry.skill, root, shadows: [] };
  }

  /** How many parses are held (after preload: how many the file holds for this build). */
  get size(): number {
    return this.entries.size;
  }

  /** The directories of every parse held (after preload: every one the file holds for this build). */
  dirs(): IterableIterator<string> {
    return this.entries.keys();
  }

  /**
   * Remembers a parse of the files whose tree had settled with `fingerprint`; `payload`, when
   * given, is `recordedPayload(tree, skill)` encoded already.
   */
  set(dir: string, root: SkillRoot, tree: SkillTree, fingerprint: string, skill: Skill, payload?: string): void {
    const entry: Entry = { root: rootKey(root), fingerprint, ...recordedPayload(tree, skill) };
    this.entries.set(dir, entry);
    if (this.file !== null) this.pending.set(dir, payload === undefined ? { entry } : { entry, payload });
  }

  /** Forgets `dir` (its skill is gone or no longer settled). */
  delete(dir: string): void {
    this.entries.delete(dir);
    if (this.file !== null) this.pending.set(dir, null);
  }

  /** Forgets every entry but those of `dirs` (after a full load: skills that are gone). */
  retainOnly(dirs: ReadonlySet<string>): void {
    for (const dir of [...this.entries.keys()]) {
      if (!dirs.has(dir)) this.delete(dir);
    }
  }

  /** Writes what changed since the last flush in one transaction. Best effort: a cache that cannot be written only costs parses. */
  flush(): void {
    if (this.pending.size === 0) return;
    const db = this.database();
    const changes = [...this.pending];
    this.pending.clear();
    if (db === null || !this.writable) return;
    try {
      const upsert = db.prepare('INSERT OR REPLACE INTO skills (dir, stamp, root, fingerprint, skill) VALUES (?, ?, ?, ?, ?)');
      const remove = db.prepare('DELETE FROM skills WHERE dir = ?');
      const code = loaderStamp();
      db.transaction(() => {
        if (!this.pruned) db.prepare('DELETE FROM skills WHERE stamp != ?').run(code);
        this.pruned = true;
        for (const [dir, change] of changes) {
          if (change === null) remove.run(dir);
          else {
            const { entry, payload } = change;
            upsert.run(dir, code, entry.root, entry.fingerprint, payload ?? encodePayload({ tree: entry.tree, skill: entry.skill }));
          }
        }
      })();
    } catch {
      // Busy or read-only: the next process parses these skills again.
    }
  }

  close(): void {
    this.flush();
    this.db?.close();
    this.db = null;
  }
}
