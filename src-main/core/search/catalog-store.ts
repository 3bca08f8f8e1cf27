/**
 * The search catalog's file (catalog.ts tells what it is for): opened, created, or rebuilt when it
 * is not this version's or is damaged, moved to memory for this process when the disk refuses it,
 * and the statements prepared on it kept for reuse. Syncing it is catalog-sync.ts; searching it,
 * catalog-query.ts.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { diskFault, errnoOf, isDamage } from '../disk-faults.js';
import { toSkilltrayError } from '../../shared/skilltray-error.js';
import { CATALOG_SCHEMA_VERSION, candidateHeadings, candidateHeadingsSchema, catalogFunctions, catalogSchema } from './catalog-sql.js';
import { tokenizerPreference } from './tokenizer.js';
import type { CatalogOptions } from './catalog-types.js';
import type { TokenizerName } from '../../shared/gateway.js';

/** Where the catalog lives: `.catalog` can never be a skill's slug, so never a skill's runtime dir. */
export function catalogPath(home: string): string {
  return join(home, 'runtime', '.catalog', 'search.db');
}

/** How long a sync waits for another process's sync of the same catalog (a cold one of 10,000 skills takes seconds). */
const BUSY_TIMEOUT_MS = 120_000;

/** Errors that mean the file is not a usable catalog (not busy, full or read-only): damage as disk-faults.ts judges it, or a layout it cannot read. */
export function isCorruption(error: unknown): boolean {
  if (isDamage(error)) return true;
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'SQLITE_FORMAT') return true;
  return code === 'SQLITE_ERROR' && /no such (table|column)|malformed|vtable constructor failed/i.test((error as Error).message);
}

/** A skill as the catalog holds it. */
export interface SkillRecord {
  id: number;
  name: string;
  dir: string;
  hash: string;
}

/** The catalog's database, and what this process knows of it. */
export class CatalogStore {
  readonly path: string;
  db: Database.Database;
  readonly options: CatalogOptions;
  readonly tokenizer: TokenizerName;
  /** Set when the file was rebuilt on opening, until the first sync says so. */
  rebuiltOnOpen = false;
  private statements = new Map<string, Database.Statement>();
  /** The skill records as of `version` (PRAGMA data_version, which moves when another connection commits), so a sync need not read them all again. */
  known: { version: number; records: Map<string, SkillRecord> } | null = null;
  /** Why the catalog lives in memory for this process (its file could not be written), or null while it is the file. */
  private memoryBecause: string | null = null;

  constructor(path: string, options: CatalogOptions) {
    this.path = path;
    this.options = options;
    this.tokenizer = tokenizerPreference(options.nativeBinding);
    this.db = this.openOrRecreate();
  }

  private connect(): Database.Database {
    const db = new Database(
      this.memoryBecause === null ? this.path : ':memory:',
      this.options.nativeBinding === undefined ? {} : { nativeBinding: this.options.nativeBinding },
    );
    try {
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      if (this.memoryBecause === null) {
        // WAL lets the app search while a CLI process syncs; NORMAL syncs the disk at checkpoints only, not at every commit:
        // a power cut may lose the last sync (the next one redoes it) but never tears the file.
        db.pragma('journal_mode = WAL');
        db.pragma('synchronous = NORMAL');
      }
      catalogFunctions(db);
      db.exec(candidateHeadingsSchema(this.tokenizer));
      return db;
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** Reads every table once; false when the layout or tokenizer is not this version's. */
  private matchesLayout(db: Database.Database): boolean {
    const rows = db.prepare('SELECT key, value FROM catalog_meta').all() as { key: string; value: string }[];
    const meta = new Map(rows.map((row) => [row.key, row.value]));
    // Every column a query names: a file of another layout under the same version number is rebuilt, not met mid-search.
    db.prepare('SELECT id, name, dir, hash, sections, about, first_row, last_row FROM catalog_skills LIMIT 1').get();
    db.prepare('SELECT id, skill_id, skill, file, section, content, about, level, start_line, end_line, trail, tool, unspaced FROM catalog_rows LIMIT 1').get();
    db.prepare('SELECT rowid FROM catalog WHERE catalog MATCH \'"probe"\' LIMIT 1').all();
    db.prepare('SELECT rowid FROM catalog_words WHERE catalog_words MATCH \'"probe"\' LIMIT 1').all();
    db.prepare('SELECT rowid FROM catalog_grams WHERE catalog_grams MATCH \'"probe"\' LIMIT 1').all();
    return meta.get('schema_version') === String(CATALOG_SCHEMA_VERSION) && meta.get('tokenizer') === this.tokenizer;
  }

  private create(): Database.Database {
    if (this.memoryBecause === null && this.path !== ':memory:') mkdirSync(join(this.path, '..'), { recursive: true });
    const db = this.connect();
    try {
      db.exec(catalogSchema(this.tokenizer));
      const insert = db.prepare('INSERT INTO catalog_meta (key, value) VALUES (?, ?)');
      insert.run('schema_version', String(CATALOG_SCHEMA_VERSION));
      insert.run('tokenizer', this.tokenizer);
      return db;
    } catch (error) {
      db.close();
      throw error;
    }
  }

  private remove(): void {
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${this.path}${suffix}`, { force: true });
  }

  private openOrRecreate(): Database.Database {
    try {
      if (existsSync(this.path)) {
        let db: Database.Database | undefined;
        try {
          db = this.connect();
          if (this.matchesLayout(db)) return db;
        } catch (error) {
          if (!isCorruption(error)) throw error;
        }
        db?.close();
        this.remove();
        this.rebuiltOnOpen = true;
      }
      return this.create();
    } catch (error) {
      if (!this.canLiveInMemory(error)) throw toSkilltrayError(error);
      return this.create();
    }
  }

  /**
   * After `error` kept the file from being opened or written: when that was the disk (a read-only
   * home, a full disk) or another process's lock held too long, not damage, the catalog moves to
   * memory for the life of this process — searches still work, nothing is deleted — and says so.
   */
  canLiveInMemory(error: unknown): boolean {
    const fault = diskFault(error, this.path);
    if (this.memoryBecause !== null || (fault !== 'read-only' && fault !== 'full' && fault !== 'busy')) return false;
    const why =
      fault === 'read-only' ? "Skilltray's home is read-only" : fault === 'full' ? 'no space left on device' : 'another Skilltray process held it too long';
    this.memoryBecause = `the search catalog ${this.path} could not be written (${why}: ${errnoOf(error)}); it was built in memory for this process`;
    return true;
  }

  /** Why the catalog lives in memory (its file could not be written), for a warning; null while it is the file. */
  get inMemory(): string | null {
    return this.memoryBecause;
  }

  /** Deletes the catalog and starts an empty one (after corruption). */
  recreate(): void {
    try {
      this.db.close();
    } catch {
      // A corrupt handle may refuse to close cleanly; the file is deleted either way.
    }
    if (this.memoryBecause === null) this.remove();
    this.statements.clear();
    this.known = null;
    this.db = this.create();
  }

  statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /**
   * The ids of `rows` whose heading matches the MATCH `expression` as `table` tokenizes it, asked of
   * their headings alone (see candidateHeadingsSchema); the headings are gone again afterwards.
   */
  headingsMatching(table: 'catalog' | 'catalog_words', expression: string, rows: readonly { id: number; section: string }[]): number[] {
    const headings = `candidates.${candidateHeadings(table)}`;
    const insert = this.statement(`INSERT INTO ${headings} (rowid, section) VALUES (?, ?)`);
    try {
      for (const row of rows) insert.run(row.id, row.section);
      return this.statement(`SELECT rowid FROM ${headings} WHERE ${candidateHeadings(table)} MATCH ?`)
        .pluck()
        .all(expression) as number[];
    } finally {
      this.statement(`DELETE FROM ${headings}`).run();
    }
  }

  /** Forgets the prepared statements: after the schema changed under them (triggers dropped or put back). */
  forgetStatements(): void {
    this.statements.clear();
  }

  /** The catalog's skill records by name: read again only when another connection has committed since they were last known. */
  records(): { version: number; records: Map<string, SkillRecord> } {
    const version = this.statement('PRAGMA data_version').pluck().get() as number;
    if (this.known?.version === version) return this.known;
    const records = new Map((this.statement('SELECT id, name, dir, hash FROM catalog_skills').all() as SkillRecord[]).map((r) => [r.name, r]));
    return { version, records };
  }

  /**
   * The records of `names` alone, for a sync or check of a few skills: the known records when they are current, else
   * each looked up by name (reading all of them cost a search of one skill among 10,000 a quarter of its time).
   * Never kept as known: they are not all.
   */
  recordsOf(names: Iterable<string>): { version: number; records: Map<string, SkillRecord> } {
    const version = this.statement('PRAGMA data_version').pluck().get() as number;
    if (this.known?.version === version) return this.known;
    const byName = this.statement('SELECT id, name, dir, hash FROM catalog_skills WHERE name = ?');
    const records = new Map<string, SkillRecord>();
    for (const name of names) {
      const record = byName.get(name) as SkillRecord | undefined;
      if (record !== undefined) records.set(name, record);
    }
    return { version, records };
  }

  /** Skills the catalog holds, by name, with their hash and row count. */
  skills(): { name: string; dir: string; hash: string; sections: number }[] {
    return this.statement('SELECT name, dir, hash, sections FROM catalog_skills ORDER BY name').all() as {
      name: string;
      dir: string;
      hash: string;
      sections: number;
    }[];
  }

  close(): void {
    this.db.close();
  }
}
