/**
 * RFC-0003 usage analytics over a skill's access log: the query types summary, sections, files,
 * commands, projects, errors and search, after the `--since`/`--until`/`--project` filters, in
 * the RFC's response schema. A missing log is an empty result, not an error.
 */
import { existsSync } from 'node:fs';
import { sep } from 'node:path';
import Database from 'better-sqlite3';
import { toSkilltrayError } from '../../shared/skilltray-error.js';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import { canonicalPath } from '../files/paths.js';
import { compareBytewise } from '../files/paths.js';
import { accessLogPath } from './access-log.js';
import { parseTimestamp, utcSeconds } from '../timestamps.js';
import { STATS_QUERY_TYPES, type StatsQueryType, type StatsData, type StatsResult } from '../../shared/gateway.js';

export interface StatsOptions {
  /** Query type (`--group-by`); E030 when unknown. */
  groupBy?: string;
  /** RFC 3339 or `YYYY-MM-DD` (start of day, UTC); E031 when malformed. */
  since?: string;
  until?: string;
  /** Project directories; an access counts when its cwd is one of them or below (OR). */
  projects?: readonly string[];
  nativeBinding?: string;
}

interface LogRow {
  timestamp: string;
  command: string;
  cwd: string;
  args: string;
  error: string | null;
}

interface ParsedRow extends Omit<LogRow, 'args'> {
  args: Record<string, unknown>;
}

function isQueryType(value: string): value is StatsQueryType {
  return (STATS_QUERY_TYPES as readonly string[]).includes(value);
}

/** The filter bound as an instant, echoed back in the response's `filters`. */
function parseBound(name: 'since' | 'until', text: string | undefined): number | null {
  if (text === undefined) return null;
  const ms = parseTimestamp(text);
  if (ms === null) throw skillcErrors.invalidFilter(`--${name} expects RFC 3339 or YYYY-MM-DD, got ${text}`);
  return ms;
}

function echoInstant(ms: number | null): string | null {
  if (ms === null) return null;
  return ms % 1000 === 0 ? utcSeconds(new Date(ms)) : new Date(ms).toISOString();
}

function parseProjects(projects: readonly string[]): string[] {
  return projects.map((project) => {
    if (project === '' || project.includes('\0')) throw skillcErrors.invalidFilter(`--project expects a path, got '${project}'`);
    return canonicalPath(project);
  });
}

function underAny(cwd: string, projects: readonly string[]): boolean {
  return projects.some((project) => cwd === project || cwd.startsWith(project.endsWith(sep) ? project : `${project}${sep}`));
}

function parseArgs(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** Reads the rows of `skillPath` inside the time bounds (seconds granularity, inclusive). */
function readRows(path: string, skillPath: string, since: number | null, until: number | null, nativeBinding: string | undefined): LogRow[] {
  if (!existsSync(path)) return [];
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true, ...(nativeBinding === undefined ? {} : { nativeBinding }) });
    const clauses = ['skill_path = ?'];
    const params: string[] = [skillPath];
    // Logged timestamps are whole seconds: round a fractional bound inwards.
    if (since !== null) {
      clauses.push('timestamp >= ?');
      params.push(utcSeconds(new Date(Math.ceil(since / 1000) * 1000)));
    }
    if (until !== null) {
      clauses.push('timestamp <= ?');
      params.push(utcSeconds(new Date(Math.floor(until / 1000) * 1000)));
    }
    return db.prepare(`SELECT timestamp, command, cwd, args, error FROM access_log WHERE ${clauses.join(' AND ')} ORDER BY id`).all(...params) as LogRow[];
  } catch (error) {
    // A database without the table holds no logs yet; anything else is an internal failure.
    if (/no such table/i.test((error as Error).message)) return [];
    throw toSkilltrayError(error);
  } finally {
    db?.close();
  }
}

/** Counts of `keys`, most frequent first, ties by `order`. */
function tally<T>(items: readonly T[], key: (item: T) => string, order: (a: T, b: T) => number): { item: T; count: number }[] {
  const groups = new Map<string, { item: T; count: number }>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group === undefined) groups.set(k, { item, count: 1 });
    else group.count++;
  }
  return [...groups.values()].sort((a, b) => b.count - a.count || order(a.item, b.item));
}

/** Files a successful show or open accessed. */
function accessedFiles(rows: readonly ParsedRow[]): string[] {
  const files: string[] = [];
  for (const row of rows) {
    if (row.error !== null) continue;
    const file = row.command === 'show' ? str(row.args.file) : row.command === 'open' ? str(row.args.path) : null;
    if (file !== null) files.push(file);
  }
  return files;
}

/** Sections a successful show returned. */
function accessedSections(rows: readonly ParsedRow[]): { section: string; file: string }[] {
  const sections: { section: string; file: string }[] = [];
  for (const row of rows) {
    const section = str(row.args.section);
    if (row.command === 'show' && row.error === null && section !== null) sections.push({ section, file: str(row.args.file) ?? '' });
  }
  return sections;
}

function aggregate(type: StatsQueryType, rows: readonly ParsedRow[], skill: string): StatsData[StatsQueryType] {
  switch (type) {
    case 'summary': {
      const sections = accessedSections(rows);
      return {
        total_accesses: rows.length,
        unique_sections: new Set(sections.map((s) => `${s.file}\0${s.section}`)).size,
        unique_files: new Set(accessedFiles(rows)).size,
        error_count: rows.filter((row) => row.error !== null).length,
      };
    }
    case 'sections':
      return tally(
        accessedSections(rows),
        (s) => `${s.file}\0${s.section}`,
        (a, b) => compareBytewise(a.file, b.file) || compareBytewise(a.section, b.section),
      ).map(({ item, count }) => ({ section: item.section, file: item.file, count }));
    case 'files':
      return tally(accessedFiles(rows), (f) => f, compareBytewise).map(({ item, count }) => ({ file: item, count }));
    case 'commands':
      return Object.fromEntries(
        tally(
          rows.map((row) => row.command),
          (c) => c,
          compareBytewise,
        ).map(({ item, count }) => [item, count]),
      );
    case 'projects':
      return tally(
        rows.map((row) => row.cwd),
        (p) => p,
        compareBytewise,
      ).map(({ item, count }) => ({ project: item, count }));
    case 'errors': {
      const failures = rows
        .filter((row) => row.error !== null)
        .map((row) => ({
          target: str(row.args.section) ?? str(row.args.path) ?? str(row.args.query) ?? str(row.args.dir) ?? skill,
          command: row.command,
          error: row.error as string,
        }));
      return tally(
        failures,
        (f) => `${f.target}\0${f.command}\0${f.error}`,
        (a, b) => compareBytewise(a.command, b.command) || compareBytewise(a.target, b.target) || compareBytewise(a.error, b.error),
      ).map(({ item, count }) => ({ ...item, count }));
    }
    case 'search': {
      const queries = rows.flatMap((row) => (row.command === 'search' && str(row.args.query) !== null ? [str(row.args.query) as string] : []));
      return tally(queries, (q) => q, compareBytewise).map(({ item, count }) => ({ query: item, count }));
    }
  }
}

/** Usage analytics of the skill `name` at canonical `skillPath`, from the log in `runtimeDir`. */
export function skillStats(skill: { name: string; dir: string }, runtimeDir: string, options: StatsOptions = {}): StatsResult {
  const query = options.groupBy ?? 'summary';
  if (!isQueryType(query)) throw skillcErrors.invalidQueryType(query);
  const since = parseBound('since', options.since);
  const until = parseBound('until', options.until);
  const projects = parseProjects(options.projects ?? []);
  const skillPath = canonicalPath(skill.dir);
  const rows = readRows(accessLogPath(runtimeDir), skillPath, since, until, options.nativeBinding)
    .filter((row) => projects.length === 0 || underAny(row.cwd, projects))
    .map((row) => ({ ...row, args: parseArgs(row.args) }));
  const timestamps = rows.map((row) => row.timestamp).sort(compareBytewise);
  return {
    skill: skill.name,
    skill_path: skillPath,
    query,
    filters: { since: echoInstant(since), until: echoInstant(until), projects },
    period: { start: timestamps[0] ?? null, end: timestamps[timestamps.length - 1] ?? null },
    data: aggregate(query, rows, skill.name),
  };
}
