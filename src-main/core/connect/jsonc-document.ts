/**
 * JSON and JSONC config files (Claude Desktop, Claude Code, Cursor, VS Code, Windsurf, Zed), edited
 * as text at positions jsonc-parser's syntax tree gives. jsonc-parser's own `modify` reformats the
 * neighbouring entry and moves its trailing comment, so the edit here is a splice: the entry is
 * inserted before the first server (or replaces its own value), and removing it cuts exactly that.
 */
import { findNodeAtLocation, getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { connectErrors } from '../../shared/error-messages/connect.js';
import { indentTail, lineAndColumn, lineEnding, type OpenDocument, type ServersDocument } from './config-document.js';

/** The whitespace that starts the line `offset` is on, when only whitespace precedes it there. */
function lineIndent(text: string, offset: number): string | null {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const prefix = text.slice(lineStart, offset);
  return /^[ \t]*$/.test(prefix) ? prefix : null;
}

function splice(text: string, start: number, end: number, insert: string): string {
  return text.slice(0, start) + insert + text.slice(end);
}

const end = (node: Node): number => node.offset + node.length;

/** The property nodes of an object node. */
const properties = (node: Node | undefined): Node[] => node?.children ?? [];

const keyOf = (property: Node): unknown => property.children?.[0]?.value;

export const openJsonc: OpenDocument = async (text, key, file) => {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true });
  const fail = (offset: number, reason: string): never => {
    const at = lineAndColumn(text, offset);
    throw connectErrors.invalidConfig(file, at.line, at.column, reason);
  };
  const [first] = errors;
  if (first !== undefined)
    fail(
      first.offset,
      printParseErrorCode(first.error)
        .replace(/([a-z])([A-Z])/g, '$1 $2')
        .toLowerCase(),
    );
  if (root !== undefined && root.type !== 'object') fail(root.offset, 'the file is not a JSON object');
  const servers = root === undefined ? undefined : findNodeAtLocation(root, [key]);
  if (servers !== undefined && servers.type !== 'object') fail(servers.offset, `"${key}" is not an object`);

  const eol = lineEnding(text);
  const firstRoot = properties(root)[0];
  // The file's indent unit: how far its first property is indented (two spaces when it says nothing).
  const unit = (firstRoot && lineIndent(text, firstRoot.offset)) || '  ';
  const render = (value: unknown, base: string): string => indentTail(JSON.stringify(value, null, unit.includes('\t') ? '\t' : unit.length), base, eol);
  const find = (name: string): Node | undefined => properties(servers).find((p) => keyOf(p) === name);

  const document: ServersDocument = {
    entry(name) {
      const value = find(name)?.children?.[1];
      // getNodeValue builds prototype-less objects; plain ones compare equal to the entry `connect` would write.
      return value === undefined ? undefined : JSON.parse(JSON.stringify(getNodeValue(value)));
    },
    withEntry(name, value) {
      const existing = find(name);
      const valueNode = existing?.children?.[1];
      if (existing !== undefined && valueNode !== undefined)
        return splice(text, valueNode.offset, end(valueNode), render(value, lineIndent(text, existing.offset) ?? unit));
      const property = (indent: string): string => `${JSON.stringify(name)}: ${render(value, indent)}`;
      if (servers !== undefined) {
        const [firstServer] = properties(servers);
        const outer = (servers.parent && lineIndent(text, servers.parent.offset)) ?? '';
        if (firstServer === undefined) return splice(text, servers.offset, end(servers), `{${eol}${outer}${unit}${property(outer + unit)}${eol}${outer}}`);
        const indent = lineIndent(text, firstServer.offset) ?? outer + unit;
        return splice(text, firstServer.offset, firstServer.offset, `${property(indent)},${eol}${indent}`);
      }
      const block = (outer: string): string => `${JSON.stringify(key)}: {${eol}${outer}${unit}${property(outer + unit)}${eol}${outer}}`;
      if (root !== undefined && firstRoot !== undefined) {
        const indent = lineIndent(text, firstRoot.offset) ?? unit;
        return splice(text, firstRoot.offset, firstRoot.offset, `${block(indent)},${eol}${indent}`);
      }
      const object = `{${eol}${unit}${block(unit)}${eol}}`;
      if (root !== undefined) return splice(text, root.offset, end(root), object);
      return text.trim() === '' ? `${object}${eol}` : `${text}${text.endsWith('\n') ? '' : eol}${object}${eol}`;
    },
    withoutEntry(name) {
      const property = find(name);
      if (property === undefined || servers === undefined) return text;
      const siblings = properties(servers);
      const at = siblings.indexOf(property);
      const next = siblings[at + 1];
      if (next !== undefined) return splice(text, property.offset, next.offset, '');
      const previous = siblings[at - 1];
      if (previous === undefined) return splice(text, servers.offset, end(servers), '{}');
      // The last of several (someone added servers after it): drop the comma that led to it and its own line.
      const comma = text.indexOf(',', end(previous));
      const ownLine = lineIndent(text, property.offset) !== null;
      const start = ownLine ? text.lastIndexOf('\n', property.offset - 1) : property.offset;
      const cut = splice(text, ownLine && text[start - 1] === '\r' ? start - 1 : start, end(property), '');
      return comma >= 0 && comma < property.offset ? splice(cut, comma, comma + 1, '') : cut;
    },
  };
  return document;
};
