/**
 * Top-level headings of plain Markdown in one pass over the lines, for outline and the search
 * index on large skills (marked's lexer builds every block token and costs ~5× reading the file).
 * It answers only for text it can place exactly as marked does: ATX headings at column 0, fenced
 * code at column 0, and lines that cannot hold or swallow a heading. Anything else — setext
 * underlines after text, block quotes, HTML, indented `#` or fences, tabs, `[label]:` lines that a
 * heading could complete — returns null and the caller lexes with marked. A property test holds
 * the two to the same answer.
 */

const SPACE = 0x20;
const HASH = 0x23;
const BACKTICK = 0x60;
const TILDE = 0x7e;
const LT = 0x3c;
const GT = 0x3e;
const DASH = 0x2d;
const EQUALS = 0x3d;
const BRACKET = 0x5b;
const COLON = 0x3a;

export interface Heading {
  level: number;
  /** Heading text without `#` markers, closing `#`s or setext underline. */
  text: string;
  line: number;
}

/** A heading with the offset of its line in the scanned text. */
export interface ScannedHeading extends Heading {
  offset: number;
}

/** Length of the run of `code` starting at `from`, stopping at `end`. */
function runLength(text: string, from: number, end: number, code: number): number {
  let i = from;
  while (i < end && text.charCodeAt(i) === code) i++;
  return i - from;
}

/** True when [from, end) holds only spaces. */
function onlySpaces(text: string, from: number, end: number): boolean {
  return runLength(text, from, end, SPACE) === end - from;
}

/** marked's heading text: trimmed, closing `#`s removed when a space precedes them or nothing is left. */
function headingText(raw: string): string {
  let text = raw.trim();
  if (text.endsWith('#')) {
    let cut = text.length;
    while (cut > 0 && text.charCodeAt(cut - 1) === HASH) cut--;
    const trimmed = text.slice(0, cut);
    if (trimmed === '' || /[ \t]$/.test(trimmed)) text = trimmed.trim();
  }
  return text;
}

/** A `[label]:` line whose destination may come on the next line (a link definition). */
function opensDefinition(text: string, from: number, end: number): boolean {
  const indent = runLength(text, from, end, SPACE);
  if (indent > 3 || text.charCodeAt(from + indent) !== BRACKET) return false;
  let last = end - 1;
  while (last > from && text.charCodeAt(last) === SPACE) last--;
  return text.charCodeAt(last) === COLON;
}

/** Headings of `body` (LF text) numbered from `firstLine`, or null when marked must decide. */
export function scanHeadings(body: string, firstLine = 1): ScannedHeading[] | null {
  // One indexOf per character is a memchr each, several times faster than a regex class over the text.
  if (body.includes('\t') || body.includes('\r') || body.includes('\u2028') || body.includes('\u2029')) return null;
  const headings: ScannedHeading[] = [];
  let fence: { code: number; length: number } | null = null;
  // Whether the previous line could be (part of) a paragraph: a setext underline after it would make a heading.
  let afterText = false;
  let afterDefinition = false;
  let line = firstLine;
  for (let start = 0; start < body.length; line++) {
    let end = body.indexOf('\n', start);
    if (end === -1) end = body.length;
    const first = body.charCodeAt(start);
    if (fence !== null) {
      const indent = runLength(body, start, end, SPACE);
      const run = runLength(body, start + indent, end, fence.code);
      if (indent <= 3 && run >= fence.length && onlySpaces(body, start + indent + run, end)) fence = null;
      afterText = false;
      afterDefinition = false;
    } else if (start === end) {
      afterText = false;
      afterDefinition = false;
    } else if (afterDefinition && !onlySpaces(body, start, end)) {
      // The line may be the destination of the `[label]:` above it, whatever it looks like.
      return null;
    } else if (first === HASH) {
      const level = runLength(body, start, end, HASH);
      const next = start + level;
      if (level > 6 || (next < end && body.charCodeAt(next) !== SPACE)) return null;
      headings.push({ level, text: headingText(body.slice(next, end)), line, offset: start });
      afterText = false;
      afterDefinition = false;
    } else if (first === BACKTICK || first === TILDE) {
      const run = runLength(body, start, end, first);
      if (run >= 3) {
        // A backtick in a backtick fence's info string makes the line inline code, not a fence.
        if (first === BACKTICK && body.slice(start + run, end).includes('`')) return null;
        fence = { code: first, length: run };
        afterText = false;
      } else {
        afterText = true;
      }
      afterDefinition = false;
    } else if (first === LT || first === GT) {
      return null;
    } else {
      const indent = runLength(body, start, end, SPACE);
      if (start + indent === end) {
        afterText = false;
        afterDefinition = false;
      } else {
        const lead = body.charCodeAt(start + indent);
        if (lead === LT || lead === GT || (indent <= 3 && lead === HASH)) return null;
        if ((lead === BACKTICK || lead === TILDE) && runLength(body, start + indent, end, lead) >= 3) return null;
        if (indent <= 3 && (lead === DASH || lead === EQUALS)) {
          const run = runLength(body, start + indent, end, lead);
          if (onlySpaces(body, start + indent + run, end)) {
            // After text this underline would make a setext heading; alone, `---` is a rule and `=`/`--` text.
            if (afterText) return null;
            afterText = !(lead === DASH && run >= 3);
            afterDefinition = false;
            start = end + 1;
            continue;
          }
        }
        afterText = true;
        afterDefinition = opensDefinition(body, start, end);
      }
    }
    start = end + 1;
  }
  return headings;
}
