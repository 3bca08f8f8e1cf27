/** The one way text is read for parsing: LF-normalised, without a BOM. */
import { readFileSync } from 'node:fs';

/** LF-normalised text of a file: BOM stripped, CRLF and lone CR turned into LF. */
export function normaliseText(raw: string): string {
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  // Most files have no CR at all: finding none is cheaper than a replace that changes nothing.
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}

/** Reads a text file for parsing (not for `open`, which returns bytes as they are). */
export function readText(abs: string): string {
  return normaliseText(readFileSync(abs, 'utf8'));
}
