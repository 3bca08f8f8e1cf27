/**
 * The command an approval shows, as words to render as code: no shell quoting (an argument with a
 * space is one word, set apart by its style), the template's long fixed paths shortened, safety
 * flags left out, and in each argument the caller filled exactly the characters the caller chose
 * marked — `Hello, <<name>>!` with `Ada` marks `Ada`, not the skill's own `!`.
 */
import { askerOf, containment, isLongFixedPath, programName, shortPath, shownArguments } from '../../src-main/shared/approval-text.js';
import type { PendingApproval } from '../../src-main/shared/runs.js';

/** A stretch of one word: the skill's own text, or a value the caller chose. */
export interface WordPart {
  text: string;
  supplied: boolean;
}

/** One argument (or the program) as shown. */
export interface CommandWord {
  index: number;
  parts: WordPart[];
  /** It holds whitespace, so it must read as one word. */
  spaced: boolean;
}

/** The caller's values as the text they become in an argument (a flag a boolean turns on is not among them). */
function valueTexts(args: Record<string, unknown>): string[] {
  const texts = Object.values(args).flatMap((value) => (typeof value === 'string' || typeof value === 'number' ? [String(value)] : []));
  return [...new Set(texts.filter((text) => text !== ''))].sort((a, b) => b.length - a.length);
}

/**
 * A filled argument split into the caller's values and the template's text around them; when no
 * value can be found in it (a boolean's flag, an option the template adds), the whole argument.
 */
export function markValues(text: string, values: readonly string[]): WordPart[] {
  const found: { start: number; end: number }[] = [];
  for (const value of values) {
    let from = 0;
    for (let at = text.indexOf(value, from); at !== -1; at = text.indexOf(value, from)) {
      const end = at + value.length;
      if (!found.some((f) => at < f.end && f.start < end)) found.push({ start: at, end });
      from = end;
    }
  }
  if (found.length === 0) return [{ text, supplied: true }];
  found.sort((a, b) => a.start - b.start);
  const parts: WordPart[] = [];
  let at = 0;
  for (const f of found) {
    if (f.start > at) parts.push({ text: text.slice(at, f.start), supplied: false });
    parts.push({ text: text.slice(f.start, f.end), supplied: true });
    at = f.end;
  }
  if (at < text.length) parts.push({ text: text.slice(at), supplied: false });
  return parts;
}

/** The program and every argument but the safety flags; with `brief`, the template's long fixed paths as `…/name`. */
export function commandWords(p: Pick<PendingApproval, 'programPath' | 'argv' | 'supplied' | 'args'>, brief = false): CommandWord[] {
  const values = valueTexts(p.args);
  const program: CommandWord = { index: -1, parts: [{ text: programName(p.programPath), supplied: false }], spaced: false };
  const args = shownArguments(p.argv, p.supplied)
    .filter((a) => !a.hardening)
    .map((a): CommandWord => {
      const long = brief && isLongFixedPath(a);
      const parts = a.supplied ? markValues(a.text, values) : [{ text: long ? `…/${programName(a.text)}` : a.text, supplied: false }];
      return { index: a.index, parts, spaced: /\s/.test(a.text) };
    });
  return [program, ...args];
}

/** The words that fit in `max` characters (spaces between them counted), and whether any were left out. */
export function fitWords(words: readonly CommandWord[], max: number): { words: CommandWord[]; cut: boolean } {
  const kept: CommandWord[] = [];
  let length = 0;
  for (const word of words) {
    const size = word.parts.reduce((n, part) => n + part.text.length, 0) + (kept.length > 0 ? 1 : 0);
    if (kept.length > 0 && length + size > max) return { words: kept, cut: true };
    kept.push(word);
    length += size;
  }
  return { words: kept, cut: false };
}

/** The sentence around the command: who asks, where it runs, how it is contained. */
export function sentenceFrame(
  p: Pick<PendingApproval, 'surface' | 'cwd' | 'sandbox'> & { assistant?: string | null },
  home?: string,
): { asker: string; where: string; containment: string } {
  return { asker: askerOf(p), where: shortPath(p.cwd, home), containment: containment(p.sandbox) };
}
