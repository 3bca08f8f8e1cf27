/**
 * The blocks of a tool section (tools.ts) as marked's lexer gives them, without marked, where every
 * line is of a kind whose lexing is plain: ATX headings, empty lines, paragraphs of lines that can
 * neither open nor interrupt another block, pipe tables fenced by empty lines or headings, backtick
 * fences and thematic breaks. Anything else — lists, quotes, HTML, indented or tabbed lines, setext underlines,
 * backslashes in tables, a closing `#` — gives null, and the caller lexes with marked. A tool
 * section is mostly such lines, and marked's general lexer cost a cold load of 10,000 skills more
 * than any other step of their parse. Held to marked, token for token, by property tests.
 */
import type { Tokens } from 'marked';
import type { Block } from './blocks.js';

const HASH = 0x23;
const BACKTICK = 0x60;

/** A line that starts a paragraph line and nothing else: a letter, or one backtick (three open a fence). */
function isPlainLine(line: string): boolean {
  const c = line.charCodeAt(0);
  const letter = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  return letter || (c === BACKTICK && line.charCodeAt(1) !== BACKTICK);
}

const HEADING = /^(#{1,6}) +(\S.*)$/;
const FENCE_OPEN = /^```([\w+.-]*)$/;
/** A line marked could take for the closing fence (or an opening one), indented up to three spaces. */
const FENCE_LIKE = /^ {0,3}```/;
const DELIMITER_ROW = /^\|(?: *:?-+:? *\|)+$/;
/** A thematic break. No paragraph ever ends right above one here (a line that is not plain ends the answer), so it is never a setext underline. */
const BREAK = /^(?:-{3,}|\*{3,}|_{3,})$/;

function isTableLine(line: string): boolean {
  return line.length >= 2 && line.startsWith('|') && line.endsWith('|') && !line.includes('\\');
}

/**
 * The cells of a table line that starts and ends with a pipe and holds no backslash, trimmed. The
 * arrays here are built by push, not map: an array map makes has another shape in optimised code
 * than in the interpreter, and code optimised for the one is thrown away at the first sight of the
 * other and compiled again — a cold load compiles this file's hot code on every thread it parses on.
 */
function cellsOf(line: string): string[] {
  const cells: string[] = [];
  for (const cell of line.slice(1, -1).split('|')) cells.push(cell.trim());
  return cells;
}

function alignOf(cell: string): Tokens.TableCell['align'] {
  const left = cell.startsWith(':');
  const right = cell.endsWith(':');
  return left && right ? 'center' : left ? 'left' : right ? 'right' : null;
}

/** Whether a line (that is not empty) ends a paragraph: a heading or an opening fence does; null when it is not plain at all. */
function endsParagraph(line: string): boolean | null {
  const c = line.charCodeAt(0);
  if (c === HASH) return HEADING.test(line) ? true : null;
  if (c === BACKTICK && FENCE_OPEN.test(line)) return true;
  return isPlainLine(line) ? false : null;
}

/**
 * The blocks of `text` (LF line endings) whose first line is `firstLine` of its file, as
 * lexBlocks gives them, or null when a line is not of the plain kinds above.
 */
export function plainBlocks(text: string, firstLine: number): Block[] | null {
  // Tabs widen to columns, and marked's `.` stops at CR and the Unicode line separators where a split on LF does not.
  if (/[\t\r\u2028\u2029]/.test(text)) return null;
  const lines = text.split('\n');
  const starts: number[] = [];
  for (let i = 0, at = 0; i < lines.length; at += (lines[i] as string).length + 1, i++) starts.push(at);
  // A text ending in a newline splits into a last, empty, line that is not a line of it.
  const count = text.endsWith('\n') ? lines.length - 1 : lines.length;
  const blocks: Block[] = [];
  /** Lines `from` to `to` as written, without the last one's newline. */
  const textOf = (from: number, to: number): string => text.slice(starts[from], (starts[to] as number) + (lines[to] as string).length);
  // A block's raw text ends with its last line's newline unless an empty line follows (marked's space token takes it then) or the text ends first.
  const rawOf = (from: number, to: number): string =>
    to + 1 < lines.length && (to + 1 >= count || lines[to + 1] !== '') ? text.slice(starts[from], starts[to + 1]) : textOf(from, to);
  const push = (token: Block['token'], from: number, to: number): void => {
    blocks.push({ token, line: firstLine + from, endLine: firstLine + to });
  };
  let i = 0;
  while (i < count) {
    const line = lines[i] as string;
    if (line === '') {
      i++;
      continue;
    }
    // Read only once the line is known not to be empty: optimised code that reads past a string's end is thrown away and compiled again.
    const c = line.charCodeAt(0);
    if (c === HASH) {
      const heading = HEADING.exec(line);
      const text = heading === null ? '' : (heading[2] as string).trim();
      if (heading === null || text.endsWith('#')) return null;
      push({ type: 'heading', raw: rawOf(i, i), depth: (heading[1] as string).length, text, tokens: [] }, i, i);
      i++;
    } else if (BREAK.test(line)) {
      push({ type: 'hr', raw: rawOf(i, i) }, i, i);
      i++;
    } else if (c === BACKTICK && FENCE_OPEN.test(line)) {
      let close = i + 1;
      while (close < count && lines[close] !== '```') {
        if (FENCE_LIKE.test(lines[close] as string)) return null;
        close++;
      }
      // Empty lines just before the closing fence reach marked's text one newline longer than written: left to marked.
      if (close >= count || (close > i + 1 && lines[close - 1] === '')) return null;
      const code = close > i + 1 ? textOf(i + 1, close - 1) : '';
      push({ type: 'code', raw: rawOf(i, close), lang: line.slice(3), text: code }, i, close);
      i = close + 1;
    } else if (isTableLine(line)) {
      const delimiter = lines[i + 1];
      if (i + 1 >= count || delimiter === undefined || !DELIMITER_ROW.test(delimiter)) return null;
      const header = cellsOf(line);
      const align: Tokens.TableCell['align'][] = [];
      for (const cell of cellsOf(delimiter)) align.push(alignOf(cell));
      if (header.length !== align.length) return null;
      let end = i + 1;
      // Rows run on to an empty line or a heading; any other line that is not a row is not plain.
      while (end + 1 < count) {
        const next = lines[end + 1] as string;
        if (next === '' || (next.charCodeAt(0) === HASH && HEADING.test(next))) break;
        if (!isTableLine(next)) return null;
        end++;
      }
      // A row's cells as many as the header's: the ones past it dropped, the ones missing empty.
      const cellsUnder = (texts: readonly string[], isHeader: boolean): Tokens.TableCell[] => {
        const cells: Tokens.TableCell[] = [];
        for (let c = 0; c < header.length; c++) cells.push({ text: texts[c] ?? '', tokens: [], header: isHeader, align: align[c] ?? null });
        return cells;
      };
      const rows: Tokens.TableCell[][] = [];
      for (let row = i + 2; row <= end; row++) rows.push(cellsUnder(cellsOf(lines[row] as string), false));
      push({ type: 'table', raw: rawOf(i, end), header: cellsUnder(header, true), align, rows }, i, end);
      i = end + 1;
    } else if (isPlainLine(line)) {
      let end = i;
      // A paragraph runs on over plain lines; a heading, a fence or an empty line ends it, anything else is not plain.
      for (; end + 1 < count && lines[end + 1] !== ''; end++) {
        const ends = endsParagraph(lines[end + 1] as string);
        if (ends === null) return null;
        if (ends) break;
      }
      push({ type: 'paragraph', raw: rawOf(i, end), text: textOf(i, end), tokens: [] }, i, end);
      i = end + 1;
    } else return null;
  }
  return blocks;
}
