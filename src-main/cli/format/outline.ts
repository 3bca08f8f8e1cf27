/** RFC-0002's text form of `outline`, as the CLI prints it. */
import type { OutlineHeading } from '../../shared/gateway.js';

/** What goes before a heading's text at each level (index 1–6): the indent, the `#`s and a space. */
const HEADING_PREFIX = Array.from({ length: 7 }, (_, level) => `${'  '.repeat(Math.max(1, level - 1))}${'#'.repeat(level)} `);

/** RFC-0002 text form of one file's headings (all of the same file): its path, then each heading indented by level. */
export function formatOutlineFile(headings: readonly OutlineHeading[]): string {
  if (headings.length === 0) return '';
  let text = (headings[0] as OutlineHeading).file;
  for (const heading of headings) text += `\n${HEADING_PREFIX[heading.level] as string}${heading.text}`;
  return text;
}
