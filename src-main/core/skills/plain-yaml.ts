/**
 * The plain YAML most frontmatter is written in, read without the yaml library: block mappings of
 * simple keys, one-line scalars (plain, or quoted without escapes), block sequences of such scalars
 * and one-line flow sequences (`[a, b]`), resolved by YAML 1.2's core schema as the yaml library
 * resolves them. Parsing 10,000 SKILL.md files is most of a cold `list`, and the library costs half
 * a millisecond a file. Anything else — block scalars, anchors, tags, flow mappings, a multi-line
 * scalar, escapes, a comment after a value, a duplicate key — is handed to the library (null), so
 * what this returns is always what the library would; a property test holds the two to that.
 */

import { MAX_FRONTMATTER_DEPTH } from './frontmatter-limits.js';

/** What was read: the data, and the line each key of each mapping was written on. */
export interface PlainYaml {
  data: Record<string, unknown>;
  /** File line of the key at `path` (or of its nearest written ancestor); `fallback` when none is written. */
  lineOf(path: readonly (string | number)[], fallback: number): number;
}

/** Hands the text to the yaml library. */
class NotPlain extends Error {}

/**
 * Mappings this reader nests before it declines (the text then meets the depth scan of
 * frontmatter-limits.ts, then the library). That scan counts a mapping's keys one level deeper than
 * its parent's, and at most three more below the deepest: an indented sequence's indentation, its
 * `- `, and the `[` of a flow sequence as an item. So what this reads nests within the limit too.
 */
const MAX_MAPPING_LEVELS = MAX_FRONTMATTER_DEPTH - 3;

const KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;
/** Characters the core schema or the library treat in ways this reader does not follow (control characters among them, on purpose). */
// eslint-disable-next-line no-control-regex
const UNUSUAL = /[\t\r\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]/;
/** A plain scalar may not start with one of these (YAML's c-indicator), nor with `-` `?` `:` and a space. */
const INDICATOR_START = /^[?:,[\]{}#&*!|>'"%@`]|^-(?:\s|$)/;

// YAML 1.2 core schema (yaml's schema/core): the plain scalars that are not strings.
const NULL = /^(?:~|[Nn]ull|NULL)?$/;
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const DECIMAL = /^[-+]?[0-9]+$/;
const OTHER_NUMBERS = [/^0o[0-7]+$/, /^0x[0-9a-fA-F]+$/, /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/, /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/, /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/];

/** Letters no null, boolean or number of the core schema starts with: a scalar starting with one is a string. */
const ONLY_STRINGS = /^[A-EG-MO-SU-Za-eg-mo-su-z]/;

/** A plain scalar's value under the core schema. */
function resolvePlain(text: string): unknown {
  // Most scalars are words (names, descriptions, tags): one test instead of the eight below.
  if (ONLY_STRINGS.test(text)) return text;
  if (NULL.test(text)) return null;
  if (BOOL.test(text)) return text[0] === 't' || text[0] === 'T';
  if (DECIMAL.test(text)) {
    // Beyond 15 digits the library's rounding is its own business.
    if (text.replace(/^[-+]/, '').length > 15) throw new NotPlain();
    return Number(text);
  }
  if (OTHER_NUMBERS.some((re) => re.test(text))) throw new NotPlain();
  return text;
}

/** A one-line plain scalar in block context: no `: `, no ` #`, no indicator first, no `:` last. */
function plainScalar(text: string): unknown {
  if (INDICATOR_START.test(text) || text.includes(': ') || text.includes(' #') || text.endsWith(':')) throw new NotPlain();
  return resolvePlain(text);
}

/** A quoted scalar that is the whole of `text`: '…' with '' for a quote, or "…" without escapes. */
function quotedScalar(text: string): string {
  const quote = text[0] as string;
  const inner = text.slice(1, -1);
  if (text.length < 2 || text[text.length - 1] !== quote) throw new NotPlain();
  if (quote === '"') {
    if (inner.includes('"') || inner.includes('\\')) throw new NotPlain();
    return inner;
  }
  if (inner.replace(/''/g, '').includes("'")) throw new NotPlain();
  return inner.replace(/''/g, "'");
}

/** A flow sequence on one line, `[a, 'b', "c"]`, of scalars only. */
function flowSequence(text: string): unknown[] {
  if (!text.endsWith(']')) throw new NotPlain();
  const inner = text.slice(1, -1).trim();
  if (inner === '') return [];
  const items: unknown[] = [];
  for (const raw of splitFlowItems(inner)) {
    const item = raw.trim();
    if (item === '') throw new NotPlain();
    if (item[0] === '"' || item[0] === "'") items.push(quotedScalar(item));
    // A quote inside a plain item is where readers disagree (`[a","]` is an unclosed string to YAML): decline it.
    else if (/[[\]{}#:"']/.test(item)) throw new NotPlain();
    else items.push(plainScalar(item));
  }
  return items;
}

/** The items of a flow sequence's inside, split at commas outside quotes; a quote opens a string only where an item starts. */
function splitFlowItems(inner: string): string[] {
  const items: string[] = [];
  let start = 0;
  let quote: string | null = null;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (quote !== null) {
      // '' inside single quotes is one quote, not the end of the string.
      if (c === "'" && quote === "'" && inner[i + 1] === "'") i++;
      else if (c === quote) quote = null;
    } else if ((c === '"' || c === "'") && inner.slice(start, i).trim() === '') quote = c;
    else if (c === ',') {
      items.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  if (quote !== null) throw new NotPlain();
  items.push(inner.slice(start));
  return items;
}

/** A value written after `key: ` or `- ` on one line. */
function inlineValue(text: string): unknown {
  if (text[0] === '"' || text[0] === "'") return quotedScalar(text);
  if (text[0] === '[') return flowSequence(text);
  return plainScalar(text);
}

interface Line {
  number: number;
  indent: number;
  text: string;
}

/** Reads `source` (the text between the `---` lines; its line N is the file's line N) if it is plain YAML; null otherwise. */
export function readPlainYaml(source: string): PlainYaml | null {
  if (UNUSUAL.test(source)) return null;
  const lines: Line[] = [];
  source.split('\n').forEach((raw, i) => {
    const text = raw.trimEnd();
    const indent = text.length - text.trimStart().length;
    if (text === '' || text[indent] === '#') return;
    lines.push({ number: i + 1, indent, text: text.slice(indent) });
  });
  if (lines.length === 0 || (lines[0] as Line).indent !== 0) return null;
  const keyLines = new WeakMap<object, Map<string, number>>();
  let at = 0;

  /** A block mapping whose keys sit at `indent`, `level` mappings deep (the top one is 1). */
  const mapping = (indent: number, level: number): Record<string, unknown> => {
    if (level > MAX_MAPPING_LEVELS) throw new NotPlain();
    const map: Record<string, unknown> = {};
    const written = new Map<string, number>();
    keyLines.set(map, written);
    while (at < lines.length && (lines[at] as Line).indent === indent) {
      const line = lines[at] as Line;
      const colon = line.text.indexOf(':');
      const key = line.text.slice(0, colon);
      if (colon <= 0 || !KEY.test(key) || key === '__proto__' || written.has(key)) throw new NotPlain();
      const rest = line.text.slice(colon + 1);
      if (rest !== '' && rest[0] !== ' ') throw new NotPlain();
      written.set(key, line.number);
      at++;
      const value = rest.trim();
      map[key] = value === '' ? nested(indent, level) : inlineValue(value);
    }
    // A more indented line here would continue a scalar (a multi-line one) or nest under one: not plain.
    if (at < lines.length && (lines[at] as Line).indent > indent) throw new NotPlain();
    return map;
  };

  /** A key's value (in a mapping `level` deep) with nothing after its colon: a more indented mapping or sequence, one at the key's indentation, or null. */
  const nested = (indent: number, level: number): unknown => {
    const next = lines[at];
    if (next === undefined || next.indent < indent) return null;
    const isItem = next.text === '-' || next.text.startsWith('- ');
    if (next.indent === indent) return isItem ? sequence(indent) : null;
    return isItem ? sequence(next.indent) : mapping(next.indent, level + 1);
  };

  /** A block sequence of one-line scalars whose `- ` sit at `indent`. */
  const sequence = (indent: number): unknown[] => {
    const items: unknown[] = [];
    while (at < lines.length && (lines[at] as Line).indent === indent && (lines[at] as Line).text.startsWith('- ')) {
      const text = (lines[at] as Line).text.slice(2).trim();
      at++;
      if (text === '' || /^[A-Za-z_][A-Za-z0-9_-]*:(?:\s|$)/.test(text)) throw new NotPlain();
      items.push(inlineValue(text));
    }
    const next = lines[at];
    if (next !== undefined && (next.indent > indent || (next.indent === indent && next.text.startsWith('-')))) throw new NotPlain();
    return items;
  };

  try {
    const data = mapping(0, 1);
    if (at < lines.length) return null;
    return {
      data,
      lineOf(path, fallback) {
        let node: unknown = data;
        let line = fallback;
        for (const key of path) {
          const written = typeof node === 'object' && node !== null && !Array.isArray(node) ? keyLines.get(node) : undefined;
          const found = typeof key === 'string' ? written?.get(key) : undefined;
          if (found === undefined) break;
          line = found;
          node = (node as Record<string, unknown>)[key];
        }
        return line;
      },
    };
  } catch (error) {
    if (error instanceof NotPlain) return null;
    throw error;
  }
}
