/** Results of the gateway, search and analytics operations (RFC-0002/0003/0004/0007), as every surface sees them. */
import type { ErrorShape } from './errors.js';

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
}

export type TokenizerName = 'porter' | 'unicode61';

export interface SearchHit {
  file: string;
  section: string;
  snippet: string;
  score: number;
}

export interface SearchResult {
  /** The query as the user gave it. */
  query: string;
  results: SearchHit[];
}

/**
 * One hit of the search over every skill: `snippet` is plain text on one line, the query's words
 * marked `[MATCH]…[/MATCH]`; a section whose parent or subsections also matched stands for them.
 */
export interface CatalogHit extends SearchHit {
  skill: string;
  /** The section's heading with the query's words marked ('' for text before a file's first heading). */
  title: string;
  /** The headings the section sits under, outermost first. */
  trail: string[];
  /** The tool this section documents (its heading or a subsection of it), or null. */
  tool: string | null;
  /** Line of the section's heading (1 for text before the first heading). */
  line: number;
}

export interface CatalogResult {
  query: string;
  results: CatalogHit[];
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
