/**
 * Markdown sections as outline, show and the search index all see them: headings come from the
 * body after any frontmatter (so `#` inside YAML or a fenced block is never a heading), and a
 * section runs from its heading to the next heading of the same or higher level, or to EOF.
 */
import { headingsOf } from '../markdown/blocks.js';
import { markdownBody } from '../markdown/frontmatter.js';

export interface Section {
  level: number;
  /** Heading text without `#` markers, closing `#`s or setext underline. */
  text: string;
  /** 1-based file line of the heading. */
  startLine: number;
  /** 1-based line of the next heading of the same or higher level, or EOF+1 (exclusive). */
  endLine: number;
}

/** True for files outline and show read and the index segments by heading. */
export function isMarkdownFile(rel: string): boolean {
  return /\.md$/i.test(rel);
}

/** True for files the index keeps whole, as one section with an empty heading. */
export function isPlainTextFile(rel: string): boolean {
  return /\.txt$/i.test(rel);
}

/** Lines of LF text; a final newline ends the last line rather than starting an empty one. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Every heading of an LF-normalised Markdown file with its section's extent. */
export function markdownSections(text: string): Section[] {
  const { body, bodyLine } = markdownBody(text);
  const headings = headingsOf(body, bodyLine);
  const eof = splitLines(text).length + 1;
  return headings.map((heading, index) => {
    let endLine = eof;
    for (let next = index + 1; next < headings.length; next++) {
      const candidate = headings[next] as (typeof headings)[number];
      if (candidate.level <= heading.level) {
        endLine = candidate.line;
        break;
      }
    }
    return { level: heading.level, text: heading.text, startLine: heading.line, endLine };
  });
}

/** Lines `startLine` up to (not including) `endLine`, 1-based: the whole range, blank lines included. */
export function sectionLines(lines: readonly string[], startLine: number, endLine: number): string[] {
  return lines.slice(startLine - 1, endLine - 1);
}

/** `lines` without the blank lines at their end (the gap before the next heading). */
export function trimTrailingBlankLines(lines: readonly string[]): string[] {
  let end = lines.length;
  while (end > 0 && (lines[end - 1] as string).trim() === '') end--;
  return lines.slice(0, end);
}
