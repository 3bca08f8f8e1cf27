/**
 * One ranked search across every loaded skill (`skilltray search --all`, search-as-you-type in
 * the UI and the palette): a catalog at `<home>/runtime/.catalog/search.db` holding each skill's
 * sections as plain text (its own index keeps the Markdown) plus the skill's name, and text in scripts
 * written without spaces a second time as character pairs (unspaced-text.ts). `sync` brings it
 * in line with the loaded skills by content hash in one transaction, so unchanged skills cost
 * nothing (their records are kept in memory until another process writes the catalog); a catalog that fails to open or read is deleted and rebuilt. Schema and queries are in
 * catalog-sql.ts; how ranked rows become hits (nesting merged, grouped by skill) in catalog-hits.ts.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { toSkilltrayError } from '../errors.js';
import { checkIntegerOption } from '../gateway/options.js';
import { groupBySkill, mergeNested, type RowPlace } from './catalog-hits.js';
import { catalogRows, type CatalogRow } from './catalog-rows.js';
import {
  CATALOG_SCHEMA_VERSION,
  catalogMarkExpression,
  catalogFunctions,
  catalogMarkSql,
  catalogMatch,
  catalogSchema,
  catalogSearchParams,
  catalogSearchSql,
  UNSPACED_SEARCH_SQL,
  type CatalogMatch,
} from './catalog-sql.js';
import { corruptIndexError } from './index.js';
import { oneLine } from './plain-text.js';
import { DEFAULT_SEARCH_LIMIT } from './query.js';
import { tokenizerPreference } from './tokenizer.js';
import { markPieces, unspacedMatch, unspacedSnippet, type UnspacedMatch } from './unspaced-text.js';
import type { CatalogHit, CatalogResult, TokenizerName } from '../../shared/gateway.js';

export interface CatalogSkill {
  name: string;
  dir: string;
  /** The skill's content hash (RFC-0001 manifest hash); a skill whose hash is unchanged is skipped. */
  hash: string;
  /** Its tools' names: a SKILL.md section under one of these headings is that tool's hit. */
  tools?: readonly string[];
}

export interface CatalogSync {
  added: string[];
  updated: string[];
  removed: string[];
  unchanged: number;
  /** Set when the catalog was unreadable and has been rebuilt from scratch. */
  rebuilt: boolean;
}

export interface CatalogSearchOptions {
  limit?: number;
  /** Search-as-you-type: the last token matches as a word prefix (`"tok"*`), unstemmed. */
  prefix?: boolean;
}

export interface CatalogOptions {
  nativeBinding?: string;
}

/** Where the catalog lives: `.catalog` can never be a skill's slug, so never a skill's runtime dir. */
export function catalogPath(home: string): string {
  return join(home, 'runtime', '.catalog', 'search.db');
}

/** Ranked rows asked of SQLite per hit wanted: merging a section with its parent and children drops some. */
const FETCH_FACTOR = 4;

/** Errors that mean the file is not a usable catalog (as opposed to busy, full or read-only). */
function isCorruption(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB' || code === 'SQLITE_FORMAT') return true;
  return code === 'SQLITE_ERROR' && /no such (table|column)|malformed|vtable constructor failed/i.test((error as Error).message);
}

interface SkillRecord {
  id: number;
  name: string;
  dir: string;
  hash: string;
}

/** A ranked row as the ranking statements return it. */
interface RankedRow extends RowPlace {
  id: number;
  section: string;
  trail: string;
  tool: string | null;
  rank: number;
}

/** An open catalog; keep it open for search-as-you-type (statements are prepared once). */
export class SkillCatalog {
  readonly path: string;
  private db: Database.Database;
  private readonly options: CatalogOptions;
  private readonly tokenizer: TokenizerName;
  /** The list given to the last sync, to rebuild from when a read finds the catalog corrupt. */
  private lastSkills: readonly CatalogSkill[] | null = null;
  private rebuiltOnOpen = false;
  private statements = new Map<string, Database.Statement>();
  /** The skill records as of `version` (PRAGMA data_version, which moves when another connection commits), so a sync need not read them all again. */
  private known: { version: number; records: Map<string, SkillRecord> } | null = null;

  private constructor(path: string, options: CatalogOptions) {
    this.path = path;
    this.options = options;
    this.tokenizer = tokenizerPreference(options.nativeBinding);
    this.db = this.openOrRecreate();
  }

  /** Opens (creating or rebuilding as needed) the catalog under `home`. */
  static open(home: string, options: CatalogOptions = {}): SkillCatalog {
    return new SkillCatalog(catalogPath(home), options);
  }

  private connect(): Database.Database {
    const db = new Database(this.path, this.options.nativeBinding === undefined ? {} : { nativeBinding: this.options.nativeBinding });
    try {
      // WAL lets the app search while a CLI process syncs.
      db.pragma('journal_mode = WAL');
      db.pragma('busy_timeout = 5000');
      catalogFunctions(db);
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
    db.prepare('SELECT count(*) FROM catalog_skills').get();
    db.prepare('SELECT count(*) FROM catalog_rows').get();
    db.prepare("SELECT rowid FROM catalog WHERE catalog MATCH '\"probe\"' LIMIT 1").all();
    db.prepare("SELECT rowid FROM catalog_words WHERE catalog_words MATCH '\"probe\"' LIMIT 1").all();
    db.prepare("SELECT rowid FROM catalog_grams WHERE catalog_grams MATCH '\"probe\"' LIMIT 1").all();
    return meta.get('schema_version') === String(CATALOG_SCHEMA_VERSION) && meta.get('tokenizer') === this.tokenizer;
  }

  private create(): Database.Database {
    mkdirSync(join(this.path, '..'), { recursive: true });
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
      throw toSkilltrayError(error);
    }
  }

  /** Deletes the catalog and starts an empty one (after corruption). */
  private recreate(): void {
    try {
      this.db.close();
    } catch {
      // A corrupt handle may refuse to close cleanly; the file is deleted either way.
    }
    this.remove();
    this.statements.clear();
    this.known = null;
    this.db = this.create();
  }

  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Brings the catalog in line with `skills`: adds, replaces (hash or dir changed) and removes skills. */
  sync(skills: readonly CatalogSkill[]): CatalogSync {
    this.lastSkills = skills;
    try {
      return this.apply(skills, this.rebuiltOnOpen);
    } catch (error) {
      if (!isCorruption(error)) throw toSkilltrayError(error);
      this.recreate();
      return this.apply(skills, true);
    } finally {
      this.rebuiltOnOpen = false;
    }
  }

  /** The catalog's skill records by name: read again only when another connection has committed since they were last known. */
  private records(): { version: number; records: Map<string, SkillRecord> } {
    const version = this.statement('PRAGMA data_version').pluck().get() as number;
    if (this.known?.version === version) return this.known;
    const records = new Map((this.statement('SELECT id, name, dir, hash FROM catalog_skills').all() as SkillRecord[]).map((r) => [r.name, r]));
    return { version, records };
  }

  private apply(skills: readonly CatalogSkill[], rebuilt: boolean): CatalogSync {
    const { version, records: existing } = this.records();
    // Forgotten until this sync commits: a failed one leaves the records to be read again.
    this.known = null;
    const wanted = new Map(skills.map((skill) => [skill.name, skill]));
    const result: CatalogSync = { added: [], updated: [], removed: [], unchanged: 0, rebuilt };
    // Files are read before the transaction opens so the write lock is held only for the writes.
    const changes: { skill: CatalogSkill; previous: SkillRecord | undefined; rows: CatalogRow[] }[] = [];
    for (const skill of wanted.values()) {
      const previous = existing.get(skill.name);
      if (previous !== undefined && previous.hash === skill.hash && previous.dir === skill.dir) {
        result.unchanged++;
        continue;
      }
      let rows: CatalogRow[] = [];
      try {
        rows = catalogRows(skill.dir, new Set(skill.tools ?? []));
      } catch {
        // A skill directory that vanished since loading contributes no rows until the next sync.
      }
      changes.push({ skill, previous, rows });
    }
    const gone = [...existing.values()].filter((record) => !wanted.has(record.name));
    if (gone.length === 0 && changes.length === 0) {
      this.known = { version, records: existing };
      return result;
    }
    const deleteRows = this.statement('DELETE FROM catalog_rows WHERE skill_id = ?');
    const deleteSkill = this.statement('DELETE FROM catalog_skills WHERE id = ?');
    const insertSkill = this.statement('INSERT INTO catalog_skills (name, dir, hash, sections) VALUES (?, ?, ?, ?)');
    const updateSkill = this.statement('UPDATE catalog_skills SET dir = ?, hash = ?, sections = ? WHERE id = ?');
    const insertRow = this.statement(
      'INSERT INTO catalog_rows (skill_id, skill, file, section, content, level, start_line, end_line, trail, tool) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const next = new Map(existing);
    this.db.transaction(() => {
      for (const record of gone) {
        deleteRows.run(record.id);
        deleteSkill.run(record.id);
        next.delete(record.name);
        result.removed.push(record.name);
      }
      for (const { skill, previous, rows } of changes) {
        let id: number;
        if (previous === undefined) {
          id = Number(insertSkill.run(skill.name, skill.dir, skill.hash, rows.length).lastInsertRowid);
          result.added.push(skill.name);
        } else {
          id = previous.id;
          deleteRows.run(id);
          updateSkill.run(skill.dir, skill.hash, rows.length, id);
          result.updated.push(skill.name);
        }
        for (const row of rows) insertRow.run(id, skill.name, row.file, row.section, row.content, row.level, row.startLine, row.endLine, row.trail, row.tool);
        next.set(skill.name, { id, name: skill.name, dir: skill.dir, hash: skill.hash });
      }
    })();
    // This connection's own commit leaves data_version as it was: the version read before it still says whether anyone else wrote.
    this.known = { version, records: next };
    return result;
  }

  /**
   * Ranked search over every skill in the catalog (BM25 with headings weighted, scores negated): a
   * section merged with the sections that hold it or that it holds, hits grouped by skill, snippets
   * as plain text on one line with every query word marked `[MATCH]…[/MATCH]`.
   */
  search(query: string, options: CatalogSearchOptions = {}): CatalogResult {
    checkIntegerOption('limit', options.limit, 1);
    const match = catalogMatch(query, options.prefix ?? false);
    // A run of a script written without spaces is searched in the pair index instead.
    const unspaced = unspacedMatch(query, options.prefix ?? false);
    const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
    try {
      return { query, results: this.run(match, unspaced, limit) };
    } catch (error) {
      if (!isCorruption(error)) throw toSkilltrayError(error);
      // Without a skill list to rebuild from, the caller has to sync first.
      if (this.lastSkills === null) throw corruptIndexError('--all', error);
      this.recreate();
      this.apply(this.lastSkills, true);
      return { query, results: this.run(match, unspaced, limit) };
    }
  }

  private run(match: CatalogMatch, unspaced: UnspacedMatch | null, limit: number): CatalogHit[] {
    const fetch = Math.min(1000, limit * FETCH_FACTOR + 10);
    const ranking = unspaced === null ? this.statement(catalogSearchSql(match)).all(catalogSearchParams(match, fetch)) : this.statement(UNSPACED_SEARCH_SQL).all({ unspaced: unspaced.expression, limit: fetch });
    const ranked = ranking as (Omit<RankedRow, 'startLine' | 'endLine'> & { start_line: number; end_line: number })[];
    const rows: RankedRow[] = ranked.map((r) => ({ ...r, startLine: r.start_line, endLine: r.end_line }));
    const kept = groupBySkill(mergeNested(rows).slice(0, limit));
    const marks = new Map(this.marks(match, unspaced, kept.map((row) => row.id)).map((mark) => [mark.id, mark]));
    return kept.map((row) => {
      const marked = marks.get(row.id);
      return {
        skill: row.skill,
        file: row.file,
        section: row.section,
        title: marked?.title ?? row.section,
        trail: JSON.parse(row.trail) as string[],
        tool: row.tool,
        line: row.startLine,
        snippet: oneLine(marked?.snippet ?? ''),
        score: -row.rank,
      };
    });
  }

  /** Each kept row's heading and snippet with the query's words marked: by FTS5 from the word indexes, here for the pair index. */
  private marks(match: CatalogMatch, unspaced: UnspacedMatch | null, ids: readonly number[]): { id: number; snippet: string; title: string }[] {
    const json = JSON.stringify(ids);
    if (unspaced === null) return this.statement(catalogMarkSql(match)).all({ mark: catalogMarkExpression(match), ids: json }) as { id: number; snippet: string; title: string }[];
    const { pieces } = unspaced;
    const rows = this.statement('SELECT id, section, content FROM catalog_rows WHERE id IN (SELECT value FROM json_each(?))').all(json) as { id: number; section: string; content: string }[];
    return rows.map((row) => ({ id: row.id, title: markPieces(row.section, pieces), snippet: unspacedSnippet(row.content, pieces) }));
  }

  /** Skills the catalog holds, by name, with their hash and row count. */
  skills(): { name: string; dir: string; hash: string; sections: number }[] {
    return this.statement('SELECT name, dir, hash, sections FROM catalog_skills ORDER BY name').all() as { name: string; dir: string; hash: string; sections: number }[];
  }

  close(): void {
    this.db.close();
  }
}
