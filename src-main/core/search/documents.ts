/**
 * What a skill contributes to a search index (RFC-0004:C-FORMATS): `.md` files one row per
 * section (nested sections included in their parent's row), `.txt` files one row with an empty
 * section, other files nothing. Every row can be fetched: a section by `show`, an empty section
 * (a whole file) by `open`. So, as in skillc, text before a file's first heading (frontmatter
 * included) is no row of its own; a `.md` without any heading is one row like a `.txt`, its
 * frontmatter left out.
 */
import type { SkillFile } from '../skills/files.js';
import { readText } from '../skills/files.js';
import { markdownBody } from '../markdown/frontmatter.js';
import { isMarkdownFile, isPlainTextFile, markdownSections, splitLines } from '../gateway/sections.js';

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

export interface SkillDocuments {
  sections: SectionRow[];
  headings: HeadingRow[];
  /** Files that produced rows. */
  files: number;
}

function markdownRows(file: string, text: string, out: SkillDocuments): void {
  const lines = splitLines(text);
  const sections = markdownSections(text);
  if (sections.length === 0) {
    const { body, bodyLine } = markdownBody(text);
    if (body.trim() !== '') out.sections.push({ file, section: '', content: body, level: 0, startLine: bodyLine, endLine: lines.length + 1 });
    return;
  }
  for (const section of sections) {
    out.sections.push({
      file,
      section: section.text,
      content: lines.slice(section.startLine - 1, section.endLine - 1).join('\n'),
      level: section.level,
      startLine: section.startLine,
      endLine: section.endLine,
    });
    out.headings.push({ file, text: section.text, level: section.level, startLine: section.startLine, endLine: section.endLine });
  }
}

/** Section and heading rows of the given files (a skill walk's files, in its order). */
export function skillDocuments(files: readonly SkillFile[]): SkillDocuments {
  const out: SkillDocuments = { sections: [], headings: [], files: 0 };
  for (const file of files) {
    const markdown = isMarkdownFile(file.rel);
    if (!markdown && !isPlainTextFile(file.rel)) continue;
    let text: string;
    try {
      text = readText(file.abs);
    } catch {
      continue;
    }
    out.files++;
    if (markdown) markdownRows(file.rel, text, out);
    else out.sections.push({ file: file.rel, section: '', content: text, level: 0, startLine: 1, endLine: splitLines(text).length + 1 });
  }
  return out;
}
