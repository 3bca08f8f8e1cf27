/**
 * Frontmatter through gray-matter with a YAML engine that refuses alias bombs and remembers where
 * each key was written, so a diagnostic about `metadata.classification.role` points at its line.
 */
import matter from 'gray-matter';
import { isMap, isScalar, LineCounter, parseDocument, type Document } from 'yaml';
import { splitFrontmatter } from '../markdown/frontmatter.js';
import type { DiagnosticList } from './diagnostics.js';

/** Aliases a frontmatter may expand before it is treated as a resource-exhaustion attack. */
const MAX_ALIAS_COUNT = 100;

export interface Frontmatter {
  data: Record<string, unknown>;
  body: string;
  bodyLine: number;
  /** File line of the key at `path` (or of its nearest written ancestor). */
  lineOf(path: readonly (string | number)[]): number;
}

class FrontmatterYamlError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/** Parses the frontmatter of LF-normalised SKILL.md text; reports E401/E402 and returns null on failure. */
export function parseFrontmatter(text: string, file: string, diagnostics: DiagnosticList): Frontmatter | null {
  const split = splitFrontmatter(text);
  if (!split.ok) {
    const message =
      split.reason === 'no-opening'
        ? 'missing frontmatter: file does not start with ---'
        : 'missing frontmatter: no closing --- found';
    diagnostics.add('E401', message, file, 1);
    return null;
  }
  const lineCounter = new LineCounter();
  let doc: Document | undefined;
  // gray-matter hands the engine the text after the opening `---` including its newline, so YAML line N is file line N.
  const engine = (source: string): object => {
    doc = parseDocument(source, { lineCounter, uniqueKeys: true });
    const error = doc.errors[0];
    if (error) throw new FrontmatterYamlError(error.message.split('\n')[0] ?? error.message, error.linePos?.[0].line ?? 2);
    try {
      return (doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as object | null) ?? {};
    } catch (cause) {
      throw new FrontmatterYamlError(`YAML aliases expand too far (${(cause as Error).message})`, 2);
    }
  };
  let data: unknown;
  try {
    const parsed = matter(text, { engines: { yaml: engine } });
    // gray-matter ends the block at the first line that merely starts with ---; RFC-0008 at a line
    // that is exactly ---. Where they differ, fields would be lost without a word: say so instead.
    if (parsed.matter.replace(/^\n/, '') !== split.yaml.replace(/\n$/, '')) {
      const early = split.yaml.split('\n').findIndex((line) => line.startsWith('---'));
      throw new FrontmatterYamlError('a frontmatter line starts with ---, which ends the block early; indent or quote it', early + 2);
    }
    data = parsed.data;
  } catch (error) {
    const line = error instanceof FrontmatterYamlError ? error.line : 2;
    diagnostics.add('E402', `invalid frontmatter YAML: ${(error as Error).message}`, file, line);
    return null;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    diagnostics.add('E402', 'invalid frontmatter YAML: the frontmatter must be a mapping of keys to values', file, 2);
    return null;
  }
  const lineOf = (path: readonly (string | number)[]): number => {
    let node: unknown = doc?.contents;
    let line = 2;
    for (const key of path) {
      if (!isMap(node)) break;
      const pair = node.items.find((p) => isScalar(p.key) && p.key.value === key);
      if (!pair) break;
      const offset = isScalar(pair.key) ? pair.key.range?.[0] : undefined;
      if (offset !== undefined) line = lineCounter.linePos(offset).line;
      node = pair.value;
    }
    return line;
  };
  return { data: data as Record<string, unknown>, body: split.body, bodyLine: split.bodyLine, lineOf };
}
