/** Results of the gateway, search and analytics operations (RFC-0002/0003/0004/0007), as every surface sees them. */
import type { ErrorShape } from './errors.js';
import type { ParamType } from './model.js';

export interface OutlineHeading {
  /** Path relative to the skill root, `/`-separated. */
  file: string;
  level: number;
  text: string;
  /** 1-based line of the heading in its file. */
  line: number;
}

export interface OutlineResult {
  headings: OutlineHeading[];
}

export interface ShowResult {
  file: string;
  /** The matched heading's text. */
  section: string;
  level: number;
  start_line: number;
  end_line: number;
  /** The section's lines (heading first, trailing blank lines dropped), cut at `--max-lines`. */
  content: string;
  /** Lines `--max-lines` cut off (0 when nothing was cut). */
  more_lines: number;
  /** How many headings matched; the first one is shown. */
  matches: number;
  /** `warning: multiple matches for "<heading>"; showing first` for stderr, or null. */
  warning: string | null;
}

export interface OpenResult {
  /** Path relative to the skill root, `/`-separated. */
  file: string;
  /** `utf-8`: `content` is the text; `base64`: `content` is the bytes in base64. */
  encoding: 'utf-8' | 'base64';
  content: string;
  /** Size of the whole file in bytes. */
  size: number;
  /** Lines `--max-lines` cut off (0 when nothing was cut). */
  more_lines: number;
}

export interface SourceEntry {
  /** Path relative to the skill root, `/`-separated. */
  path: string;
  name: string;
  type: 'dir' | 'file';
  /** 1 for the listing root's children. */
  depth: number;
  /** Whether this is the last entry of its directory (in the full, uncut listing). */
  last: boolean;
  /** Files under a directory `--depth` did not expand (absent otherwise). */
  files?: number;
}

export interface SourcesResult {
  skill: string;
  /** The tree's first line: `<skill>/`, or `<skill>/<dir>/` when scoped. */
  root: string;
  dir: string | null;
  pattern: string | null;
  entries: SourceEntry[];
  /** Entries in the uncut listing. */
  total: number;
  /** Entries `--limit` cut off. */
  more: number;
  /** Depth at which the cut-off entries would have continued (null when nothing was cut). */
  more_depth: number | null;
  /**
   * The files a skill may hold (MAX_SKILL_FILES) when it holds more: the walk stopped there, so
   * files past it are in no listing, count or total, and the listing says so; else null.
   */
  files_cap: number | null;
}

export type TokenizerName = 'porter' | 'unicode61';

/** A hit of one skill's own index, exactly as RFC-0004 gives it (`search --strict`): a Markdown snippet, the negated BM25. */
export interface IndexHit {
  file: string;
  section: string;
  snippet: string;
  score: number;
}

/** RFC-0004's search result (`search --strict`). */
export interface IndexSearchResult {
  /** The query as the user gave it. */
  query: string;
  results: IndexHit[];
}

/** What running a tool takes, as a search hit shows it. */
export interface ToolBrief {
  name: string;
  /** The first sentence of its description, as plain text. */
  summary: string;
  /** Its parameters in the order of its Parameters table. */
  params: { name: string; type: ParamType; required: boolean; default: string | null }[];
}

/**
 * One search hit, the same on every surface and for one skill or all of them. A hit on a tool (its
 * section, or one it holds) is the tool, and tool hits come first; any other hit is a section,
 * titled by the heading it sits under and its own (`Writing a skill › 3. Add tools`). Text is plain:
 * Markdown syntax stripped, code kept as text, the query's words marked `[MATCH]…[/MATCH]`.
 */
export interface SearchHit {
  kind: 'tool' | 'section';
  skill: string;
  file: string;
  /** The heading the hit opens ('' for a file without headings); a tool hit opens its tool's heading. */
  section: string;
  /** What the hit is called: the tool's name, or the enclosing heading and the section's (marked); a file's path when it has no heading. */
  title: string;
  /** The headings the section sits under, outermost first. */
  trail: string[];
  /** The tool, for a tool hit. */
  tool: ToolBrief | null;
  /** Line of the heading the hit opens (1 for a file without headings). */
  line: number;
  /** The text around the match on one line, about 24 words, `…` where cut. */
  snippet: string;
  /** How strongly it matches, from 0 to 1: the strongest hit of the answer is 1. */
  score: number;
  /** Its place in the answer, from 1. */
  rank: number;
  /** The codes of its skill's errors: such a skill will not run (its tools cannot be called) and its hits come last. Empty for a skill that runs. */
  errors: string[];
}

export interface SearchResult {
  /** The query as the user gave it. */
  query: string;
  /**
   * `all`: every hit holds every word of the query (common words such as "the" or "my" left out
   * when others remain); `any`: some hits hold only some of them (nothing held them all, or the
   * query has three or more such words and is ranked on all of them), best first.
   */
  matched: 'all' | 'any';
  results: SearchHit[];
  /** The one skill searched, or null when every skill was. */
  skill: string | null;
  /** When nothing matched: what to tell the person (`no results for "xyzzy"`, naming the skill searched), else null. */
  message: string | null;
  /** When nothing matched: the query with each word found in no skill replaced by the closest indexed word, when that query finds something; else null. */
  did_you_mean: string | null;
}

export interface BuildResult {
  status: 'created' | 'rebuilt' | 'up-to-date';
  /** What made a rebuild necessary. */
  reason: 'corrupt' | 'stale' | null;
  path: string;
  hash16: string;
  source_hash: string;
  tokenizer: TokenizerName;
  /** Rows written (zero when up to date). */
  files: number;
  sections: number;
  headings: number;
}

/** Query types in RFC-0003 order; `summary` is the default. */
export const STATS_QUERY_TYPES = ['summary', 'sections', 'files', 'commands', 'projects', 'errors', 'search'] as const;

export type StatsQueryType = (typeof STATS_QUERY_TYPES)[number];

export interface StatsSummary {
  total_accesses: number;
  unique_sections: number;
  unique_files: number;
  error_count: number;
}

export interface StatsData {
  summary: StatsSummary;
  sections: { section: string; file: string; count: number }[];
  files: { file: string; count: number }[];
  commands: Record<string, number>;
  projects: { project: string; count: number }[];
  errors: { target: string; command: string; error: string; count: number }[];
  search: { query: string; count: number }[];
}

export interface StatsResult<Q extends StatsQueryType = StatsQueryType> {
  skill: string;
  skill_path: string;
  query: Q;
  filters: { since: string | null; until: string | null; projects: string[] };
  period: { start: string | null; end: string | null };
  data: StatsData[Q];
}

export interface SyncedSkill {
  skill: string;
  /** The fallback log database. */
  source: string;
  /** The primary log database. */
  destination: string;
  /** Rows copied, or that a dry run would copy. */
  entries: number;
  status: 'synced' | 'would_sync' | 'failed';
  error: ErrorShape | null;
}

export interface SyncResult {
  project: string;
  dry_run: boolean;
  skills: SyncedSkill[];
}
