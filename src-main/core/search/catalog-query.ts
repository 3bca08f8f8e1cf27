/**
 * Searching the search catalog (catalog.ts tells what it is for): ranked rows (BM25, headings
 * weighted, lifted by their skill's description), merged with the sections that hold them, tools
 * first, with the query's words marked; and what a query that found nothing probably meant.
 */
import { diskFault } from '../disk-faults.js';
import { editDistance, typoLimit } from '../did-you-mean.js';
import { toSkilltrayError } from '../../shared/skilltray-error.js';
import { checkIntegerOption } from '../options.js';
import { mergeNested, toolsFirst, type RowPlace } from './catalog-hits.js';
import {
  catalogMarkExpression,
  catalogMarkSql,
  catalogMatch,
  matchAttempts,
  catalogSearchParams,
  catalogSearchSql,
  catalogHoldingSql,
  catalogRankOfSql,
  catalogStandInSql,
  SKILL_ROWS_SQL,
  type RowRange,
  unspacedSearchSql,
  type CatalogMatch,
  type MatchLevel,
} from './catalog-sql.js';
import { isCorruption, type CatalogStore } from './catalog-store.js';
import type { CatalogWriter } from './catalog-sync.js';
import type { CatalogHit, CatalogResult, CatalogSearchOptions } from './catalog-types.js';
import { corruptIndexError } from './skill-index.js';
import { oneLine } from './plain-text.js';
import { DEFAULT_SEARCH_LIMIT, queryTokens } from './query.js';
import { isStopword } from './stopwords.js';
import { hasUnspacedRun, markPieces, unspacedMatch, unspacedSnippet, type UnspacedMatch } from './unspaced-text.js';

/**
 * Scores from 0 to 1 for hits in answer order, from their BM25 (negative, best lowest): the first
 * is 1, and each is its BM25 against the first's, never more than the one before it. The order is
 * BM25's and then some (tools and headings that say what was asked first, grouped by skill), and a
 * score that rose down the list would say the order is wrong.
 */
export function followingRanks(ranks: readonly number[]): number[] {
  const first = ranks[0];
  let last = 1;
  return ranks.map((rank) => {
    const own = first !== undefined && first < 0 ? rank / first : 1;
    last = Math.min(last, own);
    return last;
  });
}

/** How much of its skill's description's score a section gets (see withDescriptions). */
const DESCRIPTION_SHARE = 0.5;

/**
 * The indexed word a typed `word` most likely meant: within a typo or two (see typoLimit), fewest
 * edits first, then the word in the most rows. `starting(prefix)` lists the indexed words that begin
 * with a prefix; a typo rarely hits both of the first two letters, so the words starting with either
 * are the candidates.
 */
export function closestWord(word: string, starting: (prefix: string) => readonly { term: string; doc: number }[]): string | null {
  const limit = typoLimit([...word].length);
  const firsts = [...new Set([...word].slice(0, 2))];
  let best: { term: string; distance: number; doc: number } | null = null;
  for (const first of firsts) {
    for (const { term, doc } of starting(first)) {
      if (term === word || Math.abs(term.length - word.length) > limit) continue;
      const distance = editDistance(word, term, limit);
      if (distance > limit) continue;
      if (best === null || distance < best.distance || (distance === best.distance && (doc > best.doc || (doc === best.doc && term < best.term))))
        best = { term, distance, doc };
    }
  }
  return best?.term ?? null;
}

/** Ranked rows asked of SQLite per hit wanted: merging a section with its parent and children drops some. */
const FETCH_FACTOR = 4;

/** A ranked row as the ranking statements return it. */
interface RankedRow extends RowPlace {
  id: number;
  skill_id: number;
  section: string;
  trail: string;
  tool: string | null;
  /** 1 on the row of the skill's description. */
  about: number;
  rank: number;
}

/** Reads the catalog; a search that finds it damaged has the writer rebuild it. */
export class CatalogQuery {
  constructor(
    private readonly store: CatalogStore,
    private readonly writer: CatalogWriter,
  ) {}

  /**
   * Ranked search over every skill in the catalog, or one (BM25 with headings weighted): a section
   * merged with the sections that hold it or that it holds, tools first, snippets as plain text on
   * one line with every query word marked `[MATCH]…[/MATCH]`. Rows holding every word come first
   * to answer; then every word that says something (common ones left out); then, in a full search,
   * rows holding any of them (`matched: 'any'`).
   */
  search(query: string, options: CatalogSearchOptions = {}): CatalogResult {
    checkIntegerOption('limit', options.limit, 1);
    const prefix = options.prefix ?? false;
    catalogMatch(query, prefix);
    // A run of a script written without spaces is searched in the pair index instead: every piece, then any of them.
    const unspaced = unspacedMatch(query, prefix);
    const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
    const skill = options.skill ?? null;
    const answer = (): CatalogResult => {
      if (prefix) this.writer.wordsIndex();
      if (unspaced !== null) {
        const found = this.run(query, prefix, catalogMatch(query, prefix), unspaced, limit, skill, options.broken);
        const any = unspacedMatch(query, prefix, true);
        if (found.hits.length > 0 || any === null || any.expression === unspaced.expression) return { query, matched: 'all', results: found.hits };
        return { query, matched: 'any', results: this.run(query, prefix, catalogMatch(query, prefix), any, limit, skill, options.broken).hits };
      }
      for (const attempt of matchAttempts(query, prefix)) {
        const match = catalogMatch(query, attempt.prefix, attempt.level);
        const found = this.run(query, attempt.prefix, match, null, limit, skill, options.broken);
        // A description's stand-in may hold only some of the words, whatever the level.
        // Every row of an `all` match holds every word, but a description's stand-in, which may hold only some.
        const matched = attempt.level === 'all' && !found.stoodIn ? 'all' : this.holdingAll(match, found.ids, skill !== null);
        if (found.hits.length > 0) return { query, matched, results: found.hits };
      }
      return { query, matched: 'all', results: [] };
    };
    try {
      return answer();
    } catch (error) {
      // Damage, or a catalog this process cannot write (building the prefix index of a read-only home's): rebuilt, in memory for the latter.
      if (!isCorruption(error) && !this.store.canLiveInMemory(error)) throw toSkilltrayError(error);
      // Without a skill list to rebuild from, the caller has to sync first.
      if (!this.writer.rebuild()) throw corruptIndexError('--all', error);
      return answer();
    }
  }

  /** `all` when every hit holds every word that says something, else `any`. */
  private holdingAll(match: CatalogMatch, ids: readonly number[], scoped: boolean): MatchLevel {
    if (match.required === null) return 'all';
    const holding = this.store
      .statement(catalogHoldingSql(scoped))
      .pluck()
      .all({ required: match.required, ids: JSON.stringify(ids) }) as number[];
    return holding.length === ids.length ? 'all' : 'any';
  }

  /** Of `rows`, the ids of those whose heading holds every word that says something (the one being typed as a prefix). */
  private titled(query: string, prefix: boolean, rows: readonly { id: number; section: string }[]): Set<number> {
    const words = catalogMatch(query, prefix);
    let titled = rows;
    const keep = (table: 'catalog' | 'catalog_words', expression: string): void => {
      const found = new Set(this.store.headingsMatching(table, expression, titled));
      titled = titled.filter((row) => found.has(row.id));
    };
    if (words.required !== null) keep('catalog', words.required);
    if (words.wordPrefix !== null) keep('catalog_words', words.wordPrefix);
    return new Set(titled.map((row) => row.id));
  }

  /** The ids of a skill's rows, first to last (none of them when the catalog does not hold it). */
  private skillRows(skill: string): RowRange {
    const rows = this.store.statement(SKILL_ROWS_SQL).get(skill) as { first: number | null; last: number | null } | undefined;
    const { first = null, last = null } = rows ?? {};
    return first === null || last === null ? { first: 1, last: 0 } : { first, last };
  }

  /**
   * Ranked hits for one match, with the ids of their rows (hits in answer order: see toolsFirst; the
   * tools of skills `broken` says are broken last), and whether a description's stand-in is among them.
   */
  private run(
    query: string,
    prefix: boolean,
    match: CatalogMatch,
    unspaced: UnspacedMatch | null,
    limit: number,
    skill: string | null,
    broken: ((skill: string) => boolean) | undefined,
  ): { hits: CatalogHit[]; ids: number[]; stoodIn: boolean } {
    const fetch = Math.min(1000, limit * FETCH_FACTOR + 10);
    const range = skill === null ? null : this.skillRows(skill);
    const ranking =
      unspaced === null
        ? this.store.statement(catalogSearchSql(match, range !== null)).all(catalogSearchParams(match, fetch, range))
        : this.store.statement(unspacedSearchSql(range !== null)).all({ unspaced: unspaced.expression, limit: fetch, ...(range ?? {}) });
    const ranked = ranking as (Omit<RankedRow, 'startLine' | 'endLine'> & { start_line: number; end_line: number })[];
    const rows: RankedRow[] = ranked.map((r) => ({ ...r, startLine: r.start_line, endLine: r.end_line }));
    const any = unspaced === null ? catalogMatch(query, false, 'any').stemmed : (unspacedMatch(query, false, true)?.expression ?? null);
    const described = this.withDescriptions(rows, match, unspaced, any, limit, skill !== null);
    const merged = mergeNested(described.rows);
    // The pair index has no word columns to match headings against: its hits keep the rank they have.
    const titled = unspaced === null ? this.titled(query, prefix, merged) : new Set<number>();
    const ordered = toolsFirst(merged.map((row) => ({ ...row, titled: titled.has(row.id) })));
    // A broken skill's tools come after every other hit: a person looking for a tool to run wants one that runs. Its
    // sections keep their place (a prose skill whose name differs from its folder still says what it says), marked by the caller.
    const last = (row: { skill: string; tool: string | null }): boolean => broken !== undefined && row.tool !== null && broken(row.skill);
    const kept = [...ordered.filter((row) => !last(row)), ...ordered.filter(last)].slice(0, limit);
    const marks = new Map(
      this.marks(
        match,
        unspaced,
        kept.map((row) => row.id),
        skill !== null,
      ).map((mark) => [mark.id, mark]),
    );
    const scores = followingRanks(kept.map((row) => row.rank));
    const hits = kept.map((row, i): CatalogHit => {
      const marked = marks.get(row.id);
      return {
        skill: row.skill,
        file: row.file,
        section: row.section,
        about: row.about === 1,
        level: row.level,
        startLine: row.startLine,
        endLine: row.endLine,
        title: marked?.title ?? row.section,
        trail: JSON.parse(row.trail) as string[],
        tool: row.tool,
        snippet: oneLine(marked?.snippet ?? ''),
        score: scores[i] as number,
      };
    });
    return { hits, ids: kept.map((row) => row.id), stoodIn: described.stoodIn };
  }

  /** The BM25 of the description rows of the skills `rows` come from, for `expression` in `table`, by skill id. */
  private descriptionRanks(rows: readonly RankedRow[], table: 'catalog' | 'catalog_grams', expression: string): Map<number, number> {
    const skills = JSON.stringify([...new Set(rows.map((row) => row.skill_id))]);
    const abouts = this.store
      .statement('SELECT id, about FROM catalog_skills WHERE id IN (SELECT value FROM json_each(?)) AND about IS NOT NULL')
      .all(skills) as {
      id: number;
      about: number;
    }[];
    const skillOf = new Map(abouts.map((row) => [row.about, row.id]));
    const found = this.store.statement(catalogRankOfSql(table)).all({ match: expression, ids: JSON.stringify(abouts.map((row) => row.about)) }) as {
      id: number;
      rank: number;
    }[];
    return new Map(found.map((row) => [skillOf.get(row.id) as number, row.rank]));
  }

  /**
   * The rows re-ranked with what their skill's description says: each section's BM25 plus
   * DESCRIPTION_SHARE of its skill's description row's for the same words. A description says what a
   * skill is for, so a section of the skill about Mermaid diagrams that mentions "sequence diagram"
   * beats a long guide that mentions them in passing. A description row that matched stands for its
   * skill as a whole, and the skill is opened where it answers best: at a section or tool of it that
   * matched too, or else at its row that holds the most of the words (`any`, its expression), which
   * takes the description's place and its rank when better, as a section merges with the one
   * holding it. So "how full is my disk" opens disk_usage, not the system skill's description.
   */
  private withDescriptions(
    rows: readonly RankedRow[],
    match: CatalogMatch,
    unspaced: UnspacedMatch | null,
    any: string | null,
    limit: number,
    scoped: boolean,
  ): { rows: RankedRow[]; stoodIn: boolean } {
    const table = unspaced === null ? 'catalog' : 'catalog_grams';
    const expression = unspaced?.expression ?? match.stemmed;
    if (expression === null || rows.length === 0) return { rows: [...rows], stoodIn: false };
    // Within one skill every section would get the same lift: only other skills' descriptions reorder anything.
    const described = scoped ? new Map<number, number>() : this.descriptionRanks(rows, table, expression);
    const boost = (row: RankedRow): RankedRow => (row.about === 1 ? row : { ...row, rank: row.rank + DESCRIPTION_SHARE * (described.get(row.skill_id) ?? 0) });
    let pool = rows.map(boost).sort((a, b) => a.rank - b.rank || a.id - b.id);
    const answered = new Set(pool.filter((row) => row.about !== 1).map((row) => row.skill_id));
    // Only a description that may be shown needs a place to open at: one among the first `limit` rows.
    const alone = [
      ...new Set(
        pool
          .slice(0, limit)
          .filter((row) => row.about === 1 && !answered.has(row.skill_id))
          .map((row) => row.skill_id),
      ),
    ];
    if (alone.length > 0 && any !== null) {
      const more = this.store.statement(catalogStandInSql(table)).all({ match: any, skills: JSON.stringify(alone) }) as (Omit<
        RankedRow,
        'startLine' | 'endLine'
      > & {
        start_line: number;
        end_line: number;
      })[];
      const best = new Map<number, RankedRow>();
      for (const row of more) if (!best.has(row.skill_id)) best.set(row.skill_id, boost({ ...row, startLine: row.start_line, endLine: row.end_line }));
      pool = [...pool, ...best.values()];
      for (const skill of best.keys()) answered.add(skill);
    }
    pool.sort((a, b) => a.rank - b.rank || a.id - b.id);
    const standIn = new Map(pool.filter((row) => row.about === 1 && answered.has(row.skill_id)).map((row) => [row.skill_id, row.rank]));
    const taken = new Set<number>();
    const placed = pool
      .filter((row) => row.about !== 1 || !answered.has(row.skill_id))
      .map((row) => {
        const rank = standIn.get(row.skill_id);
        if (rank === undefined || taken.has(row.skill_id)) return row;
        taken.add(row.skill_id);
        return { ...row, rank: Math.min(row.rank, rank) };
      })
      .sort((a, b) => a.rank - b.rank || a.id - b.id);
    return { rows: placed, stoodIn: pool.length > rows.length };
  }

  /** Each kept row's heading and snippet with the query's words marked: by FTS5 from the word indexes, here for the pair index. */
  private marks(
    match: CatalogMatch,
    unspaced: UnspacedMatch | null,
    ids: readonly number[],
    scoped: boolean,
  ): { id: number; snippet: string; title: string }[] {
    const json = JSON.stringify(ids);
    if (unspaced === null)
      return this.store.statement(catalogMarkSql(match, scoped)).all({ mark: catalogMarkExpression(match), ids: json }) as {
        id: number;
        snippet: string;
        title: string;
      }[];
    const { pieces } = unspaced;
    const rows = this.store.statement('SELECT id, section, content, about FROM catalog_rows WHERE id IN (SELECT value FROM json_each(?))').all(json) as {
      id: number;
      section: string;
      content: string;
      about: string | null;
    }[];
    return rows.map((row) => ({ id: row.id, title: markPieces(row.section, pieces), snippet: unspacedSnippet(row.about ?? row.content, pieces) }));
  }

  /**
   * What the person probably meant when `query` found nothing (in `skill` when given): each word
   * that is in no skill replaced by the indexed word closest to it (a typo or two away, the more
   * common first), or null when no such query finds anything either. Words come from the unstemmed
   * index (built first if a bulk sync left it unbuilt), so a suggestion is a word as written.
   */
  suggest(query: string, options: { skill?: string } = {}): string | null {
    if (hasUnspacedRun(query)) return null;
    try {
      this.writer.wordsIndex();
      this.store.db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.catalog_vocab USING fts5vocab(main, 'catalog_words', 'row')");
      const known = this.store.statement('SELECT 1 FROM temp.catalog_vocab WHERE term = ?').pluck();
      const starting = this.store.statement('SELECT term, doc FROM temp.catalog_vocab WHERE term >= ? AND term < ?');
      let changed = false;
      const words = queryTokens(query).map((token) => {
        const word = token.toLowerCase();
        // Only plain words: one with punctuation is several to the tokenizer, and a common word is never what went wrong.
        if (!/^[\p{L}\p{N}]{3,}$/u.test(word) || isStopword(word) || known.get(word) !== undefined) return token;
        const closest = closestWord(word, (first) => starting.all(first, `${first}\u{10FFFF}`) as { term: string; doc: number }[]);
        if (closest === null) return token;
        changed = true;
        return closest;
      });
      if (!changed) return null;
      const corrected = words.join(' ');
      return this.search(corrected, { limit: 1, ...(options.skill === undefined ? {} : { skill: options.skill }) }).results.length > 0 ? corrected : null;
    } catch (error) {
      // A suggestion is a courtesy: a catalog that cannot build its word index (read-only, damaged) just makes none.
      if (isCorruption(error) || diskFault(error, this.store.path) !== 'other') return null;
      throw error;
    }
  }
}
