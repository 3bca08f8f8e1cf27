/**
 * YAML config files (goose's config.yaml). The yaml package's Document API keeps comments but
 * rewrites spacing when it prints a document again, so it is used here to read and to find where
 * things are: the entry is spliced into the text at the end of the block mapping it belongs to,
 * rendered at that mapping's indentation, and removing it cuts exactly its lines.
 */
import { isMap, isPair, isScalar, parseDocument, stringify, type Pair, type YAMLMap } from 'yaml';
import { connectErrors } from '../../shared/error-messages/connect.js';
import { indentTail, lineAndColumn, lineEnding, type OpenDocument, type ServersDocument } from './config-document.js';

function splice(text: string, start: number, end: number, insert: string): string {
  return text.slice(0, start) + insert + text.slice(end);
}

/** Where the line holding `offset` starts. */
const lineStart = (text: string, offset: number): number => text.lastIndexOf('\n', offset - 1) + 1;

/** The offset `[start, end)` of a node, from yaml's `range`. */
type Ranged = { range?: [number, number, number] | null };
const startOf = (node: unknown): number => (node as Ranged).range?.[0] ?? 0;
/** Where a node's value ends, its own trailing line break included, before any comment lines after it. */
const valueEnd = (node: unknown): number => (node as Ranged).range?.[1] ?? 0;

export const openYaml: OpenDocument = async (text, key, file) => {
  const doc = parseDocument(text, { keepSourceTokens: true });
  const fail = (offset: number, reason: string): never => {
    const at = lineAndColumn(text, offset);
    throw connectErrors.invalidConfig(file, at.line, at.column, reason);
  };
  const [error] = doc.errors;
  if (error !== undefined) fail(error.pos[0], error.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '') ?? 'not valid YAML');
  const root = doc.contents;
  const empty = root === null || (isScalar(root) && root.value === null);
  if (!empty && (!isMap(root) || root.flow)) fail(startOf(root), 'the file is not a YAML mapping');
  const top = empty ? null : (root as YAMLMap);
  const holder = top?.items.find((pair) => isScalar(pair.key) && pair.key.value === key) ?? null;
  const servers = holder?.value ?? null;
  const serversEmpty = servers === null || (isScalar(servers) && servers.value === null);
  if (!serversEmpty && (!isMap(servers) || servers.flow)) fail(startOf(servers), `'${key}' is not a block mapping`);
  const map = serversEmpty ? null : (servers as YAMLMap);
  const eol = lineEnding(text);
  const find = (name: string): Pair | undefined => map?.items.find((pair): pair is Pair => isPair(pair) && isScalar(pair.key) && pair.key.value === name);
  /** `name: value` as a block at `indent`, ending with a line break. */
  const render = (name: string, value: unknown, indent: string): string =>
    indent + indentTail(stringify({ [name]: value }, { indent: 2 }).trimEnd(), indent, eol) + eol;
  const ensureBreak = (at: number): string => (at > 0 && text[at - 1] !== '\n' ? eol : '');

  const document: ServersDocument = {
    entry: (name) => (find(name) === undefined ? undefined : (doc.toJS() as Record<string, Record<string, unknown>>)[key]?.[name]),
    withEntry(name, value) {
      const existing = find(name);
      if (existing !== undefined) {
        const from = lineStart(text, startOf(existing.key));
        const to = existing.value === null ? valueEnd(existing.key) : valueEnd(existing.value);
        return splice(text, from, to, render(name, value, text.slice(from, startOf(existing.key))));
      }
      if (map !== null) {
        const [first] = map.items;
        const indent = first === undefined ? '  ' : text.slice(lineStart(text, startOf(first.key)), startOf(first.key));
        const at = valueEnd(map);
        return splice(text, at, at, ensureBreak(at) + render(name, value, indent));
      }
      if (holder !== null) {
        // `extensions:` with nothing under it: the entry goes on the lines after the key.
        const keyIndent = text.slice(lineStart(text, startOf(holder.key)), startOf(holder.key));
        const lineEnd = text.indexOf('\n', startOf(holder.key));
        const at = lineEnd === -1 ? text.length : lineEnd + 1;
        return splice(text, at, at, ensureBreak(at) + render(name, value, `${keyIndent}  `));
      }
      return text + ensureBreak(text.length) + render(key, { [name]: value }, '');
    },
    withoutEntry(name) {
      const pair = find(name);
      if (pair === undefined) return text;
      const from = lineStart(text, startOf(pair.key));
      return splice(text, from, pair.value === null ? valueEnd(pair.key) : valueEnd(pair.value), '');
    },
  };
  return document;
};
