/**
 * What a skill contributes to a search index (RFC-0004:C-FORMATS): `.md` files one row per
 * section (nested sections included in their parent's row), `.txt` files one row with an empty
 * section, other files nothing. Text before a file's first heading (frontmatter included) is a
 * row with an empty section when it holds anything but whitespace.
 */
import type { SkillFile } from '../skills/files.js';
import { readText } from '../skills/files.js';
import { isMarkdownFile, isPlainTextFile, markdownSections, splitLines } from '../gateway/sections.js';

export interface SectionRow {
  file: string;
  section: string;
  content: string;
  /** Heading level (1–6); 0 for text before the first heading and for plain-text files. */
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
  const firstHeading = sections[0]?.startLine ?? lines.length + 1;
  const preamble = lines.slice(0, firstHeading - 1).join('\n');
  if (preamble.trim() !== '') out.sections.push({ file, section: '', content: preamble, level: 0, startLine: 1, endLine: firstHeading });
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
