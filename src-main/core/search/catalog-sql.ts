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
import { queryTokens, quoteToken } from './query.js';
import { isStopword, queryWords } from './stopwords.js';
import { TOKENIZE_CLAUSE } from './tokenizer.js';
import { unspacedGrams } from './unspaced-text.js';
import type { TokenizerName } from '../../shared/gateway.js';

/** Layout version of the catalog; a catalog of another version is rebuilt. */
export const CATALOG_SCHEMA_VERSION = 8;

/** How much more a word in a section's heading counts than the same word in its text. */
export const HEADING_WEIGHT = 4;

/** How much more a word in a skill's description counts than in a section's text: it says what the skill is for, as a heading says what its section is. */
export const ABOUT_WEIGHT = 4;

/**
 * How a catalog query's words must be in a row: every word that says something (`all`), or `any`
 * of them, rows ranked by BM25 over all of them (each word a row holds adds to its score, the
 * rarer the more). Common words such as "how", "is", "this" are left out while others remain, but
 * still count for the rows that hold them.
 */
export type MatchLevel = 'all' | 'any';

/** The FTS5 expressions of a catalog query: complete tokens (stemmed), common words and the typed word prefix. */
export interface CatalogMatch {
  /** What a row must match, and what ranks it: the words that say something, all of them or any (null: only the typed prefix says anything). */
  stemmed: string | null;
  /** The common words, which add to the score of the ranked rows that hold them (null: none). */
  common: string | null;
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
  const split = queryWords(finished);
  // While a word is being typed it carries the query on its own when the finished words are all common ones.
  const alone = typed !== null && split.allCommon;
  // Each word once, whatever its case (the index folds case), so a repeated word does not count twice.
  const quoted = (words: readonly string[]): string[] => [...new Set(words.map((word) => quoteToken(word.toLowerCase())))];
  const words = quoted(alone ? [] : split.content);
  const common = quoted(alone ? finished : split.common).filter((word) => !words.includes(word));
  const required = words.length === 0 ? null : words.join(' ');
  const wordPrefix = typed === null ? null : `${quoteToken(typed)}*`;
  return {
    stemmed: level === 'any' && words.length > 0 ? words.join(' OR ') : required,
    common: common.length === 0 ? null : common.join(' OR '),
    required,
    wordPrefix,
    anyWord: [...words, ...common, ...(wordPrefix === null ? [] : [wordPrefix])].join(' OR '),
  };
}

/** One way to match a query: the last word as a prefix or not, and how many words a row must hold. */
export interface MatchAttempt {
  prefix: boolean;
  level: MatchLevel;
}

/** Words that say something from which a search ranks rows holding any of them at once, rather than first asking for all of them. */
export const ANY_FROM_WORDS = 3;

/**
 * The ways a search tries, in order, answering with the first that finds rows. Search-as-you-type
 * first takes the last word as a prefix of a word; when that finds nothing (or the last word is a
 * common word, typed whole), it answers as the full search does: one or two words that say
 * something must all be in a row, then any of them; from ANY_FROM_WORDS on, the rows holding any
 * of them are ranked at once. A query written as a person thinks ("stop leaked api keys getting
 * pushed to github") is rarely held word for word by the section it wants, while a long chapter
 * that happens to hold every word is about something else; BM25 over every word ranks the rows
 * that hold more of them, and rarer ones, higher. So "how full is my disk" finds disk_usage as typed.
 */
export function matchAttempts(query: string, prefix: boolean): MatchAttempt[] {
  const tokens = queryTokens(query);
  const content = new Set(queryWords(tokens).content.map((token) => token.toLowerCase()));
  const full: MatchAttempt[] =
    tokens.length < 2
      ? [{ prefix: false, level: 'all' }]
      : content.size >= ANY_FROM_WORDS
        ? [{ prefix: false, level: 'any' }]
        : [
            { prefix: false, level: 'all' },
            { prefix: false, level: 'any' },
          ];
  const typedWhole = isStopword(tokens[tokens.length - 1] ?? '');
  return prefix && !typedWhole ? [{ prefix: true, level: 'all' }, ...full] : full;
}

/** The SQL function the triggers call to fill the pair index (rows marked `unspaced` only): every connection that writes the catalog defines it. */
const UNSPACED_GRAMS = 'unspaced_grams';

/** Defines the triggers' function on a catalog connection. */
export function catalogFunctions(db: Database.Database): void {
  db.function(UNSPACED_GRAMS, { deterministic: true }, (text: unknown) => (typeof text === 'string' ? unspacedGrams(text) : text));
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
  catalog: 'INSERT INTO catalog (rowid, section, content, about) SELECT id, section, content, about FROM catalog_rows WHERE id > @after',
  catalog_words: 'INSERT INTO catalog_words (rowid, section, content, about) SELECT id, section, content, about FROM catalog_rows WHERE id > @after',
  catalog_grams: `INSERT INTO catalog_grams (rowid, section, content, about) SELECT id, ${UNSPACED_GRAMS}(section), ${UNSPACED_GRAMS}(content), ${UNSPACED_GRAMS}(about)
    FROM catalog_rows WHERE id > @after AND unspaced = 1`,
};

/**
 * Creates every table of a new catalog. Rows are stored once, in `catalog_rows`; the word indexes
 * read them as external content and index the heading, the text and a description (`about`, set on
 * the one row per skill that holds its description) — never the file path, which is returned, not
 * searched. `unspaced` says (as the row was made) that a row holds a run of an unspaced script and
 * so is indexed in `catalog_grams` too. Ids only ever grow (AUTOINCREMENT), so the rows a sync
 * stored are exactly those above the largest id before it, even when it removed the last ones.
 */
export const catalogSchema = (tokenizer: TokenizerName): string => `
  CREATE TABLE catalog_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE catalog_skills (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, dir TEXT NOT NULL, hash TEXT NOT NULL, sections INTEGER NOT NULL,
    about INTEGER, first_row INTEGER, last_row INTEGER
  );
  CREATE TABLE catalog_rows (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    skill_id INTEGER NOT NULL REFERENCES catalog_skills(id),
    skill TEXT NOT NULL,
    file TEXT NOT NULL,
    section TEXT NOT NULL,
    content TEXT NOT NULL,
    about TEXT,
    level INTEGER NOT NULL,
    start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    trail TEXT NOT NULL,
    tool TEXT,
    unspaced INTEGER NOT NULL
  );
  CREATE INDEX idx_catalog_rows_skill ON catalog_rows(skill_id);
  CREATE VIRTUAL TABLE catalog USING fts5(section, content, about, content='catalog_rows', content_rowid='id', tokenize='${TOKENIZE_CLAUSE[tokenizer]}');
  -- No prefix indexes: at 10,000 skills they tripled the cost of building this index and made no prefix query measurably faster (ranking dominates).
  CREATE VIRTUAL TABLE catalog_words USING fts5(section, content, about, content='catalog_rows', content_rowid='id', tokenize='unicode61');
  CREATE VIRTUAL TABLE catalog_grams USING fts5(section, content, about, content='', contentless_delete=1, tokenize='unicode61');
  CREATE TRIGGER catalog_rows_insert AFTER INSERT ON catalog_rows BEGIN
    INSERT INTO catalog (rowid, section, content, about) VALUES (new.id, new.section, new.content, new.about);
    INSERT INTO catalog_grams (rowid, section, content, about) SELECT new.id, ${UNSPACED_GRAMS}(new.section), ${UNSPACED_GRAMS}(new.content), ${UNSPACED_GRAMS}(new.about)
      WHERE new.unspaced = 1;
  END;
  CREATE TRIGGER catalog_rows_delete AFTER DELETE ON catalog_rows BEGIN
    INSERT INTO catalog (catalog, rowid, section, content, about) VALUES ('delete', old.id, old.section, old.content, old.about);
    DELETE FROM catalog_grams WHERE rowid = old.id AND old.unspaced = 1;
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
    INSERT INTO catalog_words (rowid, section, content, about) VALUES (new.id, new.section, new.content, new.about);
  END;
  CREATE TRIGGER catalog_words_delete AFTER DELETE ON catalog_rows BEGIN
    INSERT INTO catalog_words (catalog_words, rowid, section, content, about) VALUES ('delete', old.id, old.section, old.content, old.about);
  END;
`;

/** Rows ranked by the finished words for each hit asked for, before the word being typed or the common words re-rank them. */
const POOL_FACTOR = 5;

/** BM25 over (section, content, about). */
const bm25 = (table: string): string => `bm25(${table}, ${HEADING_WEIGHT}, 1, ${ABOUT_WEIGHT})`;

/** What every ranking query returns per row, best first (`about`: the row of the skill's description). */
const ROW_COLUMNS = 'r.id, r.skill_id, r.skill, r.file, r.section, r.level, r.start_line, r.end_line, r.trail, r.tool, r.about IS NOT NULL AS about, top.rank';

/**
 * Restricts ranked rows to one skill's, or nothing: a skill's rows are stored together, so they are
 * the ids @first to @last (see skillRows), a range FTS5 seeks to rather than a set built of every
 * row of the skill (a 79 MB skill's 100,000 rows, each search).
 */
const scope = (scoped: boolean): string => (scoped ? ' AND rowid BETWEEN @first AND @last' : '');

/** The ids of one skill's rows, first and last (a skill's rows are stored together, in one run of ids, recorded as they are stored). */
export const SKILL_ROWS_SQL = 'SELECT first_row AS first, last_row AS last FROM catalog_skills WHERE name = ?';

/** Ids a scoped statement keeps: a skill's first to last row. */
export interface RowRange {
  first: number;
  last: number;
}

/**
 * The ranking statement a catalog query runs (parameters: @limit; @stemmed for the finished words,
 * @words for the word being typed, @common for the common words, @first and @last scoped to a skill).
 *
 * A pool of rows is ranked by the finished words, or, for a lone word being typed, by the unstemmed
 * index. When a word is being typed too, or common words were typed, the pool is POOL_FACTOR ×
 * @limit rows, re-ranked with their BM25 added: FTS5's BM25 is a sum over a query's phrases, so the
 * sum ranks as the whole query would, while scoring every row a short prefix or "the" matches would
 * cost a hundred times more. `+` keeps each list from driving lookups into the other.
 */
export function catalogSearchSql(match: CatalogMatch, scoped = false): string {
  const typing = match.wordPrefix !== null && match.stemmed !== null;
  const common = match.common !== null && match.stemmed !== null;
  const limit = typing || common ? `@limit * ${POOL_FACTOR}` : '@limit';
  const ctes: string[] = [];
  let pool: string;
  if (match.stemmed === null) {
    pool = `SELECT rowid AS id, ${bm25('catalog_words')} AS rank FROM catalog_words WHERE catalog_words MATCH @words${scope(scoped)} ORDER BY rank, rowid LIMIT ${limit}`;
  } else {
    if (typing) ctes.push(`typed AS MATERIALIZED (SELECT rowid AS id FROM catalog_words WHERE catalog_words MATCH @words${scope(scoped)})`);
    pool = `SELECT rowid AS id, ${bm25('catalog')} AS rank FROM catalog WHERE catalog MATCH @stemmed${typing ? ' AND +rowid IN typed' : scope(scoped)} ORDER BY rank, rowid LIMIT ${limit}`;
  }
  if (!typing && !common) ctes.push(`top AS (${pool})`);
  else {
    ctes.push(`pool AS MATERIALIZED (${pool})`);
    const joins: string[] = [];
    const sum = ['pool.rank'];
    if (typing) {
      ctes.push(
        `typedRank AS (SELECT rowid AS id, ${bm25('catalog_words')} AS rank FROM catalog_words WHERE catalog_words MATCH @words AND +rowid IN (SELECT id FROM pool))`,
      );
      joins.push('JOIN typedRank ON typedRank.id = pool.id');
      sum.push('typedRank.rank');
    }
    if (common) {
      ctes.push(`commonRank AS (SELECT rowid AS id, ${bm25('catalog')} AS rank FROM catalog WHERE catalog MATCH @common AND +rowid IN (SELECT id FROM pool))`);
      joins.push('LEFT JOIN commonRank ON commonRank.id = pool.id');
      sum.push('coalesce(commonRank.rank, 0)');
    }
    ctes.push(`top AS (SELECT pool.id AS id, ${sum.join(' + ')} AS rank FROM pool ${joins.join(' ')} ORDER BY rank, id LIMIT @limit)`);
  }
  return `
  WITH ${ctes.join(',\n  ')}
  SELECT ${ROW_COLUMNS} FROM top CROSS JOIN catalog_rows r ON r.id = top.id ORDER BY top.rank, top.id`;
}

/** The parameters of catalogSearchSql. */
export function catalogSearchParams(match: CatalogMatch, limit: number, rows: RowRange | null = null): Record<string, string | number> {
  const params: Record<string, string | number> = { limit };
  if (match.stemmed !== null) params.stemmed = match.stemmed;
  if (match.wordPrefix !== null) params.words = match.wordPrefix;
  if (match.common !== null && match.stemmed !== null) params.common = match.common;
  if (rows !== null) Object.assign(params, rows);
  return params;
}

/** A query with a run of an unspaced script (@unspaced; @first and @last scoped): ranked by the pair index alone (Latin keeps the word indexes'). */
export const unspacedSearchSql = (scoped = false): string => `
  WITH top AS (SELECT rowid AS id, bm25(catalog_grams, ${HEADING_WEIGHT}, 1, ${ABOUT_WEIGHT}) AS rank FROM catalog_grams WHERE catalog_grams MATCH @unspaced${scope(scoped)} ORDER BY rank, rowid LIMIT @limit)
  SELECT ${ROW_COLUMNS} FROM top CROSS JOIN catalog_rows r ON r.id = top.id ORDER BY top.rank, top.id`;

/**
 * Keeps the rows whose ids are in the JSON array @ids, by looking each up (`lookup`) or by reading
 * the match once and filtering it. A lookup costs its row's seek in each word's list (a 79 MB
 * skill's 100,000 matches cost 0.4 ms for ten snippets by lookup, 30 ms read whole); reading the
 * match costs its size once. So lookups serve one skill's search, whose match may be its whole
 * text; a search over every skill, a word being typed (a prefix is expanded into its words again at
 * each lookup) and BM25 (each lookup counts every word's rows again for its weight) read it once.
 */
const amongIds = (lookup: boolean): string => `${lookup ? '' : '+'}rowid IN (SELECT value FROM json_each(@ids))`;

/** Ellipsis and length of a snippet: a line's worth of words around the best match. */
const SNIPPET_ARGS = "'[MATCH]', '[/MATCH]', '…', 24";

/**
 * The kept rows' snippets (their text) and titles (their headings), every query word marked, for
 * the ids in the JSON array @ids. A finished search marks what the stemmed index matched; while
 * typing, the unstemmed index marks the finished words as typed and every word that starts with the
 * one being typed; `lookup` (one skill's search): see amongIds.
 */
export function catalogMarkSql(match: CatalogMatch, lookup = false): string {
  const table = match.wordPrefix === null ? 'catalog' : 'catalog_words';
  // A description's row has its text in `about` (column 2), every other row in `content` (column 1).
  return `SELECT rowid AS id, CASE WHEN about IS NULL THEN snippet(${table}, 1, ${SNIPPET_ARGS}) ELSE snippet(${table}, 2, ${SNIPPET_ARGS}) END AS snippet,
      highlight(${table}, 0, '[MATCH]', '[/MATCH]') AS title
    FROM ${table} WHERE ${table} MATCH @mark AND ${amongIds(lookup && match.wordPrefix === null)}`;
}

/** The MATCH expression of catalogMarkSql. */
export function catalogMarkExpression(match: CatalogMatch): string {
  return match.anyWord;
}

/**
 * An in-memory schema (attached to each catalog connection as `candidates`) holding the headings of
 * one search's candidates, tokenized as `catalog` and as `catalog_words`: whether a candidate's
 * heading holds every word is asked of its few dozen headings, not of every row in the catalog that
 * holds the words (a 79 MB skill's 100,000), whose lists a look-up by rowid would seek into.
 */
export const candidateHeadingsSchema = (tokenizer: TokenizerName): string => `
  ATTACH DATABASE ':memory:' AS candidates;
  CREATE VIRTUAL TABLE candidates.headings USING fts5(section, tokenize='${TOKENIZE_CLAUSE[tokenizer]}');
  CREATE VIRTUAL TABLE candidates.heading_words USING fts5(section, tokenize='unicode61');`;

/** The table of candidateHeadingsSchema that tokenizes as `table` does. */
export const candidateHeadings = (table: 'catalog' | 'catalog_words'): string => (table === 'catalog' ? 'headings' : 'heading_words');

/** The rows among @ids (a JSON array) matching @match in `table` (catalog, or catalog_grams: unspaced), with their BM25 (the match read once: see amongIds). */
export const catalogRankOfSql = (table: 'catalog' | 'catalog_grams'): string =>
  `SELECT rowid AS id, bm25(${table}, ${HEADING_WEIGHT}, 1, ${ABOUT_WEIGHT}) AS rank FROM ${table} WHERE ${table} MATCH @match AND ${amongIds(false)}`;

/** The rows of the skills in @skills (a JSON array of ids) but their descriptions' that match @match in `table`, best first (every ranking column). */
export const catalogStandInSql = (table: 'catalog' | 'catalog_grams'): string => `
  WITH top AS (
    SELECT rowid AS id, bm25(${table}, ${HEADING_WEIGHT}, 1, ${ABOUT_WEIGHT}) AS rank FROM ${table}
    WHERE ${table} MATCH @match AND +rowid IN (SELECT id FROM catalog_rows WHERE skill_id IN (SELECT value FROM json_each(@skills)) AND about IS NULL)
  )
  SELECT ${ROW_COLUMNS} FROM top CROSS JOIN catalog_rows r ON r.id = top.id ORDER BY top.rank, top.id`;

/** The ids among @ids (a JSON array) whose row holds every word of @required; `lookup`: see amongIds. */
export const catalogHoldingSql = (lookup: boolean): string => `SELECT rowid FROM catalog WHERE catalog MATCH @required AND ${amongIds(lookup)}`;
