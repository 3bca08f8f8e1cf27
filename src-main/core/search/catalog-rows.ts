/** What one skill contributes to the all-skills catalog: its sections as plain text, placed in their files. */
import type { ParallelJob } from '../parallel.js';
import type { SkillFile } from '../skills/walk.js';
import { headingTrails, holds, toolOf } from './catalog-hits.js';
import { skillDocuments, type SectionRow } from './documents.js';
import { oneLine, plainInline, plainText } from './plain-text.js';
import { catalogTools, type CatalogTool, type ToolCommands } from './tool-text.js';
import { hasUnspacedRun } from './unspaced-text.js';

/** One catalog row as stored: `content` is the section's text as plain text, without its own heading line (the title has it). */
export interface CatalogRow extends SectionRow {
  trail: string;
  tool: string | null;
  /** The skill's description, on its one row that holds it (its `content` is then empty); null on every other row. */
  about: string | null;
  /** Whether the row holds a run of a script written without spaces (indexed in pairs too: unspaced-text.ts). */
  unspaced: boolean;
}

/** Lines [first, last] of a file, 1-based and inclusive. */
type LineRange = readonly [first: number, last: number];

/** Where the tools' Commands sit in SKILL.md: the line each starts on, with its caller-facing words, and every line of each. */
interface CommandLines {
  words: ReadonlyMap<number, string>;
  ranges: readonly LineRange[];
}

function commandLinesOf(tools: readonly CatalogTool[]): CommandLines {
  const words = new Map<number, string>();
  const ranges: LineRange[] = [];
  for (const tool of tools) {
    if (tool.commandLines === null) continue;
    words.set(tool.commandLines[0], tool.commandWords);
    ranges.push(tool.commandLines);
  }
  return { words, ranges };
}

/**
 * A SKILL.md section's text as a search reads it: the tools it holds left out (each is a row, and a
 * hit, of its own, so "Tools" cannot match words spread over five tools), and each tool's Command
 * replaced by its caller-facing words, so the fixed flags a skill adds for safety neither match a
 * query nor fill a snippet. A section that holds neither is its text as it is.
 */
function skillMdText(row: SectionRow, heldTools: readonly LineRange[], commands: CommandLines): string {
  // The section's lines are startLine up to endLine - 1.
  const meets = ([first, last]: LineRange): boolean => first < row.endLine && last >= row.startLine;
  if (!heldTools.some(meets) && !commands.ranges.some(meets)) return row.content;
  const lines: string[] = [];
  row.content.split('\n').forEach((text, i) => {
    const line = row.startLine + i;
    if (heldTools.some(([first, last]) => line >= first && line <= last)) return;
    if (commands.ranges.some(([first, last]) => line > first && line <= last)) return;
    lines.push(commands.words.get(line) ?? text);
  });
  return lines.join('\n');
}

/**
 * The row of a skill's description: what hosts trigger a skill on, and often the only place a word
 * such as "backoff" is written. It sits in SKILL.md's frontmatter, before the first heading, so it
 * is a hit on SKILL.md itself (level 0, line 1), like the text of a file without headings.
 */
export function descriptionRow(description: string): CatalogRow | null {
  const about = oneLine(plainInline(description));
  if (about === '') return null;
  return { file: 'SKILL.md', section: '', content: '', about, level: 0, startLine: 1, endLine: 2, trail: '[]', tool: null, unspaced: hasUnspacedRun(about) };
}

/** The first `count` lines of `text` (LF-separated), without the newline after the last. */
function firstLines(text: string, count: number): string {
  let end = -1;
  for (let i = 0; i < count; i++) {
    end = text.indexOf('\n', end + 1);
    if (end === -1) return text;
  }
  return text.slice(0, end);
}

/**
 * A skill's rows (its walk's files), its description's first: their sections as plain text, each
 * with the headings it sits under and its tool. A row holds its section's own text, up to the next
 * heading, not the sections inside it: a chapter's subsections are rows of their own, and a parent
 * that held them again would match every query its children match, only weaker, and hold the
 * skill's text two or three times over (the catalog's size and a first search's time, twice
 * over). A tool's row is the exception: it holds its whole tool (Parameters, Command, Examples),
 * which is one thing to find.
 */
export function catalogRows(files: readonly SkillFile[], tools: readonly CatalogTool[], description: string | null = null): CatalogRow[] {
  const names = new Set(tools.map((tool) => tool.name));
  const commands = commandLinesOf(tools);
  const sections = skillDocuments(files).sections;
  const byFile = new Map<string, SectionRow[]>();
  for (const row of sections) {
    const rows = byFile.get(row.file);
    if (rows === undefined) byFile.set(row.file, [row]);
    else rows.push(row);
  }
  const about = description === null ? null : descriptionRow(description);
  const rows: CatalogRow[] = about === null ? [] : [about];
  for (const [file, fileRows] of byFile) {
    const placed = headingTrails(fileRows);
    const memo = new Map<string, string | null>();
    const skillMd = file === 'SKILL.md';
    // Placed once per file, not once per pair of a row and a tool (a first search over 10,000 skills makes ~110,000 rows).
    const toolPlaces = skillMd ? fileRows.filter((row) => row.level > 0 && names.has(row.section)).map((row) => ({ ...row, skill: '' })) : [];
    fileRows.forEach((row, i) => {
      const heading = placed[i] as (typeof placed)[number];
      const next = fileRows[i + 1];
      const whole = next === undefined || row.level === 0 || (skillMd && names.has(row.section));
      const own = whole ? row : { ...row, content: firstLines(row.content, next.startLine - row.startLine), endLine: next.startLine };
      const place = { ...own, skill: '' };
      const held: LineRange[] = [];
      for (const tool of toolPlaces) if (holds(place, tool)) held.push([tool.startLine, tool.endLine - 1]);
      const text = skillMd ? skillMdText(own, held, commands) : own.content;
      // The heading line is the title; the text under it is what a snippet shows.
      const newline = text.indexOf('\n');
      const body = row.level === 0 ? text : newline === -1 ? '' : text.slice(newline + 1);
      const content = plainText(body, memo);
      rows.push({
        file,
        section: row.section,
        content,
        about: null,
        level: row.level,
        startLine: row.startLine,
        endLine: row.endLine,
        trail: JSON.stringify(heading.trail),
        tool: skillMd ? toolOf(heading, names) : null,
        unspaced: hasUnspacedRun(row.section) || hasUnspacedRun(content),
      });
    });
  }
  return rows;
}

/**
 * A skill's rows from its files and its tools' Commands (null: it has none), on a helper thread too:
 * a first search reads every skill's files into the catalog (core/parallel.ts), and reading its
 * Commands as callers see them is part of that work, not a step before it.
 */
export const catalogRowsJob: ParallelJob<CatalogRowsInput, CatalogRow[]> = {
  name: 'catalog-rows',
  run: ({ files, commands, description }) => catalogRows(files, commands === null ? [] : catalogTools(commands), description ?? null),
};

/** What catalogRowsJob reads a skill from: its files, its tools' Commands (null: none) and its description (null or absent: none). */
export interface CatalogRowsInput {
  files: readonly SkillFile[];
  commands: ToolCommands | null;
  description?: string | null;
}
