/** What one skill contributes to the all-skills catalog: its sections as plain text, placed in their files. */
import { walkSkill } from '../skills/files.js';
import { headingTrails, toolOf } from './catalog-hits.js';
import { skillDocuments, type SectionRow } from './documents.js';
import { plainText } from './plain-text.js';

/** One catalog row as stored: `content` is the section's text as plain text, without its own heading line (the title has it). */
export interface CatalogRow extends SectionRow {
  trail: string;
  tool: string | null;
}

/** A skill's rows: its files' sections as plain text, each with the headings it sits under and its tool. */
export function catalogRows(dir: string, tools: ReadonlySet<string>): CatalogRow[] {
  const sections = skillDocuments(walkSkill(dir).files).sections;
  const byFile = new Map<string, SectionRow[]>();
  for (const row of sections) {
    const rows = byFile.get(row.file);
    if (rows === undefined) byFile.set(row.file, [row]);
    else rows.push(row);
  }
  const rows: CatalogRow[] = [];
  for (const [file, fileRows] of byFile) {
    const placed = headingTrails(fileRows);
    fileRows.forEach((row, i) => {
      const heading = placed[i] as (typeof placed)[number];
      // The heading line is the title; the text under it is what a snippet shows.
      const body = row.level > 0 ? row.content.split('\n').slice(1).join('\n') : row.content;
      rows.push({
        file,
        section: row.section,
        content: plainText(body),
        level: row.level,
        startLine: row.startLine,
        endLine: row.endLine,
        trail: JSON.stringify(heading.trail),
        tool: file === 'SKILL.md' ? toolOf(heading, tools) : null,
      });
    });
  }
  return rows;
}
