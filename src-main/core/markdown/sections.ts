/**
 * Markdown sections as outline, show and the search index all see them: headings come from the
 * body after any frontmatter (so `#` inside YAML or a fenced block is never a heading), and a
 * section runs from its heading to the next heading of the same or higher level, or to EOF.
 */
import { lexHeadings } from './blocks.js';
import { markdownBody } from './frontmatter.js';
import { scanHeadings } from './heading-scan.js';

export interface Section {
  level: number;
  /** Heading text without `#` markers, closing `#`s or setext underline. */
  text: string;
  /** 1-based file line of the heading. */
  startLine: number;
  /** 1-based line of the next heading of the same or higher level, or EOF+1 (exclusive). */
  endLine: number;
  /** Offset of the heading line in the file's text. */
  start: number;
  /** Offset just past the section's last line (its newline not included). */
  end: number;
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

/** Number of lines of LF text, as splitLines counts them. */
export function lineCount(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  return text === '' || text.endsWith('\n') ? count : count + 1;
}

/** Offsets of the given 1-based lines (ascending) in `text`. */
function lineOffsets(text: string, lines: readonly number[]): number[] {
  const offsets: number[] = [];
  let line = 1;
  let offset = 0;
  for (const wanted of lines) {
    while (line < wanted) {
      offset = text.indexOf('\n', offset) + 1;
      line++;
    }
    offsets.push(offset);
  }
  return offsets;
}

/** Every heading of an LF-normalised Markdown file with its section's extent in lines and in the text. */
export function markdownSections(text: string): Section[] {
  const { body, bodyLine } = markdownBody(text);
  const bodyOffset = text.length - body.length;
  const scanned = scanHeadings(body, bodyLine);
  const headings = scanned ?? lexHeadings(body, bodyLine);
  const starts =
    scanned === null
      ? lineOffsets(
          text,
          headings.map((h) => h.line),
        )
      : scanned.map((h) => bodyOffset + h.offset);
  const eof = lineCount(text) + 1;
  const textEnd = text.endsWith('\n') ? text.length - 1 : text.length;
  return headings.map((heading, index) => {
    let endLine = eof;
    let end = textEnd;
    for (let next = index + 1; next < headings.length; next++) {
      const candidate = headings[next] as (typeof headings)[number];
      if (candidate.level <= heading.level) {
        endLine = candidate.line;
        end = (starts[next] as number) - 1;
        break;
      }
    }
    return { level: heading.level, text: heading.text, startLine: heading.line, endLine, start: starts[index] as number, end };
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
