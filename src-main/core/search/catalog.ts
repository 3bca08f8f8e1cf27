/**
 * One ranked search across every loaded skill (`skilltray search --all`, search-as-you-type in
 * the UI): a catalog at `<home>/runtime/.catalog/search.db` holding each skill's section rows (as
 * in its own index) plus the skill's name. `sync` brings it in line with the loaded skills by
 * content hash in one transaction, so unchanged skills cost nothing; a catalog that fails to open
 * or read is deleted and rebuilt.
 *
 * The rows are stored once and indexed twice: `catalog` with the stemming tokenizer (the same
 * preference as skill indexes) and `catalog_words` without stemming, for the word being typed. A
 * stemmer cannot match a partial word: `authenticati` is not a prefix of the stem `authent`.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { skillcErrors, toSkilltrayError } from '../errors.js';
import { checkIntegerOption } from '../gateway/options.js';
import { walkSkill } from '../skills/files.js';
import { skillDocuments, type SectionRow } from './documents.js';
import { corruptIndexError } from './index.js';
import { DEFAULT_SEARCH_LIMIT, queryTokens, quoteToken, textColumnsMatch } from './query.js';
import { TOKENIZE_CLAUSE, tokenizerPreference } from './tokenizer.js';
import type { CatalogHit, CatalogResult, TokenizerName } from '../../shared/gateway.js';

/** Layout version of the catalog; a catalog of another version is rebuilt. */
export const CATALOG_SCHEMA_VERSION = 2;

export interface CatalogSkill {
  name: string;
  dir: string;
  /** The skill's content hash (RFC-0001 manifest hash); a skill whose hash is unchanged is skipped. */
  hash: string;
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

/** The FTS5 expressions of a catalog query: complete tokens (stemmed) and the typed word prefix. */
export interface CatalogMatch {
  stemmed: string | null;
  wordPrefix: string | null;
}

/** Where the catalog lives: `.catalog` can never be a skill's slug, so never a skill's runtime dir. */
export function catalogPath(home: string): string {
  return join(home, 'runtime', '.catalog', 'search.db');
}

/** Splits a query (E004 when empty): with `prefix`, the last token becomes `"tok"*` over unstemmed words. */
export function catalogMatch(query: string, prefix: boolean): CatalogMatch {
  const tokens = queryTokens(query);
  if (tokens.length === 0) throw skillcErrors.emptyQuery();
  const complete = prefix ? tokens.slice(0, -1) : tokens;
  return {
    stemmed: complete.length === 0 ? null : complete.map(quoteToken).join(' '),
    wordPrefix: prefix ? `${quoteToken(tokens[tokens.length - 1] as string)}*` : null,
  };
}

const SCHEMA = (tokenizer: TokenizerName): string => `
  CREATE TABLE catalog_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE catalog_skills (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, dir TEXT NOT NULL, hash TEXT NOT NULL, sections INTEGER NOT NULL);
  CREATE TABLE catalog_rows (
    id INTEGER PRIMARY KEY,
    skill_id INTEGER NOT NULL REFERENCES catalog_skills(id),
    skill TEXT NOT NULL,
    file TEXT NOT NULL,
    section TEXT NOT NULL,
    content TEXT NOT NULL
  );
  CREATE INDEX idx_catalog_rows_skill ON catalog_rows(skill_id);
  CREATE VIRTUAL TABLE catalog USING fts5(skill UNINDEXED, file, section, content, content='catalog_rows', content_rowid='id', tokenize='${TOKENIZE_CLAUSE[tokenizer]}');
  CREATE VIRTUAL TABLE catalog_words USING fts5(skill UNINDEXED, file, section, content, content='catalog_rows', content_rowid='id', tokenize='unicode61', prefix='2 3');
  CREATE TRIGGER catalog_rows_insert AFTER INSERT ON catalog_rows BEGIN
    INSERT INTO catalog (rowid, skill, file, section, content) VALUES (new.id, new.skill, new.file, new.section, new.content);
    INSERT INTO catalog_words (rowid, skill, file, section, content) VALUES (new.id, new.skill, new.file, new.section, new.content);
  END;
  CREATE TRIGGER catalog_rows_delete AFTER DELETE ON catalog_rows BEGIN
    INSERT INTO catalog (catalog, rowid, skill, file, section, content) VALUES ('delete', old.id, old.skill, old.file, old.section, old.content);
    INSERT INTO catalog_words (catalog_words, rowid, skill, file, section, content) VALUES ('delete', old.id, old.skill, old.file, old.section, old.content);
  END;
`;

const SNIPPET_MARKERS = "'[MATCH]', '[/MATCH]', '...', 32";

/**
 * Ranked by the stemmed index; with a word prefix, only rows that also hold a word starting with
 * it. Ranks first and makes snippets only for the rows kept (snippet() is the costly part); CROSS
 * JOIN pins that order whatever the planner's statistics say.
 */
const STEMMED_SQL = (withPrefix: boolean): string => `
  WITH top AS (
    SELECT rowid AS id, bm25(catalog) AS rank FROM catalog WHERE catalog MATCH @stemmed
    ${/* `+` keeps the word filter from driving per-rowid lookups into the stemmed index. */ ''}
    ${withPrefix ? 'AND +rowid IN (SELECT rowid FROM catalog_words WHERE catalog_words MATCH @words)' : ''}
    ORDER BY rank, rowid LIMIT @limit
  )
  SELECT skill, file, section, snippet(catalog, 3, ${SNIPPET_MARKERS}) AS snippet, top.rank AS rank
  FROM top CROSS JOIN catalog ON catalog.rowid = top.id WHERE catalog MATCH @stemmed ORDER BY top.rank, top.id`;

/** A lone word prefix (the first word being typed), ranked by the unstemmed index. */
const WORDS_SQL = `
  WITH top AS (
    SELECT rowid AS id, bm25(catalog_words) AS rank FROM catalog_words WHERE catalog_words MATCH @words ORDER BY rank, rowid LIMIT @limit
  )
  SELECT skill, file, section, snippet(catalog_words, 3, ${SNIPPET_MARKERS}) AS snippet, top.rank AS rank
  FROM top CROSS JOIN catalog_words ON catalog_words.rowid = top.id WHERE catalog_words MATCH @words ORDER BY top.rank, top.id`;

/** The statement a catalog query runs (parameters @stemmed, @words, @limit as the match needs). */
export function catalogSearchSql(match: CatalogMatch): string {
  return match.stemmed === null ? WORDS_SQL : STEMMED_SQL(match.wordPrefix !== null);
}

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

interface HitRow {
  skill: string;
  file: string;
  section: string;
  snippet: string;
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
    return meta.get('schema_version') === String(CATALOG_SCHEMA_VERSION) && meta.get('tokenizer') === this.tokenizer;
  }

  private create(): Database.Database {
    mkdirSync(join(this.path, '..'), { recursive: true });
    const db = this.connect();
    try {
      db.exec(SCHEMA(this.tokenizer));
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

  private apply(skills: readonly CatalogSkill[], rebuilt: boolean): CatalogSync {
    const existing = new Map((this.statement('SELECT id, name, dir, hash FROM catalog_skills').all() as SkillRecord[]).map((r) => [r.name, r]));
    const wanted = new Map(skills.map((skill) => [skill.name, skill]));
    const result: CatalogSync = { added: [], updated: [], removed: [], unchanged: 0, rebuilt };
    // Files are read before the transaction opens so the write lock is held only for the writes.
    const changes: { skill: CatalogSkill; previous: SkillRecord | undefined; rows: SectionRow[] }[] = [];
    for (const skill of wanted.values()) {
      const previous = existing.get(skill.name);
      if (previous !== undefined && previous.hash === skill.hash && previous.dir === skill.dir) {
        result.unchanged++;
        continue;
      }
      let rows: SectionRow[] = [];
      try {
        rows = skillDocuments(walkSkill(skill.dir).files).sections;
      } catch {
        // A skill directory that vanished since loading contributes no rows until the next sync.
      }
      changes.push({ skill, previous, rows });
    }
    const gone = [...existing.values()].filter((record) => !wanted.has(record.name));
    const deleteRows = this.statement('DELETE FROM catalog_rows WHERE skill_id = ?');
    const deleteSkill = this.statement('DELETE FROM catalog_skills WHERE id = ?');
    const insertSkill = this.statement('INSERT INTO catalog_skills (name, dir, hash, sections) VALUES (?, ?, ?, ?)');
    const updateSkill = this.statement('UPDATE catalog_skills SET dir = ?, hash = ?, sections = ? WHERE id = ?');
    const insertRow = this.statement('INSERT INTO catalog_rows (skill_id, skill, file, section, content) VALUES (?, ?, ?, ?, ?)');
    this.db.transaction(() => {
      for (const record of gone) {
        deleteRows.run(record.id);
        deleteSkill.run(record.id);
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
        for (const row of rows) insertRow.run(id, skill.name, row.file, row.section, row.content);
      }
    })();
    return result;
  }

  /** Ranked search over every skill in the catalog (BM25, scores negated, RFC-0004 snippets). */
  search(query: string, options: CatalogSearchOptions = {}): CatalogResult {
    checkIntegerOption('limit', options.limit, 1);
    const match = catalogMatch(query, options.prefix ?? false);
    const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
    try {
      return { query, results: this.run(match, limit) };
    } catch (error) {
      if (!isCorruption(error)) throw toSkilltrayError(error);
      // Without a skill list to rebuild from, the caller has to sync first.
      if (this.lastSkills === null) throw corruptIndexError('--all', error);
      this.recreate();
      this.apply(this.lastSkills, true);
      return { query, results: this.run(match, limit) };
    }
  }

  private run(match: CatalogMatch, limit: number): CatalogHit[] {
    const params: Record<string, string | number> = { limit };
    if (match.stemmed !== null) params.stemmed = textColumnsMatch(match.stemmed);
    if (match.wordPrefix !== null) params.words = textColumnsMatch(match.wordPrefix);
    const rows = this.statement(catalogSearchSql(match)).all(params) as HitRow[];
    return rows.map((row) => ({ skill: row.skill, file: row.file, section: row.section, snippet: row.snippet, score: -row.rank }));
  }

  /** Skills the catalog holds, by name, with their hash and row count. */
  skills(): { name: string; dir: string; hash: string; sections: number }[] {
    return this.statement('SELECT name, dir, hash, sections FROM catalog_skills ORDER BY name').all() as { name: string; dir: string; hash: string; sections: number }[];
  }

  close(): void {
    this.db.close();
  }
}
