/**
 * A skill's tool names from its SKILL.md's headings alone, for answers that must be quick (shell
 * completion): an H3 with a `#### Command` or `#### Parameters` under it is a tool, the loader's
 * rule (tools.ts). Only where the line scan places every heading as marked does; otherwise null,
 * and the caller loads the skill.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { markdownBody } from '../markdown/frontmatter.js';
import { scanHeadings } from '../markdown/heading-scan.js';

/** The tool names of the skill in `dir`, in order, or null when its headings need marked (or it cannot be read). */
export function toolNamesAt(dir: string): string[] | null {
  let text: string;
  try {
    text = readFileSync(join(dir, 'SKILL.md'), 'utf8').replace(/\r\n?/g, '\n');
  } catch {
    return null;
  }
  const { body, bodyLine } = markdownBody(text);
  const headings = scanHeadings(body, bodyLine);
  if (headings === null) return null;
  const names: string[] = [];
  let current: string | null = null;
  for (const heading of headings) {
    if (heading.level <= 3) current = heading.level === 3 ? heading.text.trim() : null;
    else if (heading.level === 4 && current !== null && /^(?:command|parameters)$/i.test(heading.text.trim())) {
      names.push(current);
      current = null;
    }
  }
  return names;
}
