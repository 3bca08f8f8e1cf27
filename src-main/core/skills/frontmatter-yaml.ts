/**
 * SKILL.md frontmatter: the YAML engine plugged into the one splitter
 * (core/markdown/frontmatter.ts). It refuses duplicate keys, alias bombs and frontmatter too big or
 * too deep (before parsing), and remembers where each key was written, so a diagnostic about
 * `metadata.classification.role` points at its line.
 */
import type * as Yaml from 'yaml';
import { lazyRequire } from '../lazy-require.js';
import { splitFrontmatter, type FrontmatterSplit } from '../markdown/frontmatter.js';
import type { DiagnosticList } from './diagnostics.js';
import { frontmatterOverDepth, frontmatterOverSize } from './frontmatter-limits.js';
import { readPlainYaml, type PlainYaml } from './plain-yaml.js';
import { quoteColonValues, teachYamlErrors, type LenientValue, type TaughtError } from './yaml-teaching.js';

const yaml = lazyRequire<typeof Yaml>('yaml');

/** Aliases a frontmatter may expand before it is treated as a resource-exhaustion attack. */
const MAX_ALIAS_COUNT = 100;

export interface Frontmatter {
  data: Record<string, unknown>;
  body: string;
  bodyLine: number;
  /** File line of the key at `path` (or of its nearest written ancestor). */
  lineOf(path: readonly (string | number)[]): number;
  /**
   * Whether a YAML 1.1 loader — js-yaml as gray-matter uses it, which most skill hosts do, and
   * PyYAML — reads the value at `path` as a date: this one, YAML 1.2's core schema, reads
   * `2026-03-05` as the string other hosts never see.
   */
  readsAsDate(path: readonly string[]): boolean;
  /** The text of the scalar at `path` as written (`2.0`, which YAML reads as the number 2), or null where no scalar is written. */
  textOf(path: readonly string[]): string | null;
}

class FrontmatterYamlError extends Error {
  /** Every error found, each at its line; a refusal before parsing is one. */
  readonly problems: TaughtError[];

  constructor(message: string, line: number, problems: TaughtError[] = [{ line, message }]) {
    super(message);
    this.problems = problems;
  }
}

const E401_MESSAGES = {
  'no-opening': 'missing frontmatter: file does not start with ---',
  'no-closing': 'missing frontmatter: no closing --- found',
} as const;

/** A document YAML refused, read again with each value holding `: ` quoted; else every error taught at its line. */
function lenientDocument(
  yamlText: string,
  failed: Yaml.Document,
): { doc: Yaml.Document; lineCounter: Yaml.LineCounter; source: string; values: LenientValue[] } {
  const { LineCounter, parseDocument } = yaml();
  const repaired = quoteColonValues(yamlText, failed.errors);
  const lineCounter = new LineCounter();
  const retry =
    repaired === null || frontmatterOverSize(repaired.text) !== null || frontmatterOverDepth(repaired.text) !== null
      ? null
      : parseDocument(repaired.text, { lineCounter, uniqueKeys: true });
  if (repaired === null || retry === null || retry.errors.length > 0) {
    const taught = teachYamlErrors(yamlText, failed.errors);
    throw new FrontmatterYamlError(taught[0]?.message ?? 'invalid YAML', taught[0]?.line ?? 2, taught);
  }
  return { doc: retry, lineCounter, source: repaired.text, values: repaired.values };
}

/**
 * Parses the frontmatter of LF-normalised SKILL.md text; reports E401/E402 and returns null on
 * failure. A frontmatter over the size limit is refused before anything reads it; plain YAML (most
 * frontmatter) is read by plain-yaml.ts, the rest by the yaml library once within the depth limit.
 */
export function parseFrontmatter(text: string, file: string, diagnostics: DiagnosticList): Frontmatter | null {
  let doc: Yaml.Document | undefined;
  let plain: PlainYaml | null = null;
  let lineCounter: Yaml.LineCounter | undefined;
  let source = '';
  let lenient: LenientValue[] = [];
  // The splitter hands the engine the text after the opening `---` including its newline, so YAML line N is file line N.
  const engine = (yamlText: string): object => {
    source = yamlText;
    const big = frontmatterOverSize(yamlText);
    if (big !== null) throw new FrontmatterYamlError(big.message, big.line);
    // Plain YAML declines whatever could nest past the depth limit, so only the library's text needs the depth scan.
    plain = readPlainYaml(yamlText);
    if (plain !== null) return plain.data;
    const deep = frontmatterOverDepth(yamlText);
    if (deep !== null) throw new FrontmatterYamlError(deep.message, deep.line);
    const { LineCounter, parseDocument } = yaml();
    lineCounter = new LineCounter();
    doc = parseDocument(yamlText, { lineCounter, uniqueKeys: true });
    // The Agent Skills client guide's leniency: values holding `: ` read as the text they were meant to be, and said so.
    if (doc.errors.length > 0) ({ doc, lineCounter, source, values: lenient } = lenientDocument(yamlText, doc));
    try {
      return (doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as object | null) ?? {};
    } catch (cause) {
      throw new FrontmatterYamlError(`YAML aliases expand too far (${(cause as Error).message})`, 2);
    }
  };
  let split: FrontmatterSplit;
  try {
    split = splitFrontmatter(text, engine);
  } catch (error) {
    const problems = error instanceof FrontmatterYamlError ? error.problems : [{ line: 2, message: (error as Error).message }];
    for (const problem of problems) diagnostics.add('E402', `invalid frontmatter YAML: ${problem.message}`, file, problem.line);
    return null;
  }
  if (!split.ok) {
    if (split.reason === 'early-close') {
      // gray-matter, and hosts built on it, end the block there and the RFC does not: refuse rather than lose fields.
      diagnostics.add('E402', 'invalid frontmatter YAML: a frontmatter line starts with ---, which ends the block early; indent or quote it', file, split.line);
    } else {
      diagnostics.add('E401', E401_MESSAGES[split.reason], file, split.line);
    }
    return null;
  }
  for (const value of lenient) {
    diagnostics.add(
      'W419',
      `the value of '${value.key}' holds ': ', which strict YAML (gray-matter, PyYAML, other hosts) reads as another key: Skilltray reads it as text, as the Agent Skills client guide asks; write it strictly: ${value.strict}`,
      file,
      value.line,
    );
  }
  const { data } = split;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    diagnostics.add('E402', 'invalid frontmatter YAML: the frontmatter must be a mapping of keys to values', file, 2);
    return null;
  }
  const read = plain as PlainYaml | null;
  const lineOf = (path: readonly (string | number)[]): number => {
    if (read !== null) return read.lineOf(path, 2);
    const { isMap, isScalar } = yaml();
    let node: unknown = doc?.contents;
    let line = 2;
    for (const key of path) {
      if (!isMap(node)) break;
      const pair = node.items.find((p) => isScalar(p.key) && p.key.value === key);
      if (!pair) break;
      const offset = isScalar(pair.key) ? pair.key.range?.[0] : undefined;
      if (offset !== undefined && lineCounter !== undefined) line = lineCounter.linePos(offset).line;
      node = pair.value;
    }
    return line;
  };
  let asYaml11: unknown;
  const readsAsDate = (path: readonly string[]): boolean => {
    // Parsed again only when asked, for a value that looks like a date: rare, and cheap next to a second parser.
    asYaml11 ??= yaml().parseDocument(source, { customTags: ['timestamp'] }).toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as unknown;
    let node = asYaml11;
    for (const key of path) node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined;
    return node instanceof Date;
  };
  const textOf = (path: readonly string[]): string | null => {
    if (read === null) {
      const { isMap, isScalar } = yaml();
      let node: unknown = doc?.contents;
      for (const key of path) node = isMap(node) ? node.items.find((p) => isScalar(p.key) && p.key.value === key)?.value : undefined;
      return isScalar(node) && node.range !== undefined && node.range !== null ? source.slice(node.range[0], node.range[1]) : null;
    }
    // Plain YAML is one key and one scalar a line, and YAML line N is file line N: the scalar is what follows the key's colon.
    const line = read.lineOf(path, 0);
    const written = line === 0 ? undefined : source.split('\n')[line - 1];
    const colon = written?.indexOf(':') ?? -1;
    return written === undefined || colon === -1 ? null : written.slice(colon + 1).trim();
  };
  return { data: data as Record<string, unknown>, body: split.body, bodyLine: split.bodyLine, lineOf, readsAsDate, textOf };
}
