/**
 * What every config format module gives: the servers map of a client's config file, read and edited
 * as text so that everything outside Skilltray's own entry stays byte for byte as it was (other
 * servers, comments, indentation, key order). A file that does not parse throws E850.
 */

export interface ServersDocument {
  /** The value of entry `name` in the servers map; undefined when absent. */
  entry(name: string): unknown;
  /** The text with entry `name` set to `value` (added where absent); the rest untouched. */
  withEntry(name: string, value: unknown): string;
  /** The text without entry `name` (unchanged when absent). */
  withoutEntry(name: string): string;
}

/** Opens `text` (the content of `file`, for error messages) at the servers map under `key`. */
export type OpenDocument = (text: string, key: string, file: string) => Promise<ServersDocument>;

/** 1-based line and column of `offset` in `text`. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: offset - lineStart + 1 };
}

/** The file's line ending: CRLF when it uses one, else LF. */
export function lineEnding(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/** Indents every line of `block` after the first by `indent`. */
export function indentTail(block: string, indent: string, eol: string): string {
  return block
    .split('\n')
    .map((line, i) => (i === 0 || line === '' ? line : indent + line))
    .join(eol);
}
