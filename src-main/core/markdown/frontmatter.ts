/**
 * Finding the frontmatter block the way RFC-0008 SKL100 defines it: the file's first line is
 * exactly `---` and the block ends at the next line that is exactly `---`.
 */

export type FrontmatterSplit =
  | { ok: true; yaml: string; body: string; bodyLine: number }
  | { ok: false; reason: 'no-opening' | 'no-closing'; body: string; bodyLine: number };

/** Splits LF-normalised text into frontmatter YAML and body; the YAML starts on line 2. */
export function splitFrontmatter(text: string): FrontmatterSplit {
  const firstEnd = text.indexOf('\n');
  const firstLine = firstEnd === -1 ? text : text.slice(0, firstEnd);
  if (firstLine.trimEnd() !== '---') return { ok: false, reason: 'no-opening', body: text, bodyLine: 1 };
  let lineNo = 2;
  let start = firstEnd + 1;
  while (firstEnd !== -1 && start <= text.length) {
    const end = text.indexOf('\n', start);
    const line = end === -1 ? text.slice(start) : text.slice(start, end);
    if (line.trimEnd() === '---') {
      const yaml = text.slice(firstEnd + 1, start);
      const body = end === -1 ? '' : text.slice(end + 1);
      return { ok: true, yaml, body, bodyLine: lineNo + 1 };
    }
    if (end === -1) break;
    start = end + 1;
    lineNo++;
  }
  return { ok: false, reason: 'no-closing', body: text, bodyLine: 1 };
}

/** The body of a Markdown file with any leading frontmatter removed, and the line it starts on. */
export function markdownBody(text: string): { body: string; bodyLine: number } {
  const split = splitFrontmatter(text);
  return split.ok ? { body: split.body, bodyLine: split.bodyLine } : { body: text, bodyLine: 1 };
}
