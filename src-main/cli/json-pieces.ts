/**
 * `JSON.stringify(value, null, 2)` in pieces, so a large answer (`list --json` of 10,000 skills is
 * 21 MB) is written as it is made instead of held whole, twice over with the copy the stream makes.
 * The top-level object and the arrays and objects in it are opened here; each value below them is
 * stringified on its own and indented to its depth. The text is the same, byte for byte.
 */

/** Levels opened here; deeper values are stringified whole. */
const OPENED_LEVELS = 2;
/**
 * Items of an array stringified whole, in one JSON.stringify call at a time: a call a skill cost a
 * 10,000-skill `list --json` a fifth more than calls of 16 (each ~40 KB of text, still a piece each).
 */
const ITEMS_A_CALL = 16;

/** Only plain arrays and objects are opened: anything else (a Date, a boxed number, an object with toJSON) is left to JSON.stringify. */
function opens(value: unknown): value is Record<string, unknown> | unknown[] {
  if (value === null || typeof value !== 'object' || typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return Array.isArray(value) ? proto === Array.prototype : proto === Object.prototype || proto === null;
}

/**
 * JSON.stringify(value, null, 2) as it reads `level` levels down: stringified inside `level`
 * arrays, whose brackets are then cut off, so JSON.stringify writes the indentation as it goes
 * (indenting its text afterwards cost a quarter as much again for `list --json`).
 */
function nestedText(value: unknown, level: number): string {
  if (level === 0) return String(JSON.stringify(value, null, 2) as string | undefined);
  let wrapped: unknown = value;
  for (let i = 0; i < level; i++) wrapped = [wrapped];
  const text = JSON.stringify(wrapped, null, 2);
  // Each level adds `[` and a line end before the value, then its indentation; a line end, indentation and `]` after it.
  return text.slice(level * level + 3 * level, text.length - (level * level + level));
}

/** The text of `value` nested at `indent`, `level` levels down, in pieces. */
function* pieces(value: unknown, indent: string, level: number): Generator<string, void, undefined> {
  if (level >= OPENED_LEVELS || !opens(value)) {
    yield nestedText(value, level);
    return;
  }
  const inner = `${indent}  `;
  let first = true;
  if (Array.isArray(value)) {
    if (value.length === 0) {
      yield '[]';
      return;
    }
    if (level + 1 >= OPENED_LEVELS) {
      // Each run of items as JSON.stringify writes it inside the array (null for what it cannot hold), without the run's own brackets.
      for (let i = 0; i < value.length; i += ITEMS_A_CALL) {
        const text = nestedText(value.slice(i, i + ITEMS_A_CALL), level);
        yield `${i === 0 ? '[' : ','}\n${inner}${text.slice(2 + inner.length, text.length - indent.length - 2)}`;
      }
      yield `\n${indent}]`;
      return;
    }
    for (const item of value) {
      yield `${first ? '[' : ','}\n${inner}`;
      first = false;
      // An element JSON cannot hold is null in an array, as JSON.stringify writes it.
      yield* omitted(item) ? ['null'] : pieces(item, inner, level + 1);
    }
    yield `\n${indent}]`;
    return;
  }
  for (const key of Object.keys(value)) {
    const item = value[key];
    if (omitted(item)) continue;
    yield `${first ? '{' : ','}\n${inner}${JSON.stringify(key)}: `;
    first = false;
    yield* pieces(item, inner, level + 1);
  }
  yield first ? '{}' : `\n${indent}}`;
}

/** Whether JSON.stringify leaves `value` out of an object (and writes null for it in an array). */
function omitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** `JSON.stringify(value, null, 2)`, a piece at a time. */
export function jsonPieces(value: unknown): Iterable<string> {
  return pieces(value, '', 0);
}
