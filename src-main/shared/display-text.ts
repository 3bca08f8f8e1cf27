/**
 * The one way text from a pack, a skill or a caller is shown to a person, in the terminal, the
 * tray and the browser alike: control characters, format characters (bidi overrides and isolates,
 * zero-width), line and paragraph separators, spaces other than U+0020 and lone surrogates become
 * visible escapes (`\n`, `\x1b`, `\u202e`), so `a\u202Eb` cannot pose as something else, a newline
 * cannot fake a second line and ESC cannot clear the terminal. JSON keeps the exact text; only
 * what people read goes through this. A backslash already in the text stays as it is, so code
 * stays readable.
 */

/** A run of literal text, or one hidden character spelled out. */
export type VisiblePart = { kind: 'text'; text: string } | { kind: 'escape'; text: string; codePoint: number };

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\0': '\\0' };

// Cc controls, Cf format characters, line/paragraph separators, every space but U+0020, lone surrogates.
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]|(?! )\p{Zs}|\p{Cs}/u;
const ANY_HIDDEN = new RegExp(HIDDEN.source, 'u');

function escapeOf(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.codePointAt(0) as number;
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
  return code <= 0xffff ? `\\u${code.toString(16).padStart(4, '0')}` : `\\u{${code.toString(16)}}`;
}

/** Splits `value` into literal text and escapes for the hidden characters in it (the UI marks the escapes). */
export function visibleParts(value: string): VisiblePart[] {
  const parts: VisiblePart[] = [];
  let text = '';
  for (const char of value) {
    if (HIDDEN.test(char)) {
      if (text !== '') parts.push({ kind: 'text', text });
      text = '';
      parts.push({ kind: 'escape', text: escapeOf(char), codePoint: char.codePointAt(0) as number });
    } else {
      text += char;
    }
  }
  if (text !== '') parts.push({ kind: 'text', text });
  return parts;
}

/** `value` as one line of text with its hidden characters escaped: what every text surface prints. */
export function displayText(value: string): string {
  return ANY_HIDDEN.test(value)
    ? visibleParts(value)
        .map((p) => p.text)
        .join('')
    : value;
}

/** Lines for a person to read, each shown with displayText, so only the newlines between them remain. */
export function displayLines(lines: readonly string[]): string {
  return `${lines.map(displayText).join('\n')}\n`;
}
