/**
 * The Type column of a tool's Parameters table: `string`, `integer`, `number`, `boolean`, each
 * with optional modifiers (`string, allow-dash`), or `enum: a, b, c`. The loader turns an error
 * here into diagnostic E412, so messages name exactly what was wrong.
 */
import type { ParamType } from '../../shared/model.js';

/** A Type cell as understood: the base type, its enum values (empty unless enum) and modifiers. */
export interface ParamTypeSpec {
  type: ParamType;
  enumValues: string[];
  allowDash: boolean;
}

const BASE_TYPES: readonly ParamType[] = ['string', 'integer', 'number', 'boolean'];
const EXPECTED = 'expected string, integer, number, boolean (optionally followed by ", allow-dash") or "enum: a, b, c"';

/**
 * `text`'s comma-separated pieces, trimmed, in an array built by push: one made by map deopts the
 * optimised code that reads it (plain-blocks.ts says why).
 */
function commaPieces(text: string): string[] {
  const pieces: string[] = [];
  for (const piece of text.split(',')) pieces.push(piece.trim());
  return pieces;
}

function parseEnum(list: string): ParamTypeSpec | { error: string } {
  const values = commaPieces(list);
  if (values.length === 1 && values[0] === '') return { error: 'enum has no values: write them after the colon, e.g. "enum: short, long"' };
  const seen = new Set<string>();
  for (const value of values) {
    if (value === '') return { error: `enum "${list.trim()}" has an empty value (two commas in a row, or a trailing comma)` };
    if (seen.has(value)) return { error: `enum value "${value}" is listed twice` };
    seen.add(value);
  }
  return { type: 'enum', enumValues: values, allowDash: false };
}

/** Parses a Type cell; `{ error }` says what is wrong with it. */
export function parseParamType(text: string): ParamTypeSpec | { error: string } {
  const trimmed = text.trim();
  const enumMatch = /^enum\s*:(.*)$/is.exec(trimmed);
  if (enumMatch) return parseEnum(enumMatch[1] as string);
  if (/^enum$/i.test(trimmed)) return { error: 'enum needs its values after a colon, e.g. "enum: short, medium, long"' };
  const [base = '', ...modifiers] = commaPieces(trimmed);
  const type = BASE_TYPES.find((candidate) => candidate === base.toLowerCase());
  if (type === undefined) return { error: trimmed === '' ? `type is empty (${EXPECTED})` : `unknown type "${base}" (${EXPECTED})` };
  let allowDash = false;
  for (const modifier of modifiers) {
    if (modifier.toLowerCase() === 'allow-dash') allowDash = true;
    else if (modifier === '') return { error: `empty modifier in "${trimmed}" (the only modifier is allow-dash)` };
    else return { error: `unknown modifier "${modifier}" in "${trimmed}" (the only modifier is allow-dash)` };
  }
  return { type, enumValues: [], allowDash };
}
