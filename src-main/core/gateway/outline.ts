/**
 * RFC-0002:C-OUTLINE: the headings of every `.md` file of a skill, files in bytewise order of
 * their relative path, headings in file order. Reads the sources, not the index.
 */
import { readText, walkSkill } from '../skills/files.js';
import { checkIntegerOption } from './options.js';
import { isMarkdownFile, markdownSections } from './sections.js';
import type { OutlineHeading, OutlineResult } from '../../shared/gateway.js';

export interface OutlineOptions {
  /** Deepest heading level to include, 1–6 (default: all). */
  level?: number;
}

/** Lists the headings of every Markdown file under `dir`, down to `level`. */
export function outlineSkill(dir: string, options: OutlineOptions = {}): OutlineResult {
  checkIntegerOption('level', options.level, 1, 6);
  const maxLevel = options.level ?? 6;
  const headings: OutlineHeading[] = [];
  for (const file of walkSkill(dir).files) {
    if (!isMarkdownFile(file.rel)) continue;
    let text: string;
    try {
      text = readText(file.abs);
    } catch {
      continue;
    }
    for (const section of markdownSections(text)) {
      if (section.level <= maxLevel) headings.push({ file: file.rel, level: section.level, text: section.text, line: section.startLine });
    }
  }
  return { headings };
}

/** RFC-0002 text form: each file on its own line, then its headings indented by level (H1 and H2 alike). */
export function formatOutline(result: OutlineResult): string {
  const lines: string[] = [];
  let current: string | null = null;
  for (const heading of result.headings) {
    if (heading.file !== current) {
      lines.push(heading.file);
      current = heading.file;
    }
    const indent = '  '.repeat(Math.max(1, heading.level - 1));
    lines.push(`${indent}${'#'.repeat(heading.level)} ${heading.text}`);
  }
  return lines.join('\n');
}
