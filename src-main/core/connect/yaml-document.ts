/**
 * YAML config files (goose's config.yaml). The yaml package's Document API keeps comments but
 * rewrites spacing when it prints a document again, so it is used here to read and to find where
 * things are, and the entry is spliced into the text:
 * - in a block mapping, as a block at that mapping's indentation, after its last entry;
 * - in a flow mapping (`extensions: {}`, `{GOOSE_MODEL: x, extensions: {…}}`), as one flow pair after
 *   the last one, so removing it again gives back the file as it was;
 * - under a key with no value (`extensions:`, `~`, `null`), as a block on the lines after the key.
 * Removing it cuts exactly its text (its lines in a block mapping; the pair and one comma in a flow one).
 */
import { isMap, isPair, isScalar, parseDocument, stringify, type Pair, type YAMLMap } from 'yaml';
import { connectErrors } from '../../shared/error-messages/connect.js';
import { indentTail, lineAndColumn, lineEnding, type OpenDocument, type ServersDocument } from './config-document.js';

function splice(text: string, start: number, end: number, insert: string): string {
  return text.slice(0, start) + insert + text.slice(end);
}

/** Where the line holding `offset` starts. */
const lineStart = (text: string, offset: number): number => text.lastIndexOf('\n', offset - 1) + 1;

/** Past the line break of the line holding `offset` (the text's end when it has none). */
const pastLine = (text: string, offset: number): number => {
  const at = text.indexOf('\n', offset);
  return at === -1 ? text.length : at + 1;
};

/** The offset `[start, end)` of a node, from yaml's `range`. */
type Ranged = { range?: [number, number, number] | null };
const startOf = (node: unknown): number => (node as Ranged).range?.[0] ?? 0;
/** Where a node's value ends (a block collection's own trailing line break included, a scalar's or flow collection's not). */
const valueEnd = (node: unknown): number => (node as Ranged).range?.[1] ?? 0;

/** Whether a value is YAML's null (`extensions:`, `~`, `null`, `!!null`). */
const isNull = (node: unknown): boolean => node === null || node === undefined || (isScalar(node) && node.value === null);

/** A value in flow style on one line, strings double-quoted so no YAML reader takes one for anything else. */
const flow = (value: unknown): string =>
  stringify(value, { collectionStyle: 'flow', lineWidth: 0, defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN' }).trimEnd();

/** The pair named `name` in a mapping's items. */
const pairIn = (map: YAMLMap | null, name: string): Pair | undefined =>
  map?.items.find((pair): pair is Pair => isPair(pair) && isScalar(pair.key) && pair.key.value === name);

/** Edits of one flow mapping `map` of `text`: its pairs are spliced in and cut out as flow text. */
function flowEdits(text: string, map: YAMLMap) {
  return {
    /** The text with `name: value` replacing the pair `existing`, or added after the last pair. */
    with(name: string, value: unknown, existing: Pair | undefined): string {
      const pair = `${name}: ${flow(value)}`;
      if (existing !== undefined) return splice(text, startOf(existing.key), valueEnd(existing.value), pair);
      const last = map.items.at(-1);
      if (last === undefined) return splice(text, startOf(map) + 1, startOf(map) + 1, pair);
      const at = valueEnd(last.value ?? last.key);
      return splice(text, at, at, `, ${pair}`);
    },
    /** The text without `pair`, and without the comma before it (else after it), so an added pair leaves as it came. */
    without(pair: Pair): string {
      const from = startOf(pair.key);
      const to = valueEnd(pair.value ?? pair.key);
      const before = /,\s*$/.exec(text.slice(startOf(map), from));
      if (before !== null) return splice(text, from - before[0].length, to, '');
      const after = /^[ \t]*,[ \t]*/.exec(text.slice(to));
      return splice(text, from, to + (after?.[0].length ?? 0), '');
    },
  };
}

export const openYaml: OpenDocument = async (text, key, file) => {
  const doc = parseDocument(text, { keepSourceTokens: true });
  const fail = (offset: number, reason: string): never => {
    const at = lineAndColumn(text, offset);
    throw connectErrors.invalidConfig(file, at.line, at.column, reason);
  };
  const [error] = doc.errors;
  if (error !== undefined) fail(error.pos[0], error.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '') ?? 'not valid YAML');
  const root = doc.contents;
  if (!isNull(root) && !isMap(root)) fail(startOf(root), 'the file is not a YAML mapping');
  const top = isNull(root) ? null : (root as YAMLMap);
  const holder = top?.items.find((pair) => isScalar(pair.key) && pair.key.value === key) ?? null;
  const servers = holder?.value ?? null;
  if (!isNull(servers) && !isMap(servers)) fail(startOf(servers), `'${key}' is not a mapping`);
  const map = isNull(servers) ? null : (servers as YAMLMap);
  const eol = lineEnding(text);
  /** `name: value` as a block at `indent`, ending with a line break. */
  const render = (name: string, value: unknown, indent: string): string =>
    indent + indentTail(stringify({ [name]: value }, { indent: 2 }).trimEnd(), indent, eol) + eol;
  const ensureBreak = (at: number): string => (at > 0 && text[at - 1] !== '\n' ? eol : '');

  /** The text with `name: value` added to (or replacing its pair in) the block mapping `map`. */
  function inBlock(blockMap: YAMLMap, name: string, value: unknown): string {
    const existing = pairIn(blockMap, name);
    if (existing !== undefined) {
      const from = lineStart(text, startOf(existing.key));
      return splice(text, from, pastLine(text, valueEnd(existing.value ?? existing.key) - 1), render(name, value, text.slice(from, startOf(existing.key))));
    }
    const [first] = blockMap.items;
    const indent = first === undefined ? '  ' : text.slice(lineStart(text, startOf(first.key)), startOf(first.key));
    const at = valueEnd(blockMap);
    return splice(text, at, at, ensureBreak(at) + render(name, value, indent));
  }

  /** The text with the servers map `{ name: value }` as the value of `holder`, whose value is null. */
  function underNullKey(pair: Pair, name: string, value: unknown): string {
    // Whatever spells the null (`~`, `null`, `!!null`) goes; a comment after it stays on the key's line.
    const colon = text.indexOf(':', valueEnd(pair.key));
    const nullEnd = Math.max(colon + 1, valueEnd(pair.value));
    if (top?.flow) return splice(text, colon + 1, nullEnd, ` ${flow({ [name]: value })}`);
    const cut = splice(text, colon + 1, nullEnd, '');
    const at = pastLine(cut, colon);
    const keyIndent = text.slice(lineStart(text, startOf(pair.key)), startOf(pair.key));
    return splice(cut, at, at, (at > 0 && cut[at - 1] !== '\n' ? eol : '') + render(name, value, `${keyIndent}  `));
  }

  const document: ServersDocument = {
    entry: (name) => (pairIn(map, name) === undefined ? undefined : (doc.toJS() as Record<string, Record<string, unknown>>)[key]?.[name]),
    withEntry(name, value) {
      if (map !== null) return map.flow ? flowEdits(text, map).with(name, value, pairIn(map, name)) : inBlock(map, name, value);
      if (holder !== null) return underNullKey(holder, name, value);
      if (top?.flow) return flowEdits(text, top).with(key, { [name]: value }, undefined);
      return text + ensureBreak(text.length) + render(key, { [name]: value }, '');
    },
    withoutEntry(name) {
      const pair = pairIn(map, name);
      if (map === null || pair === undefined) return text;
      if (map.flow) return flowEdits(text, map).without(pair);
      return splice(text, lineStart(text, startOf(pair.key)), pastLine(text, valueEnd(pair.value ?? pair.key) - 1), '');
    },
  };
  return document;
};
