/**
 * Markdown as a list of top-level blocks with 1-based line numbers, over marked's GFM lexer.
 * One parser serves the loader (tools), the gateway (outline, show) and the search index, so a
 * `#` inside a fenced block is never a heading anywhere, and setext headings count everywhere.
 */
import type * as Marked from 'marked';
import { lazyRequire } from '../lazy-require.js';
import { scanHeadings, type Heading } from './heading-scan.js';

const marked = lazyRequire<typeof Marked>('marked');

export interface Block {
  token: Marked.Token;
  /** Line of the block's first character. */
  line: number;
  /** Line of the block's last non-newline character. */
  endLine: number;
}

function countNewlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Lexes `text` (LF line endings) whose first line is `firstLine` of its file. */
export function lexBlocks(text: string, firstLine = 1): Block[] {
  const blocks: Block[] = [];
  let line = firstLine;
  // Block tokens only: nothing here reads inline tokens, and marked's inline pass costs as much again.
  for (const token of new (marked().Lexer)({ gfm: true }).blockTokens(text, [])) {
    const raw = token.raw;
    const leading = raw.length - raw.trimStart().length;
    const start = line + countNewlines(raw.slice(0, leading));
    const end = start + countNewlines(raw.trim());
    if (token.type !== 'space') blocks.push({ token, line: start, endLine: end });
    line += countNewlines(raw);
  }
  return blocks;
}

/** Top-level headings of `body`, numbered from `firstLine`, as marked's lexer finds them. */
export function lexHeadings(body: string, firstLine = 1): Heading[] {
  const headings: Heading[] = [];
  for (const block of lexBlocks(body, firstLine)) {
    if (block.token.type === 'heading') {
      headings.push({ level: block.token.depth as number, text: (block.token.text as string).trim(), line: block.line });
    }
  }
  return headings;
}

/** Top-level headings of `body`, numbered from `firstLine`: the line scan where it can decide, marked elsewhere. */
export function headingsOf(body: string, firstLine = 1): Heading[] {
  const scanned = scanHeadings(body, firstLine);
  return scanned === null ? lexHeadings(body, firstLine) : scanned.map(({ level, text, line }) => ({ level, text, line }));
}
