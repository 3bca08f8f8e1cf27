/**
 * The `args` each command records in the access log. Stats reads them back: `section` and
 * `file` of show (the heading actually shown when it succeeded), `path` of open, `query` of
 * search, `dir` of sources.
 */
import type { OpenOptions } from './open.js';
import type { OpenResult, ShowResult } from '../../shared/gateway.js';
import type { OutlineOptions } from './outline.js';
import { normaliseSectionQuery, type ShowOptions } from './show.js';
import type { SourcesOptions } from './sources.js';

export type LogArgs = Record<string, unknown>;

/** Args per command; each takes the command's input and, when it succeeded, its result. */
export const logArgs = {
  outline: (options: OutlineOptions): LogArgs => ({ level: options.level ?? null }),
  show: (options: ShowOptions, result?: ShowResult): LogArgs => ({
    section: result?.section ?? normaliseSectionQuery(options.section),
    file: result?.file ?? options.file ?? null,
    max_lines: options.maxLines ?? null,
  }),
  open: (path: string, options: OpenOptions, result?: OpenResult): LogArgs => ({ path: result?.file ?? path, max_lines: options.maxLines ?? null }),
  sources: (options: SourcesOptions): LogArgs => ({
    depth: options.depth ?? null,
    dir: options.dir ?? null,
    limit: options.limit ?? null,
    pattern: options.pattern ?? null,
  }),
  /** RFC-0004:C-LOGGING: exactly `{query, result_count}`. */
  search: (query: string, result?: { results: readonly unknown[] }): LogArgs => ({ query, result_count: result?.results.length ?? 0 }),
  build: (): LogArgs => ({}),
  stats: (options: { groupBy?: string; since?: string; until?: string; projects?: readonly string[] }): LogArgs => ({
    group_by: options.groupBy ?? 'summary',
    since: options.since ?? null,
    until: options.until ?? null,
    projects: options.projects ?? [],
  }),
};
