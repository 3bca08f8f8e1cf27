/**
 * A tool's Command block as argv tokens with placeholders. The text is split into tokens first
 * (quote-aware, like a POSIX shell's word splitting and nothing more), then `<<key>>` placeholders
 * (`{{key}}` for gibb.eri.sh skills) are found inside each token. Pipes, redirections, `$VAR`,
 * globs and the like have no meaning: they are reported in `shellSyntax` so the loader can warn
 * (W405) that they will reach the program literally.
 */
import type { SkilltrayError } from '../../shared/skilltray-error.js';
import { templateErrors } from '../../shared/error-messages/templates.js';
import type { PlaceholderSyntax } from '../../shared/model.js';

/** A placeholder as written: `raw` is its source text, e.g. `<<count:10>>`; `fallback` is null without a `:`. */
export interface Placeholder {
  key: string;
  fallback: string | null;
  raw: string;
}

/** A stretch of one token: literal text or a placeholder. */
export type Part = { kind: 'text'; value: string } | { kind: 'placeholder'; placeholder: Placeholder };

/** One argv element to be; `quoted` is true when a quoted section appeared in it (so `""` is a real empty argument). */
export interface CommandToken {
  parts: Part[];
  quoted: boolean;
}

/** A parsed Command: its tokens, every placeholder in order of appearance, and the shell constructs it contains. */
export interface ParsedCommand {
  tokens: CommandToken[];
  placeholders: Placeholder[];
  /** Each construct once, as written (`|`, `$(`, `$HOME`, `~`, `*`, …); `newline` for a line that starts a second command. */
  shellSyntax: string[];
}

interface Markers {
  open: string;
  close: string;
}

/** Placeholder markers per syntax; `\` before the opening marker's first character makes it literal. */
const PLACEHOLDER_MARKERS: Readonly<Record<PlaceholderSyntax, Markers>> = {
  angle: { open: '<<', close: '>>' },
  braces: { open: '{{', close: '}}' },
};

const KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SHELL_OPERATORS = new Set(['|', '||', '&&', ';', '&', '>', '>>', '<', '2>', '2>&1']);

/** One character of a token, with where it sits in the source and how it was written. */
interface SourceChar {
  ch: string;
  offset: number;
  /** Inside '…' or "…". */
  quoted: boolean;
  /** Written with a backslash escape, so it can neither open nor close a placeholder. */
  escaped: boolean;
}

interface RawToken {
  chars: SourceChar[];
  quoted: boolean;
}

function templateError(message: string, offset: number): SkilltrayError {
  return templateErrors.commandUnparsable(message, offset);
}

function isBlank(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\n';
}

/** Splits the text into tokens; `separated` is true when an unescaped newline stands between two tokens. */
function tokenize(text: string, markers: Markers): { tokens: RawToken[]; separated: boolean } {
  const tokens: RawToken[] = [];
  let current: RawToken | null = null;
  let newlinePending = false;
  let separated = false;
  const token = (): RawToken => {
    if (current === null) {
      if (newlinePending) separated = true;
      newlinePending = false;
      current = { chars: [], quoted: false };
    }
    return current;
  };
  const noNul = (index: number): void => {
    if (text[index] === '\0') throw templateError(`the command contains a NUL byte at offset ${index}`, index);
  };

  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    noNul(i);
    if (isBlank(ch)) {
      if (current !== null) tokens.push(current);
      current = null;
      if (ch === '\n' && tokens.length > 0) newlinePending = true;
      i++;
    } else if (ch === '\\') {
      const next = text[i + 1];
      if (next === undefined) throw templateError('the command ends with a lone backslash (write \\\\ for a literal one)', i);
      noNul(i + 1);
      // A backslash-newline joins lines and never starts a token.
      if (next !== '\n') token().chars.push({ ch: next, offset: i + 1, quoted: false, escaped: true });
      i += 2;
    } else if (ch === "'") {
      const close = text.indexOf("'", i + 1);
      if (close === -1) throw templateError(`unterminated single quote at offset ${i}`, i);
      const target = token();
      target.quoted = true;
      for (let j = i + 1; j < close; j++) {
        noNul(j);
        target.chars.push({ ch: text[j] as string, offset: j, quoted: true, escaped: false });
      }
      i = close + 1;
    } else if (ch === '"') {
      const target = token();
      target.quoted = true;
      let j = i + 1;
      for (;;) {
        if (j >= text.length) throw templateError(`unterminated double quote at offset ${i}`, i);
        noNul(j);
        const c = text[j] as string;
        if (c === '"') break;
        const next = text[j + 1];
        if (c === '\\' && (next === '"' || next === '\\' || next === markers.open.charAt(0))) {
          target.chars.push({ ch: next, offset: j + 1, quoted: true, escaped: true });
          j += 2;
        } else {
          target.chars.push({ ch: c, offset: j, quoted: true, escaped: false });
          j++;
        }
      }
      i = j + 1;
    } else {
      token().chars.push({ ch, offset: i, quoted: false, escaped: false });
      i++;
    }
  }
  if (current !== null) tokens.push(current);
  return { tokens, separated };
}

function markerAt(chars: readonly SourceChar[], k: number, marker: string): boolean {
  const first = chars[k];
  const second = chars[k + 1];
  return first !== undefined && second !== undefined && !first.escaped && !second.escaped && first.ch === marker[0] && second.ch === marker[1];
}

/** Finds the placeholders of one token; `bare` is its text with quoted, escaped and placeholder characters blanked. */
function splitParts(token: RawToken, text: string, markers: Markers): { parts: Part[]; bare: string } {
  const { chars } = token;
  const parts: Part[] = [];
  let literal = '';
  let bare = '';
  let k = 0;
  while (k < chars.length) {
    const start = chars[k] as SourceChar;
    if (!markerAt(chars, k, markers.open)) {
      literal += start.ch;
      bare += start.quoted || start.escaped ? ' ' : start.ch;
      k++;
      continue;
    }
    let m = k + 2;
    while (m < chars.length && !markerAt(chars, m, markers.close)) {
      if (markerAt(chars, m, markers.open)) {
        throw templateError(
          `placeholders cannot nest: '${markers.open}' inside another placeholder at offset ${(chars[m] as SourceChar).offset}`,
          start.offset,
        );
      }
      m++;
    }
    if (m >= chars.length) {
      const written = text.slice(start.offset, (chars[chars.length - 1] as SourceChar).offset + 1);
      throw templateError(
        `unterminated placeholder '${written}' at offset ${start.offset} (a fallback with spaces must be quoted; write \\${markers.open} for a literal '${markers.open}')`,
        start.offset,
      );
    }
    const inner = chars
      .slice(k + 2, m)
      .map((c) => c.ch)
      .join('');
    const colon = inner.indexOf(':');
    const key = colon === -1 ? inner : inner.slice(0, colon);
    const raw = text.slice(start.offset, (chars[m + 1] as SourceChar).offset + 1);
    if (!KEY.test(key)) {
      throw templateError(
        `bad placeholder key '${key}' in '${raw}' at offset ${start.offset} (a key is letters, digits and _, not starting with a digit)`,
        start.offset,
      );
    }
    if (literal !== '') parts.push({ kind: 'text', value: literal });
    literal = '';
    parts.push({ kind: 'placeholder', placeholder: { key, fallback: colon === -1 ? null : inner.slice(colon + 1), raw } });
    bare += ' '.repeat(m + 2 - k);
    k = m + 2;
  }
  if (literal !== '') parts.push({ kind: 'text', value: literal });
  return { parts, bare };
}

/**
 * The shell constructs a token would have meant to a shell, judged on its unquoted, unescaped text
 * (`bare`); `literalOnly`: the token is one stretch of text, none of it quoted or escaped.
 */
function shellConstructs(literalOnly: boolean, bare: string): string[] {
  const found: string[] = [];
  if (literalOnly && SHELL_OPERATORS.has(bare)) return [bare];
  if (bare.startsWith('#')) found.push('#');
  if (bare.startsWith('~')) found.push('~');
  if (bare.includes('$(')) found.push('$(');
  if (bare.includes('${')) found.push('${');
  // Most tokens hold no `$` at all: no regex iterator for them.
  if (bare.includes('$')) for (const match of bare.matchAll(/\$[A-Za-z_][A-Za-z0-9_]*/g)) found.push(match[0]);
  if (bare.includes('`')) found.push('`');
  if (bare.includes('*')) found.push('*');
  if (bare.includes('?')) found.push('?');
  return found;
}

/** Parses Command text in the given placeholder syntax; malformed text throws E509 with the offset. */
export function parseCommand(text: string, syntax: PlaceholderSyntax): ParsedCommand {
  return parsePlainCommand(text, syntax) ?? parseAnyCommand(text, syntax);
}

/** parseCommand by the full tokenizer, which follows every quote and escape character by character. */
export function parseAnyCommand(text: string, syntax: PlaceholderSyntax): ParsedCommand {
  const markers = PLACEHOLDER_MARKERS[syntax];
  const { tokens: rawTokens, separated } = tokenize(text, markers);
  const tokens: CommandToken[] = [];
  const placeholders: Placeholder[] = [];
  const shell = new Set<string>();
  for (const raw of rawTokens) {
    const { parts, bare } = splitParts(raw, text, markers);
    tokens.push({ parts, quoted: raw.quoted });
    for (const part of parts) if (part.kind === 'placeholder') placeholders.push(part.placeholder);
    const literalOnly = !raw.quoted && parts.length === 1 && raw.chars.every((c) => !c.escaped);
    for (const construct of shellConstructs(literalOnly, bare)) shell.add(construct);
  }
  if (separated) shell.add('newline');
  return { tokens, placeholders, shellSyntax: [...shell] };
}

/** A quote, a backslash or a NUL: what plain commands hold none of. */
const NOT_PLAIN = /['"\\\0]/;

/**
 * parseCommand of a command with no quote, backslash or NUL (most commands), found without the
 * full tokenizer's object a character: its tokens are the runs between blanks, every character of
 * them as written. Null for any other text, and for a placeholder the full parser would refuse (it
 * then says why, with the offset); a property test holds the two to one answer.
 */
export function parsePlainCommand(text: string, syntax: PlaceholderSyntax): ParsedCommand | null {
  if (NOT_PLAIN.test(text)) return null;
  const markers = PLACEHOLDER_MARKERS[syntax];
  const tokens: CommandToken[] = [];
  const placeholders: Placeholder[] = [];
  const shell = new Set<string>();
  let newlinePending = false;
  let separated = false;
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (isBlank(ch)) {
      if (ch === '\n' && tokens.length > 0) newlinePending = true;
      i++;
      continue;
    }
    let end = i + 1;
    while (end < text.length && !isBlank(text[end] as string)) end++;
    if (newlinePending) separated = true;
    newlinePending = false;
    const token = plainParts(text.slice(i, end), markers);
    if (token === null) return null;
    tokens.push({ parts: token.parts, quoted: false });
    for (const part of token.parts) if (part.kind === 'placeholder') placeholders.push(part.placeholder);
    for (const construct of shellConstructs(token.parts.length === 1, token.bare)) shell.add(construct);
    i = end;
  }
  if (separated) shell.add('newline');
  return { tokens, placeholders, shellSyntax: [...shell] };
}

/** splitParts of a token written plainly, or null where a placeholder is malformed (unclosed, nested, a bad key). */
function plainParts(token: string, markers: Markers): { parts: Part[]; bare: string } | null {
  const parts: Part[] = [];
  let bare = '';
  let k = 0;
  for (;;) {
    const open = token.indexOf(markers.open, k);
    const literal = token.slice(k, open === -1 ? token.length : open);
    bare += literal;
    if (open === -1) {
      if (literal !== '') parts.push({ kind: 'text', value: literal });
      return { parts, bare };
    }
    const close = token.indexOf(markers.close, open + 2);
    if (close === -1) return null;
    const nested = token.indexOf(markers.open, open + 2);
    if (nested !== -1 && nested < close) return null;
    const inner = token.slice(open + 2, close);
    const colon = inner.indexOf(':');
    const key = colon === -1 ? inner : inner.slice(0, colon);
    if (!KEY.test(key)) return null;
    if (literal !== '') parts.push({ kind: 'text', value: literal });
    parts.push({ kind: 'placeholder', placeholder: { key, fallback: colon === -1 ? null : inner.slice(colon + 1), raw: token.slice(open, close + 2) } });
    bare += ' '.repeat(close + 2 - open);
    k = close + 2;
  }
}
