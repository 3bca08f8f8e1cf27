/**
 * The all-skills catalog's schema and queries. Rows are stored once and indexed twice: `catalog`
 * with the stemming tokenizer (the same preference as skill indexes) and `catalog_words` without
 * stemming, for the word being typed — a stemmer cannot match a partial word: `authenticati` is not
 * a prefix of the stem `authent`.
 *
 * Ranking is BM25 with a section's heading weighing HEADING_WEIGHT times its text, so `git status`
 * finds the section titled `git_status` before sections that only mention both words. While typing,
 * the complete words are ranked on the stemmed index and the word being typed on the unstemmed one;
 * FTS5's BM25 is a sum over the query's terms, so the two scores add up to what the finished query
 * scores and search-as-you-type ranks as the full search does.
 */
import type Database from 'better-sqlite3';
import { skillcErrors } from '../errors.js';
import { queryTokens, quoteToken, textColumnsMatch } from './query.js';
import { TOKENIZE_CLAUSE } from './tokenizer.js';
import { hasUnspacedRun, unspacedGrams } from './unspaced-text.js';
import type { TokenizerName } from '../../shared/gateway.js';

/** Layout version of the catalog; a catalog of another version is rebuilt. */
export const CATALOG_SCHEMA_VERSION = 4;

/** How much more a word in a section's heading counts than the same word in its text. */
export const HEADING_WEIGHT = 4;

/** The FTS5 expressions of a catalog query: complete tokens (stemmed) and the typed word prefix. */
export interface CatalogMatch {
  stemmed: string | null;
  wordPrefix: string | null;
  /** On the unstemmed index: any complete token or the prefix, to mark every query word in a snippet. */
  anyWord: string;
}

/** Splits a query (E004 when empty): with `prefix`, the last token becomes `"tok"*` over unstemmed words. */
export function catalogMatch(query: string, prefix: boolean): CatalogMatch {
  const tokens = queryTokens(query);
  if (tokens.length === 0) throw skillcErrors.emptyQuery();
  const complete = (prefix ? tokens.slice(0, -1) : tokens).map(quoteToken);
  const wordPrefix = prefix ? `${quoteToken(tokens[tokens.length - 1] as string)}*` : null;
  return {
    stemmed: complete.length === 0 ? null : complete.join(' '),
    wordPrefix,
    anyWord: [...complete, ...(wordPrefix === null ? [] : [wordPrefix])].join(' OR '),
  };
}

/** SQL functions the triggers call to fill the pair index: every connection that writes the catalog defines them (catalogFunctions). */
const UNSPACED_GRAMS = 'unspaced_grams';
const HAS_UNSPACED = 'has_unspaced';

/** Defines the triggers' functions on a catalog connection. */
export function catalogFunctions(db: Database.Database): void {
  db.function(UNSPACED_GRAMS, { deterministic: true }, (text: unknown) => (typeof text === 'string' ? unspacedGrams(text) : text));
  db.function(HAS_UNSPACED, { deterministic: true }, (text: unknown) => (typeof text === 'string' && hasUnspacedRun(text) ? 1 : 0));
}

/** Creates every table of a new catalog. */
export const catalogSchema = (tokenizer: TokenizerName): string => `
  CREATE TABLE catalog_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE catalog_skills (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, dir TEXT NOT NULL, hash TEXT NOT NULL, sections INTEGER NOT NULL);
  CREATE TABLE catalog_rows (
    id INTEGER PRIMARY KEY,
    skill_id INTEGER NOT NULL REFERENCES catalog_skills(id),
    skill TEXT NOT NULL,
    file TEXT NOT NULL,
    section TEXT NOT NULL,
    content TEXT NOT NULL,
    level INTEGER NOT NULL,
    start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    trail TEXT NOT NULL,
    tool TEXT
  );
  CREATE INDEX idx_catalog_rows_skill ON catalog_rows(skill_id);
  CREATE VIRTUAL TABLE catalog USING fts5(skill UNINDEXED, file, section, content, content='catalog_rows', content_rowid='id', tokenize='${TOKENIZE_CLAUSE[tokenizer]}');
  CREATE VIRTUAL TABLE catalog_words USING fts5(skill UNINDEXED, file, section, content, content='catalog_rows', content_rowid='id', tokenize='unicode61', prefix='1 2 3');
  CREATE VIRTUAL TABLE catalog_grams USING fts5(section, content, content='', contentless_delete=1, tokenize='unicode61');
  CREATE TRIGGER catalog_rows_insert AFTER INSERT ON catalog_rows BEGIN
    INSERT INTO catalog (rowid, skill, file, section, content) VALUES (new.id, new.skill, new.file, new.section, new.content);
    INSERT INTO catalog_words (rowid, skill, file, section, content) VALUES (new.id, new.skill, new.file, new.section, new.content);
    INSERT INTO catalog_grams (rowid, section, content) SELECT new.id, ${UNSPACED_GRAMS}(new.section), ${UNSPACED_GRAMS}(new.content)
      WHERE ${HAS_UNSPACED}(new.section) OR ${HAS_UNSPACED}(new.content);
  END;
  CREATE TRIGGER catalog_rows_delete AFTER DELETE ON catalog_rows BEGIN
    INSERT INTO catalog (catalog, rowid, skill, file, section, content) VALUES ('delete', old.id, old.skill, old.file, old.section, old.content);
    INSERT INTO catalog_words (catalog_words, rowid, skill, file, section, content) VALUES ('delete', old.id, old.skill, old.file, old.section, old.content);
    DELETE FROM catalog_grams WHERE rowid = old.id;
  END;
`;

/** Rows ranked by the finished words for each hit asked for, before the word being typed re-ranks them. */
const POOL_FACTOR = 5;

/** BM25 over (skill, file, section, content): only the heading and the text are ever matched. */
const bm25 = (table: string): string => `bm25(${table}, 0, 0, ${HEADING_WEIGHT}, 1)`;

/** What every ranking query returns per row, best first. */
const ROW_COLUMNS = 'r.id, r.skill, r.file, r.section, r.level, r.start_line, r.end_line, r.trail, r.tool, top.rank';

/** Finished words only: ranked by the stemmed index. */
const STEMMED_SQL = `
  WITH top AS (SELECT rowid AS id, ${bm25('catalog')} AS rank FROM catalog WHERE catalog MATCH @stemmed ORDER BY rank, rowid LIMIT @limit)
  SELECT ${ROW_COLUMNS} FROM top CROSS JOIN catalog_rows r ON r.id = top.id ORDER BY top.rank, top.id`;

/** A lone word being typed: ranked by the unstemmed index. */
const WORDS_SQL = `
  WITH top AS (SELECT rowid AS id, ${bm25('catalog_words')} AS rank FROM catalog_words WHERE catalog_words MATCH @words ORDER BY rank, rowid LIMIT @limit)
  SELECT ${ROW_COLUMNS} FROM top CROSS JOIN catalog_rows r ON r.id = top.id ORDER BY top.rank, top.id`;

/**
 * Finished words and the word being typed: the rows matching both, the best POOL_FACTOR × @limit by
 * the finished words, re-ranked with the typed word's score added. Scoring every row a short prefix
 * matches would cost a hundred times more; `+` keeps each list from driving lookups into the other.
 */
const BOTH_SQL = `
  WITH typed AS MATERIALIZED (SELECT rowid AS id FROM catalog_words WHERE catalog_words MATCH @words),
  pool AS MATERIALIZED (
    SELECT rowid AS id, ${bm25('catalog')} AS rank FROM catalog WHERE catalog MATCH @stemmed AND +rowid IN typed
    ORDER BY rank, rowid LIMIT @limit * ${POOL_FACTOR}
  ),
  typedRank AS (SELECT rowid AS id, ${bm25('catalog_words')} AS rank FROM catalog_words WHERE catalog_words MATCH @words AND +rowid IN (SELECT id FROM pool)),
  top AS (SELECT pool.id AS id, pool.rank + typedRank.rank AS rank FROM pool JOIN typedRank ON typedRank.id = pool.id ORDER BY rank, id LIMIT @limit)
  SELECT ${ROW_COLUMNS} FROM top CROSS JOIN catalog_rows r ON r.id = top.id ORDER BY top.rank, top.id`;

/** A query with a run of an unspaced script (unspacedMatch's @unspaced): ranked by the pair index alone (Latin text keeps the word indexes' ranking). */
export const UNSPACED_SEARCH_SQL = `
  WITH top AS (SELECT rowid AS id, bm25(catalog_grams, ${HEADING_WEIGHT}, 1) AS rank FROM catalog_grams WHERE catalog_grams MATCH @unspaced ORDER BY rank, rowid LIMIT @limit)
  SELECT ${ROW_COLUMNS} FROM top CROSS JOIN catalog_rows r ON r.id = top.id ORDER BY top.rank, top.id`;

/** The ranking statement a catalog query runs (parameters @stemmed, @words, @limit as the match needs). */
export function catalogSearchSql(match: CatalogMatch): string {
  if (match.stemmed === null) return WORDS_SQL;
  return match.wordPrefix === null ? STEMMED_SQL : BOTH_SQL;
}

/** The parameters of catalogSearchSql. */
export function catalogSearchParams(match: CatalogMatch, limit: number): Record<string, string | number> {
  const params: Record<string, string | number> = { limit };
  if (match.stemmed !== null) params.stemmed = textColumnsMatch(match.stemmed);
  if (match.wordPrefix !== null) params.words = textColumnsMatch(match.wordPrefix);
  return params;
}

/** Ellipsis and length of a snippet: a line's worth of words around the best match. */
const SNIPPET_ARGS = "'[MATCH]', '[/MATCH]', '…', 24";

/**
 * The kept rows' snippets (their text) and titles (their headings), every query word marked, for
 * the ids in the JSON array @ids. A finished search marks what the stemmed index matched; while
 * typing, the unstemmed index marks the finished words as typed and every word that starts with the
 * one being typed. One pass over the match with the ids as a filter: a lookup per row would expand
 * a short prefix into its words once per row.
 */
export function catalogMarkSql(match: CatalogMatch): string {
  const table = match.wordPrefix === null ? 'catalog' : 'catalog_words';
  return `SELECT rowid AS id, snippet(${table}, 3, ${SNIPPET_ARGS}) AS snippet, highlight(${table}, 2, '[MATCH]', '[/MATCH]') AS title
    FROM ${table} WHERE ${table} MATCH @mark AND +rowid IN (SELECT value FROM json_each(@ids))`;
}

/** The MATCH expression of catalogMarkSql. */
export function catalogMarkExpression(match: CatalogMatch): string {
  return textColumnsMatch(match.wordPrefix === null ? (match.stemmed as string) : match.anyWord);
}
