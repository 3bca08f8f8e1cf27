/**
 * What a skill contributes to a search index (RFC-0004:C-FORMATS): `.md` files one row per
 * section (nested sections included in their parent's row), `.txt` files one row with an empty
 * section, other files nothing. Every row can be fetched: a section by `show`, an empty section
 * (a whole file) by `open`. So, as in skillc, text before a file's first heading (frontmatter
 * included) is no row of its own; a `.md` without any heading is one row like a `.txt`, its
 * frontmatter left out. Rows are made one file at a time, so a build can insert them as it reads
 * and never holds the whole skill in memory.
 */
import type { SkillFile } from '../skills/walk.js';
import { readText } from '../files/text.js';
import { markdownBody } from '../markdown/frontmatter.js';
import { isMarkdownFile, isPlainTextFile, lineCount, markdownSections } from '../markdown/sections.js';

export interface SectionRow {
  file: string;
  section: string;
  content: string;
  /** Heading level (1–6); 0 for a whole file (a `.txt`, or a `.md` without headings). */
  level: number;
  /** The section's lines, 1-based: `startLine` (its heading) up to, not including, `endLine`. */
  startLine: number;
  endLine: number;
}

export interface HeadingRow {
  file: string;
  text: string;
  level: number;
  startLine: number;
  endLine: number;
}

/** The rows of one file. */
export interface FileRows {
  sections: SectionRow[];
  headings: HeadingRow[];
}

export interface SkillDocuments extends FileRows {
  /** Files that produced rows. */
  files: number;
}

/** True for the files an index reads (the others only count towards the source hash). */
export function isIndexedFile(rel: string): boolean {
  return isMarkdownFile(rel) || isPlainTextFile(rel);
}

function markdownRows(file: string, text: string): FileRows {
  const rows: FileRows = { sections: [], headings: [] };
  const sections = markdownSections(text);
  if (sections.length === 0) {
    const { body, bodyLine } = markdownBody(text);
    if (body.trim() !== '') rows.sections.push({ file, section: '', content: body, level: 0, startLine: bodyLine, endLine: lineCount(text) + 1 });
    return rows;
  }
  for (const section of sections) {
    // The section's text straight from its offsets: no per-section split and join of lines.
    rows.sections.push({
      file,
      section: section.text,
      content: text.slice(section.start, section.end),
      level: section.level,
      startLine: section.startLine,
      endLine: section.endLine,
    });
    rows.headings.push({ file, text: section.text, level: section.level, startLine: section.startLine, endLine: section.endLine });
  }
  return rows;
}

/** Section and heading rows of one indexed file's LF-normalised text (see isIndexedFile). */
export function fileRows(rel: string, text: string): FileRows {
  if (isMarkdownFile(rel)) return markdownRows(rel, text);
  return { sections: [{ file: rel, section: '', content: text, level: 0, startLine: 1, endLine: lineCount(text) + 1 }], headings: [] };
}

/** Section and heading rows of the given files (a skill walk's files, in its order). */
export function skillDocuments(files: readonly SkillFile[]): SkillDocuments {
  const out: SkillDocuments = { sections: [], headings: [], files: 0 };
  for (const file of files) {
    if (!isIndexedFile(file.rel)) continue;
    let text: string;
    try {
      text = readText(file.abs);
    } catch {
      continue;
    }
    out.files++;
    const rows = fileRows(file.rel, text);
    out.sections.push(...rows.sections);
    out.headings.push(...rows.headings);
  }
  return out;
}
