/**
 * Scripts written without spaces between words — Chinese, Japanese, Thai, Lao, Khmer, Myanmar, and
 * Korean's syllables, which run words and their endings together. unicode61 reads a whole run as one
 * word, so "适用" never finds "适用场景". The catalog indexes such text a second time with each run
 * cut into overlapping pairs of characters (`适用 用场 场景 景`: every character starts one), and a
 * query holding such a run asks for its pairs as a phrase (`"适用 用场 场景"`), or for a lone
 * character as a prefix (`"适"*`). Latin words stay as they are in both, so "git 提交" needs both.
 * Marks and snippets for those hits are made here, on the plain text, since that index holds pairs.
 */
import { queryTokens, quoteToken } from './query.js';

/** One character of a run: a letter, mark or digit of one of those scripts (their punctuation separates, as unicode61 says). */
const RUN_CHAR = String.raw`(?=[\p{L}\p{M}\p{N}])[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]`;
const RUN = new RegExp(`(?:${RUN_CHAR})+`, 'gu');
const HAS_RUN = new RegExp(RUN_CHAR, 'u');
/** What unicode61 keeps as (part of) a word. */
const WORDLIKE = /[\p{L}\p{N}]/u;

/**
 * The UTF-16 code units a RUN_CHAR can start with, and a few more (a unit test holds it to every
 * code point of Unicode): a text with none of them holds no run, and most text has none, so the
 * script test runs only on the rest. Below U+02B0 no unit is one of them: the loop in
 * hasUnspacedRun skips ASCII and Latin at a compare each (it was a tenth of a first search's time
 * when the script test ran on every row).
 */
const MAYBE_RUN =
  /[\u02b0-\u0370\u0e01-\u0edf\u1000-\u11ff\u1780-\u17f9\u3005-\u31ff\u3220-\u3289\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f\ua9e0-\ua9fe\uaa60-\uaa7f\uac00-\ud7fb\ud805\ud81b\ud82b\ud82c\ud834\ud840-\ud88d\uf900-\ufad9\uff66-\uffdc]/;
const FIRST_MAYBE = 0x2b0;

/** Whether `text` holds a run of an unspaced script. */
export function hasUnspacedRun(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= FIRST_MAYBE && MAYBE_RUN.test(text[i] as string)) return HAS_RUN.test(text);
  }
  return false;
}

/** Overlapping pairs of a run's characters, and its last character alone: every character starts a token. */
function runTokens(run: string): string[] {
  const chars = [...run];
  return chars.map((c, i) => (i + 1 < chars.length ? c + (chars[i + 1] as string) : c));
}

/** `text` as the pair index stores it: each run replaced by its tokens, everything else as it is. */
export function unspacedGrams(text: string): string {
  return text.replace(RUN, (run) => ` ${runTokens(run).join(' ')} `);
}

/** A token of a query cut into runs of an unspaced script and the other words around them. */
function piecesOf(token: string): { text: string; run: boolean }[] {
  const pieces: { text: string; run: boolean }[] = [];
  let at = 0;
  const other = (text: string): void => {
    if (WORDLIKE.test(text)) pieces.push({ text, run: false });
  };
  for (const match of token.matchAll(RUN)) {
    other(token.slice(at, match.index));
    pieces.push({ text: match[0], run: true });
    at = match.index + match[0].length;
  }
  other(token.slice(at));
  return pieces;
}

/** A query against the pair index, with the words to mark in what it finds. */
export interface UnspacedMatch {
  /** FTS5 expression over the pair index: every piece required. */
  expression: string;
  /** What a hit shows marked: each run, and each other word. */
  pieces: string[];
}

/**
 * The pair-index query for `query` when it holds a run of an unspaced script, else null (it goes to
 * the word indexes as before). With `prefix`, a last word that is not such a run is a prefix. With
 * `any` (when no row holds every piece), a row needs only every piece of one of the query's
 * space-separated words: "滴答清单 任务" finds the rows that hold either, while "第0项" stays whole.
 */
export function unspacedMatch(query: string, prefix: boolean, any = false): UnspacedMatch | null {
  if (!hasUnspacedRun(query)) return null;
  const words = queryTokens(query).map(piecesOf);
  const last = words.length - 1;
  const terms = words.map((pieces, w) =>
    pieces.map((piece, i) => {
      if (!piece.run) return `${quoteToken(piece.text)}${prefix && w === last && i === pieces.length - 1 ? '*' : ''}`;
      const chars = [...piece.text];
      if (chars.length === 1) return `${quoteToken(piece.text)}*`;
      return quoteToken(
        chars
          .slice(0, -1)
          .map((c, j) => c + (chars[j + 1] as string))
          .join(' '),
      );
    }),
  );
  const groups = terms.filter((group) => group.length > 0);
  const expression = any && groups.length > 1 ? groups.map((group) => `(${group.join(' ')})`).join(' OR ') : groups.flat().join(' ');
  return { expression, pieces: words.flat().map((p) => p.text) };
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every occurrence of a piece: a run anywhere (it is part of a longer run), another word as a whole word, case ignored. */
function piecesPattern(pieces: readonly string[]): RegExp {
  const alternatives = [...pieces]
    .sort((a, b) => b.length - a.length)
    .map((p) => (hasUnspacedRun(p) ? escape(p) : `(?<![\\p{L}\\p{N}])${escape(p)}(?![\\p{L}\\p{N}])`));
  return new RegExp(alternatives.join('|'), 'giu');
}

/** `text` with every piece marked `[MATCH]…[/MATCH]`. */
export function markPieces(text: string, pieces: readonly string[]): string {
  return text.replace(piecesPattern(pieces), (found) => `[MATCH]${found}[/MATCH]`);
}

/** Characters a snippet shows before its first match, and in all: about a line, as the word index's snippets. */
const BEFORE = 24;
const LENGTH = 120;

/** One line of `text` around its first match, every piece marked, `…` where it was cut. */
export function unspacedSnippet(text: string, pieces: readonly string[]): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const first = flat.search(piecesPattern(pieces));
  let start = Math.max(0, first - BEFORE);
  // Start at a word where the text has spaces near there.
  const space = flat.lastIndexOf(' ', first);
  if (start > 0 && space >= start - BEFORE && space < first) start = space + 1;
  let end = Math.min(flat.length, start + LENGTH);
  // Never cut a character written as two UTF-16 units (CJK extension B and beyond) in half.
  if (/[\uDC00-\uDFFF]/.test(flat[start] ?? '')) start++;
  if (/[\uD800-\uDBFF]/.test(flat[end - 1] ?? '')) end--;
  return `${start > 0 ? '…' : ''}${markPieces(flat.slice(start, end), pieces)}${end < flat.length ? '…' : ''}`;
}
