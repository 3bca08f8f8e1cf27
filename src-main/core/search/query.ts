/**
 * RFC-0004:C-SEARCH and C-QUERY-SYNTAX: a bag-of-words AND query over a skill's index, ranked by
 * BM25 (scores negated for display), with `[MATCH]`-marked snippets of the content column.
 */
import type Database from 'better-sqlite3';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import { checkIntegerOption } from '../options.js';
import { prepared } from '../store/statement-cache.js';
import { readIndex, type OpenIndex } from './skill-index.js';
import type { IndexSearchResult } from '../../shared/gateway.js';

/** Default of `--limit`. */
export const DEFAULT_SEARCH_LIMIT = 10;

/** The snippet() call RFC-0004 fixes: content column, markers, ellipsis, 32 tokens. */
export const SNIPPET_SQL = "snippet(sections, 2, '[MATCH]', '[/MATCH]', '...', 32)";

/** Ranks every match, then makes snippets only for the rows kept (CROSS JOIN pins that order). */
const RANK_THEN_SNIPPET_SQL = `
  WITH top AS (SELECT rowid AS id, bm25(sections) AS rank FROM sections WHERE sections MATCH @match ORDER BY rank, rowid LIMIT @limit)
  SELECT file, section, ${SNIPPET_SQL} AS snippet, top.rank AS rank
  FROM top CROSS JOIN sections ON sections.rowid = top.id WHERE sections MATCH @match ORDER BY top.rank, top.id`;

/** Every match with its snippet, unsorted: for an index so small that ranking in JS costs less than SQLite's sorter. */
const EVERY_MATCH_SQL = `SELECT rowid AS id, file, section, ${SNIPPET_SQL} AS snippet, bm25(sections) AS rank FROM sections WHERE sections MATCH ?`;

/** Up to how many rows an index is searched by fetching every match and ranking it here. */
export const SMALL_INDEX_ROWS = 64;

/** How a search ranks: in SQL with snippets for the kept rows only, or (small indexes) every match ranked here. */
export type SearchStrategy = 'rank-then-snippet' | 'every-match';

interface HitRow {
  file: string;
  section: string;
  snippet: string;
  rank: number;
}

/** The best `limit` rows for `match` by BM25, ties by row order; both strategies give the same rows and snippets. */
export function rankedRows(db: Database.Database, match: string, limit: number, strategy: SearchStrategy): HitRow[] {
  if (strategy === 'rank-then-snippet') return prepared(db, RANK_THEN_SNIPPET_SQL).all({ match, limit }) as HitRow[];
  const rows = prepared(db, EVERY_MATCH_SQL).all(match) as (HitRow & { id: number })[];
  rows.sort((a, b) => a.rank - b.rank || a.id - b.id);
  return rows.slice(0, limit).map(({ file, section, snippet, rank }) => ({ file, section, snippet, rank }));
}

const rowCounts = new WeakMap<Database.Database, number>();

/** Rows of an open index (its last rowid: a build inserts 1…n), read once per connection. */
function rowCount(db: Database.Database): number {
  let rows = rowCounts.get(db);
  if (rows === undefined) {
    rows = (prepared(db, 'SELECT rowid FROM sections ORDER BY rowid DESC LIMIT 1').get() as { rowid: number } | undefined)?.rowid ?? 0;
    rowCounts.set(db, rows);
  }
  return rows;
}

/** Splits on ASCII whitespace only (space, tab, LF, CR); U+00A0 and friends stay inside tokens. */
export function queryTokens(query: string): string[] {
  return query.split(/[ \t\n\r]+/).filter((token) => token !== '');
}

/**
 * One token as a literal FTS5 term: `"` doubled, the whole wrapped in quotes. SQLite reads a query
 * only up to a NUL, so a NUL becomes a space: the tokenizer splits words at either.
 */
export function quoteToken(token: string): string {
  return `"${token.replace(/"/g, '""').replace(/\0/g, ' ')}"`;
}

/** The FTS5 query for a user's query (`my "special" app` → `"my" """special""" "app"`); E004 when empty. */
export function toFtsQuery(query: string): string {
  const tokens = queryTokens(query);
  if (tokens.length === 0) throw skillcErrors.emptyQuery();
  return tokens.map(quoteToken).join(' ');
}

/**
 * Restricts a match to the heading and content columns: the file path is there to be returned,
 * not searched (otherwise `skill` would match every row of every SKILL.md).
 */
export function textColumnsMatch(ftsQuery: string): string {
  return `{section content} : (${ftsQuery})`;
}

/** A search checked and ready to run (E004 and option errors come before any index is opened). */
export interface SkillQuery {
  query: string;
  match: string;
  limit: number;
}

/** Checks a search's query and options; E004 for an empty query, E100 for a bad limit. */
export function skillQuery(query: string, options: { limit?: number } = {}): SkillQuery {
  checkIntegerOption('limit', options.limit, 1);
  return { query, match: textColumnsMatch(toFtsQuery(query)), limit: options.limit ?? DEFAULT_SEARCH_LIMIT };
}

/** Runs a checked search on an open index; `skill` names it in an E002. */
export function searchIndex(index: OpenIndex, skill: string, search: SkillQuery): IndexSearchResult {
  const rows = readIndex(index, skill, (db) =>
    rankedRows(db, search.match, search.limit, rowCount(db) <= SMALL_INDEX_ROWS ? 'every-match' : 'rank-then-snippet'),
  );
  return { query: search.query, results: rows.map((row) => ({ file: row.file, section: row.section, snippet: row.snippet, score: -row.rank })) };
}
