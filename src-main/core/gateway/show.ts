/**
 * RFC-0002:C-SHOW: one section of a skill, found through the search index's headings table
 * (E002 when the index is missing, corrupt or stale), matched case-insensitively: the trimmed query
 * as it is first, so every heading is reachable by its own text (` — ` included); then the query
 * cut at ` — ` as the RFC says (a stub line's description); then the headings cut there too. Read
 * from the source file by the indexed line range.
 */
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import { prepared } from '../store/statement-cache.js';
import { readIndex, type OpenIndex } from '../search/skill-index.js';
import { readText } from '../files/text.js';
import { checkIntegerOption } from '../options.js';
import { resolveInsideRoot } from './paths.js';
import { sectionLines, splitLines, trimTrailingBlankLines } from '../markdown/sections.js';
import type { ShowResult } from '../../shared/gateway.js';
import { oneLine, plainInline } from '../search/plain-text.js';

export interface ShowOptions {
  /** The heading to show, as typed (a stub line with ` — description` works too). */
  section: string;
  /** Only consider headings of this file (relative to the skill root). */
  file?: string;
  maxLines?: number;
}

interface HeadingRecord {
  file: string;
  text: string;
  level: number;
  start_line: number;
  end_line: number;
}

/** Most suggestions an E020 carries. */
export const MAX_SUGGESTIONS = 5;

/** Query normalisation: trim, then keep only what precedes ` — ` (a stub line's description). */
export function normaliseSectionQuery(query: string): string {
  const trimmed = query.trim();
  const dash = trimmed.indexOf(' — ');
  return dash === -1 ? trimmed : trimmed.slice(0, dash).trim();
}

/** Case folding for heading matches (Unicode-aware, canonical composition). */
function fold(text: string): string {
  return text.normalize('NFC').toLowerCase();
}

/** The few character references a heading holds in practice, as a reader sees them (a Map: `&constructor;` is no reference). */
const ENTITIES: ReadonlyMap<string, string> = new Map(Object.entries({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }));

/**
 * A heading as a reader sees it: inline code, emphasis, escapes and links as their text, character
 * references decoded (`Using \`git log\`` reads "Using git log", `[the docs](url)` reads "the docs").
 */
export function readerText(heading: string): string {
  const decoded = plainInline(heading).replace(/&(#\d+|#x[\da-f]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] !== '#') return ENTITIES.get(name.toLowerCase()) ?? whole;
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
  return oneLine(decoded);
}

/** `./a/b.md` and `a//b.md` name the same indexed file as `a/b.md`. */
function normaliseFileFilter(file: string): string {
  const parts = file
    .replace(/\\/g, '/')
    .split('/')
    .filter((part) => part !== '' && part !== '.');
  return parts.join('/');
}

/** Headings whose text starts with, then merely contains, the query (case-insensitive), as written or as a reader sees it. */
function suggestionsFor(query: string, headings: readonly HeadingRecord[]): { text: string; file: string }[] {
  const folded = fold(query);
  const plain = fold(readerText(query));
  const forms = (h: HeadingRecord): string[] => [fold(h.text), fold(readerText(h.text))];
  const prefix = headings.filter((h) => forms(h).some((form) => form.startsWith(folded) || form.startsWith(plain)));
  const substring = headings.filter((h) => !prefix.includes(h) && forms(h).some((form) => form.includes(folded) || form.includes(plain)));
  return [...prefix, ...substring].slice(0, MAX_SUGGESTIONS).map((h) => ({ text: h.text, file: h.file }));
}

/**
 * Headings the query names, and the query as it matched: exact, else the RFC's cut query, else both
 * sides cut (all case-insensitive); then the same as a reader sees them, so a heading with inline
 * code, emphasis, an escape or a link is found by the words it shows.
 */
function matchingHeadings(section: string, headings: readonly HeadingRecord[]): { matches: HeadingRecord[]; matched: string } {
  const trimmed = section.trim();
  const normalised = normaliseSectionQuery(section);
  const tiers: [string, (h: HeadingRecord) => string][] = [
    [trimmed, (h) => h.text.trim()],
    [normalised, (h) => h.text.trim()],
    [normalised, (h) => normaliseSectionQuery(h.text)],
    [readerText(trimmed), (h) => readerText(h.text)],
    [readerText(normalised), (h) => readerText(normaliseSectionQuery(h.text))],
  ];
  for (const [query, heading] of tiers) {
    const matches = headings.filter((h) => fold(heading(h)) === fold(query));
    if (matches.length > 0) return { matches, matched: query };
  }
  return { matches: [], matched: normalised };
}

/** A `show` checked and ready to run (option errors come before any index is opened). */
export interface SectionQuery {
  /** The section as given. */
  section: string;
  /** As the RFC normalises it (trimmed, cut at ` — `). */
  query: string;
  /** The `--file` filter, normalised, or null. */
  file: string | null;
  maxLines?: number;
}

/** Checks a show's options: E100 for a bad --max-lines or an empty --section. */
export function sectionQuery(options: { section: string; file?: string; maxLines?: number }): SectionQuery {
  checkIntegerOption('max-lines', options.maxLines, 1);
  const query = normaliseSectionQuery(options.section);
  if (query === '') throw skillcErrors.invalidOption('--section must not be empty');
  return {
    section: options.section,
    query,
    file: options.file === undefined ? null : normaliseFileFilter(options.file),
    ...(options.maxLines === undefined ? {} : { maxLines: options.maxLines }),
  };
}

/** Finds a section through an open index and reads it from the source file; `skill` names it in an E002. */
export function showInIndex(index: OpenIndex, skill: string, show: SectionQuery): ShowResult {
  const { query } = show;
  let headings = readIndex(
    index,
    skill,
    (db) => prepared(db, 'SELECT file, text, level, start_line, end_line FROM headings ORDER BY file, start_line, id').all() as HeadingRecord[],
  );
  if (show.file !== null) headings = headings.filter((h) => h.file === show.file);
  const { matches, matched } = matchingHeadings(show.section, headings);
  const first = matches[0];
  if (first === undefined) throw skillcErrors.sectionNotFound(query, suggestionsFor(query, headings));
  // The index names the file; it is still checked against the root before anything is read.
  const target = resolveInsideRoot(index.location.skillPath, first.file);
  if (!target.exists) throw skillcErrors.indexUnusable(skill, 'stale');
  const lines = sectionLines(splitLines(readText(target.abs)), first.start_line, first.end_line);
  // `... (N more lines)` counts the whole indexed range, as skillc does; uncut, the gap before the next heading is not shown.
  const cut = show.maxLines !== undefined && show.maxLines < lines.length;
  const shown = cut ? lines.slice(0, show.maxLines) : trimTrailingBlankLines(lines);
  return {
    file: first.file,
    section: first.text,
    level: first.level,
    start_line: first.start_line,
    end_line: first.end_line,
    content: shown.join('\n'),
    more_lines: cut ? lines.length - shown.length : 0,
    matches: matches.length,
    warning: matches.length > 1 ? `warning: multiple matches for "${matched}"; showing first` : null,
  };
}
