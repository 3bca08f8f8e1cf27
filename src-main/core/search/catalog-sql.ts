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
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import { queryTokens, quoteToken, textColumnsMatch } from './query.js';
import { contentTokens, isStopword } from './stopwords.js';
import { TOKENIZE_CLAUSE } from './tokenizer.js';
import { hasUnspacedRun, unspacedGrams } from './unspaced-text.js';
import type { TokenizerName } from '../../shared/gateway.js';

/** Layout version of the catalog; a catalog of another version is rebuilt. */
export const CATALOG_SCHEMA_VERSION = 7;

/** How much more a word in a section's heading counts than the same word in its text. */
export const HEADING_WEIGHT = 4;

/**
 * How a catalog query's words must be in a row: every word that says something (`all`), common
 * words such as "how", "is", "this" left out while others remain but still counting for the rows
 * that hold them; or, when no row holds them all, `any` one of them.
 */
export type MatchLevel = 'all' | 'any';

/** The FTS5 expressions of a catalog query: complete tokens (stemmed) and the typed word prefix. */
export interface CatalogMatch {
  /** What ranks rows: the words that say something, all required, and the common words as a bonus for rows that hold them too. */
  stemmed: string | null;
  /** The words that say something, all required, and nothing else: what a heading must hold to say exactly what was asked. */
  required: string | null;
  wordPrefix: string | null;
  /** On the unstemmed index: any complete token or the prefix, to mark every query word in a snippet. */
  anyWord: string;
}

/**
 * Splits a query (E004 when empty): with `prefix`, the last token becomes `"tok"*` over unstemmed
 * words. "who changed this file" requires `changed` and `file`, and ranks a row that also holds
 * "who" and "this" higher; with `any`, a row needs only one of the words that say something.
 */
export function catalogMatch(query: string, prefix: boolean, level: MatchLevel = 'all'): CatalogMatch {
  const tokens = queryTokens(query);
  if (tokens.length === 0) throw skillcErrors.emptyQuery();
  const typed = prefix ? (tokens[tokens.length - 1] as string) : null;
  const finished = prefix ? tokens.slice(0, -1) : tokens;
  // While a word is being typed it carries the query on its own when the finished words are all common ones.
  const words = (typed === null ? contentTokens(finished) : finished.filter((token) => !isStopword(token))).map(quoteToken);
  const common = finished.filter((token) => isStopword(token) && !words.includes(quoteToken(token))).map(quoteToken);
  const required = words.length === 0 ? null : words.join(' ');
  const wordPrefix = typed === null ? null : `${quoteToken(typed)}*`;
  let stemmed = required;
  if (level === 'any') stemmed = words.length === 0 ? null : words.join(' OR ');
  // FTS5's BM25 sums over every phrase of the expression, so the second branch's common words add to the rows that hold them.
  else if (required !== null && common.length > 0) stemmed = `(${required}) OR (${words.join(' AND ')} AND (${common.join(' OR ')}))`;
  return { stemmed, required, wordPrefix, anyWord: [...words, ...common, ...(wordPrefix === null ? [] : [wordPrefix])].join(' OR ') };
}

/** One way to match a query: the last word as a prefix or not, and how many words a row must hold. */
export interface MatchAttempt {
  prefix: boolean;
  level: MatchLevel;
}

/**
 * The ways a search tries, in order, answering with the first that finds rows. Search-as-you-type
 * first takes the last word as a prefix of a word; when that finds nothing (or the last word is a
 * common word, typed whole), it answers as the full search does: every word that says something,
 * then, for several words, any of them. So "how full is my disk" finds disk_usage as typed.
 */
export function matchAttempts(query: string, prefix: boolean): MatchAttempt[] {
  const tokens = queryTokens(query);
  const full: MatchAttempt[] =
    tokens.length < 2
      ? [{ prefix: false, level: 'all' }]
      : [
          { prefix: false, level: 'all' },
          { prefix: false, level: 'any' },
        ];
  const typedWhole = isStopword(tokens[tokens.length - 1] ?? '');
  return prefix && !typedWhole ? [{ prefix: true, level: 'all' }, ...full] : full;
}

/** SQL functions the triggers call to fill the pair index: every connection that writes the catalog defines them (catalogFunctions). */
const UNSPACED_GRAMS = 'unspaced_grams';
const HAS_UNSPACED = 'has_unspaced';

/** Defines the triggers' functions on a catalog connection. */
export function catalogFunctions(db: Database.Database): void {
  db.function(UNSPACED_GRAMS, { deterministic: true }, (text: unknown) => (typeof text === 'string' ? unspacedGrams(text) : text));
  db.function(HAS_UNSPACED, { deterministic: true }, (text: unknown) => (typeof text === 'string' && hasUnspacedRun(text) ? 1 : 0));
}

/** The trigger whose presence says `catalog_words` is whole (see CATALOG_WORDS_TRIGGERS). */
export const WORDS_TRIGGER = 'catalog_words_insert';

/**
 * How a bulk sync, which stores rows with its triggers dropped, indexes the rows with ids above
 * @after in each table the triggers feed, one statement a table (FTS5 writes out what it holds at
 * each statement's end, so a row at a time is what costs): a batch at a time while a first sync goes
 * on reading, or every row (@after 0) once the table is emptied with 'delete-all' (see the catalog's
 * suspendIndexing). A table missing here leaves a bulk sync no shortcut.
 */
export const CATALOG_INDEX_ROWS: Readonly<Record<string, string>> = {
  catalog: 'INSERT INTO catalog (rowid, skill, file, section, content) SELECT id, skill, file, section, content FROM catalog_rows WHERE id > @after',
  catalog_grams: `INSERT INTO catalog_grams (rowid, section, content) SELECT id, ${UNSPACED_GRAMS}(section), ${UNSPACED_GRAMS}(content) FROM catalog_rows
    WHERE id > @after AND (${HAS_UNSPACED}(section) OR ${HAS_UNSPACED}(content))`,
};

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
  -- No prefix indexes: at 10,000 skills they tripled the cost of building this index and made no prefix query measurably faster (ranking dominates).
  CREATE VIRTUAL TABLE catalog_words USING fts5(skill UNINDEXED, file, section, content, content='catalog_rows', content_rowid='id', tokenize='unicode61');
  CREATE VIRTUAL TABLE catalog_grams USING fts5(section, content, content='', contentless_delete=1, tokenize='unicode61');
  CREATE TRIGGER catalog_rows_insert AFTER INSERT ON catalog_rows BEGIN
    INSERT INTO catalog (rowid, skill, file, section, content) VALUES (new.id, new.skill, new.file, new.section, new.content);
    INSERT INTO catalog_grams (rowid, section, content) SELECT new.id, ${UNSPACED_GRAMS}(new.section), ${UNSPACED_GRAMS}(new.content)
      WHERE ${HAS_UNSPACED}(new.section) OR ${HAS_UNSPACED}(new.content);
  END;
  CREATE TRIGGER catalog_rows_delete AFTER DELETE ON catalog_rows BEGIN
    INSERT INTO catalog (catalog, rowid, skill, file, section, content) VALUES ('delete', old.id, old.skill, old.file, old.section, old.content);
    DELETE FROM catalog_grams WHERE rowid = old.id;
  END;
  ${CATALOG_WORDS_TRIGGERS}
`;

/**
 * The triggers that keep `catalog_words` in step with the rows. A bulk sync leaves them out and the
 * index unbuilt (only a prefix query reads it, and a first search over 10,000 skills would spend a
 * tenth of its time on it): they exist exactly while the index is whole, and the first prefix
 * query without them rebuilds it and puts them back (SkillCatalog's wordsIndex).
 */
export const CATALOG_WORDS_TRIGGERS = `
  CREATE TRIGGER ${WORDS_TRIGGER} AFTER INSERT ON catalog_rows BEGIN
    INSERT INTO catalog_words (rowid, skill, file, section, content) VALUES (new.id, new.skill, new.file, new.section, new.content);
  END;
  CREATE TRIGGER catalog_words_delete AFTER DELETE ON catalog_rows BEGIN
    INSERT INTO catalog_words (catalog_words, rowid, skill, file, section, content) VALUES ('delete', old.id, old.skill, old.file, old.section, old.content);
  END;
`;

/** Rows ranked by the finished words for each hit asked for, before the word being typed re-ranks them. */
const POOL_FACTOR = 5;

/** BM25 over (skill, file, section, content): only the heading and the text are ever matched. */
const bm25 = (table: string): string => `bm25(${table}, 0, 0, ${HEADING_WEIGHT}, 1)`;

/** What every ranking query returns per row, best first. */
const ROW_COLUMNS = 'r.id, r.skill, r.file, r.section, r.level, r.start_line, r.end_line, r.trail, r.tool, top.rank';

/** Restricts ranked rows to one skill's (named by @skill), or nothing. */
const scope = (scoped: boolean): string =>
  scoped ? ' AND +rowid IN (SELECT id FROM catalog_rows WHERE skill_id = (SELECT id FROM catalog_skills WHERE name = @skill))' : '';

/** Finished words only: ranked by the stemmed index. */
const stemmedSql = (scoped: boolean): string => `
  WITH top AS (SELECT rowid AS id, ${bm25('catalog')} AS rank FROM catalog WHERE catalog MATCH @stemmed${scope(scoped)} ORDER BY rank, rowid LIMIT @limit)
  SELECT ${ROW_COLUMNS} FROM top CROSS JOIN catalog_rows r ON r.id = top.id ORDER BY top.rank, top.id`;

/** A lone word being typed: ranked by the unstemmed index. */
const wordsSql = (scoped: boolean): string => `
  WITH top AS (SELECT rowid AS id, ${bm25('catalog_words')} AS rank FROM catalog_words WHERE catalog_words MATCH @words${scope(scoped)} ORDER BY rank, rowid LIMIT @limit)
  SELECT ${ROW_COLUMNS} FROM top CROSS JOIN catalog_rows r ON r.id = top.id ORDER BY top.rank, top.id`;

/**
 * Finished words and the word being typed: the rows matching both, the best POOL_FACTOR × @limit by
 * the finished words, re-ranked with the typed word's score added. Scoring every row a short prefix
 * matches would cost a hundred times more; `+` keeps each list from driving lookups into the other.
 */
const bothSql = (scoped: boolean): string => `
  WITH typed AS MATERIALIZED (SELECT rowid AS id FROM catalog_words WHERE catalog_words MATCH @words${scope(scoped)}),
  pool AS MATERIALIZED (
    SELECT rowid AS id, ${bm25('catalog')} AS rank FROM catalog WHERE catalog MATCH @stemmed AND +rowid IN typed
    ORDER BY rank, rowid LIMIT @limit * ${POOL_FACTOR}
  ),
  typedRank AS (SELECT rowid AS id, ${bm25('catalog_words')} AS rank FROM catalog_words WHERE catalog_words MATCH @words AND +rowid IN (SELECT id FROM pool)),
  top AS (SELECT pool.id AS id, pool.rank + typedRank.rank AS rank FROM pool JOIN typedRank ON typedRank.id = pool.id ORDER BY rank, id LIMIT @limit)
  SELECT ${ROW_COLUMNS} FROM top CROSS JOIN catalog_rows r ON r.id = top.id ORDER BY top.rank, top.id`;

/** A query with a run of an unspaced script (unspacedMatch's @unspaced): ranked by the pair index alone (Latin text keeps the word indexes' ranking). */
export const unspacedSearchSql = (scoped = false): string => `
  WITH top AS (SELECT rowid AS id, bm25(catalog_grams, ${HEADING_WEIGHT}, 1) AS rank FROM catalog_grams WHERE catalog_grams MATCH @unspaced${scope(scoped)} ORDER BY rank, rowid LIMIT @limit)
  SELECT ${ROW_COLUMNS} FROM top CROSS JOIN catalog_rows r ON r.id = top.id ORDER BY top.rank, top.id`;

/** The ranking statement a catalog query runs (parameters @stemmed, @words, @limit and, scoped to one skill, @skill). */
export function catalogSearchSql(match: CatalogMatch, scoped = false): string {
  if (match.stemmed === null) return wordsSql(scoped);
  return match.wordPrefix === null ? stemmedSql(scoped) : bothSql(scoped);
}

/** The parameters of catalogSearchSql. */
export function catalogSearchParams(match: CatalogMatch, limit: number, skill: string | null = null): Record<string, string | number> {
  const params: Record<string, string | number> = { limit };
  if (match.stemmed !== null) params.stemmed = textColumnsMatch(match.stemmed);
  if (match.wordPrefix !== null) params.words = textColumnsMatch(match.wordPrefix);
  if (skill !== null) params.skill = skill;
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

/** The ids among @ids (a JSON array) whose heading holds the MATCH expression @title, in `table` (catalog or catalog_words). */
export function catalogTitleSql(table: 'catalog' | 'catalog_words'): string {
  return `SELECT rowid AS id FROM ${table} WHERE ${table} MATCH @title AND +rowid IN (SELECT value FROM json_each(@ids))`;
}

/** A MATCH expression on the heading column alone. */
export function headingMatch(expression: string): string {
  return `{section} : (${expression})`;
}
