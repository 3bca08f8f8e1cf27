/**
 * RFC-0002:C-OUTLINE: the headings of every `.md` file of a skill, files in bytewise order of
 * their relative path, headings in file order. Reads the sources, not the index, one file at a
 * time: a caller that writes each file's headings as they come (the CLI) holds one file, not the skill.
 */
import { headingsOf } from '../markdown/blocks.js';
import { markdownBody } from '../markdown/frontmatter.js';
import { listSkillFiles } from '../skills/walk.js';
import { readText } from '../files/text.js';
import { checkIntegerOption } from '../options.js';
import { isMarkdownFile } from '../markdown/sections.js';
import type { OutlineHeading, OutlineResult } from '../../shared/gateway.js';

export interface OutlineOptions {
  /** Deepest heading level to include, 1–6 (default: all). */
  level?: number;
}

function* eachFile(dir: string, maxLevel: number): Generator<OutlineHeading[]> {
  for (const file of listSkillFiles(dir).files) {
    if (!isMarkdownFile(file.rel)) continue;
    let text: string;
    try {
      text = readText(file.abs);
    } catch {
      continue;
    }
    const headings: OutlineHeading[] = [];
    // The same headings markdownSections finds (frontmatter skipped), without the section extents outline has no use for.
    const { body, bodyLine } = markdownBody(text);
    for (const heading of headingsOf(body, bodyLine)) {
      if (heading.level <= maxLevel) headings.push({ file: file.rel, level: heading.level, text: heading.text, line: heading.line });
    }
    if (headings.length > 0) yield headings;
  }
}

/** The headings of `dir`'s Markdown files down to `level`, one file's worth at a time (options checked at once). */
export function outlineFiles(dir: string, options: OutlineOptions = {}): Generator<OutlineHeading[]> {
  checkIntegerOption('level', options.level, 1, 6);
  return eachFile(dir, options.level ?? 6);
}

/** Lists the headings of every Markdown file under `dir`, down to `level`. */
export function outlineSkill(dir: string, options: OutlineOptions = {}): OutlineResult {
  const headings: OutlineHeading[] = [];
  for (const file of outlineFiles(dir, options)) headings.push(...file);
  return { headings };
}
