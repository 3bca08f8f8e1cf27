/** What one skill contributes to the all-skills catalog: its sections as plain text, placed in their files. */
import type { SkillFile } from '../skills/walk.js';
import { headingTrails, holds, toolOf } from './catalog-hits.js';
import { skillDocuments, type SectionRow } from './documents.js';
import { plainText } from './plain-text.js';
import type { CatalogTool } from './tool-text.js';

/** One catalog row as stored: `content` is the section's text as plain text, without its own heading line (the title has it). */
export interface CatalogRow extends SectionRow {
  trail: string;
  tool: string | null;
}

/** Lines [first, last] of a file, 1-based and inclusive. */
type LineRange = readonly [first: number, last: number];

/**
 * A SKILL.md section's text as a search reads it: the tools it holds left out (each is a row, and a
 * hit, of its own, so "Tools" cannot match words spread over five tools), and each tool's Command
 * replaced by its caller-facing words, so the fixed flags a skill adds for safety neither match a
 * query nor fill a snippet.
 */
function skillMdText(row: SectionRow, heldTools: readonly LineRange[], tools: readonly CatalogTool[]): string {
  const commands = new Map(tools.flatMap((tool) => (tool.commandLines === null ? [] : [[tool.commandLines[0], tool] as const])));
  const lines: string[] = [];
  row.content.split('\n').forEach((text, i) => {
    const line = row.startLine + i;
    if (heldTools.some(([first, last]) => line >= first && line <= last)) return;
    const command = tools.find((tool) => tool.commandLines !== null && line > tool.commandLines[0] && line <= tool.commandLines[1]);
    if (command !== undefined) return;
    lines.push(commands.get(line)?.commandWords ?? text);
  });
  return lines.join('\n');
}

/** A skill's rows (its walk's files): their sections as plain text, each with the headings it sits under and its tool. */
export function catalogRows(files: readonly SkillFile[], tools: readonly CatalogTool[]): CatalogRow[] {
  const names = new Set(tools.map((tool) => tool.name));
  const sections = skillDocuments(files).sections;
  const byFile = new Map<string, SectionRow[]>();
  for (const row of sections) {
    const rows = byFile.get(row.file);
    if (rows === undefined) byFile.set(row.file, [row]);
    else rows.push(row);
  }
  const rows: CatalogRow[] = [];
  for (const [file, fileRows] of byFile) {
    const placed = headingTrails(fileRows);
    const skillMd = file === 'SKILL.md';
    const toolSections = skillMd ? fileRows.filter((row) => row.level > 0 && names.has(row.section)) : [];
    fileRows.forEach((row, i) => {
      const heading = placed[i] as (typeof placed)[number];
      const place = { ...row, skill: '' };
      const held = toolSections.filter((t) => t !== row && holds(place, { ...t, skill: '' })).map((t): LineRange => [t.startLine, t.endLine - 1]);
      const text = skillMd ? skillMdText(row, held, tools) : row.content;
      // The heading line is the title; the text under it is what a snippet shows.
      const body = row.level > 0 ? text.split('\n').slice(1).join('\n') : text;
      rows.push({
        file,
        section: row.section,
        content: plainText(body),
        level: row.level,
        startLine: row.startLine,
        endLine: row.endLine,
        trail: JSON.stringify(heading.trail),
        tool: skillMd ? toolOf(heading, names) : null,
      });
    });
  }
  return rows;
}
