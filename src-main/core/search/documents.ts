/**
 * What a skill contributes to a search index (RFC-0004:C-FORMATS): `.md` files one row per
 * section (nested sections included in their parent's row), `.txt` files one row with an empty
 * section, other files nothing. Text before a file's first heading (frontmatter included) is a
 * row with an empty section when it holds anything but whitespace. Rows are made one file at a
 * time, so a build can insert them as it reads and never holds the whole skill in memory.
 */
import type { SkillFile } from '../skills/files.js';
import { readText } from '../skills/files.js';
import { isMarkdownFile, isPlainTextFile, markdownSections } from '../gateway/sections.js';

export interface SectionRow {
  file: string;
  section: string;
  content: string;
}

export interface HeadingRow {
  file: string;
  text: string;
  level: number;
  startLine: number;
  endLine: number;
}

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
  const first = sections[0];
  // Everything before the first heading, its final newline left out (as a section's is).
  const preamble = first === undefined ? text.slice(0, text.endsWith('\n') ? -1 : undefined) : text.slice(0, Math.max(0, first.start - 1));
  if (preamble.trim() !== '') rows.sections.push({ file, section: '', content: preamble });
  for (const section of sections) {
    rows.sections.push({ file, section: section.text, content: text.slice(section.start, section.end) });
    rows.headings.push({ file, text: section.text, level: section.level, startLine: section.startLine, endLine: section.endLine });
  }
  return rows;
}

/** Section and heading rows of one indexed file's LF-normalised text (see isIndexedFile). */
export function fileRows(rel: string, text: string): FileRows {
  return isMarkdownFile(rel) ? markdownRows(rel, text) : { sections: [{ file: rel, section: '', content: text }], headings: [] };
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
