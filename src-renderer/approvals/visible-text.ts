/**
 * Arguments shown exactly as they will be passed, with nothing able to hide: control, format
 * (bidi overrides, zero-width), line-separator and non-ASCII space characters become visible
 * escapes, so `"a\u202Eb"` cannot pose as something else and a trailing newline cannot vanish.
 */

/** A run of literal text, or one invisible character spelled out. */
export type VisiblePart = { kind: 'text'; text: string } | { kind: 'escape'; text: string; codePoint: number };

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\0': '\\0' };

// Cc controls, Cf format characters, line/paragraph separators, every space but U+0020, lone surrogates.
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]|(?! )\p{Zs}|\p{Cs}/u;

function escapeOf(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.codePointAt(0) as number;
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
}

/** Splits `value` into literal text and escapes for the invisible characters in it. */
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

/** The one-line form (`"a\nb"`) for titles, announcements and tests. */
export function visibleString(value: string): string {
  return `"${visibleParts(value).map((p) => p.text).join('')}"`;
}
