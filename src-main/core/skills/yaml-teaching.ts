/**
 * What a frontmatter's YAML errors mean to its author: each error at its line, in words, with the
 * likely fix ("quote the value"), every one of them and not only the first. And the one repair the
 * Agent Skills client guide asks hosts to make ("be lenient on YAML"): a plain value holding `: `
 * (`description: Deploy apps: use when deploying`), which strict YAML reads as a second key, is
 * read as the text it was meant to be, and the author is told how to write it strictly.
 */

/** The parts of a yaml library error this reads. */
export interface YamlProblem {
  code: string;
  message: string;
  linePos?: [{ line: number; col: number }, ...{ line: number; col: number }[]];
}

/** One error as the author should read it: its line (of the YAML text, which is the file's line) and a sentence. */
export interface TaughtError {
  line: number;
  message: string;
}

/** A value read leniently: where, which key, and the line as strict YAML wants it. */
export interface LenientValue {
  line: number;
  key: string;
  strict: string;
}

/** A `key: value` line whose value is a plain scalar (no quote, flow, block, anchor, tag or comment start). */
const KEY_VALUE = /^(\s*)(-\s+)?([A-Za-z_][\w.-]*):[ \t]+([^\s'"[\]{}|>&*!#%@`].*?)\s*$/;

/** The errors a plain value holding `: ` makes: a second key on the line, then one that spans lines. */
const COLON_CODES = new Set(['BLOCK_AS_IMPLICIT_KEY', 'MULTILINE_IMPLICIT_KEY']);

/** The line as strict YAML writes it: the value double-quoted (JSON's escapes are YAML's). */
function strictLine(indent: string, dash: string, key: string, value: string): string {
  return `${indent}${dash}${key}: ${JSON.stringify(value)}`;
}

/** Why an error happened and what to do, in words, for the codes authors meet. */
function sentence(problem: YamlProblem, lineText: string): string {
  const at = problem.linePos?.[0];
  const column = at === undefined ? '' : ` (column ${at.col})`;
  const pair = KEY_VALUE.exec(lineText);
  switch (problem.code) {
    case 'BLOCK_AS_IMPLICIT_KEY':
    case 'MULTILINE_IMPLICIT_KEY':
      if (pair !== null && pair[4]?.includes(': ')) {
        const [, indent = '', dash = '', key = '', value = ''] = pair;
        return `the value of '${key}' holds ': '${column}, which YAML reads as the start of another key; quote the value: ${strictLine(indent, dash, key, value).trim()}`;
      }
      return `a key's value runs on in a way YAML cannot read${column}; quote the value, or write it as a block (key: >, then the text indented on the lines below)`;
    case 'DUPLICATE_KEY':
      return `a key is written twice${column}; keep one of them`;
    case 'MISSING_CHAR':
      if (/quote/i.test(problem.message)) return 'a quoted value opens on this line and is never closed; end it with the quote it starts with';
      if (/\]/.test(problem.message)) return `a [list is never closed${column}; end it with ]`;
      if (/\}/.test(problem.message)) return `a {mapping is never closed${column}; end it with }`;
      return `something is missing${column}: ${firstLine(problem.message)}; check the quoting of the value`;
    case 'TAB_AS_INDENT':
      return `a tab indents this line${column}; YAML indents with spaces only`;
    case 'BAD_SCALAR_START': {
      const char = /character (\S)/.exec(problem.message)?.[1];
      return `a value cannot start with ${char === undefined ? 'this character' : `'${char}'`} unquoted${column}; quote the value`;
    }
    case 'BAD_INDENT':
      return `this line is indented wrongly${column}: a list or mapping inside a key is indented more than the key, and one that is closed ends with ] or }`;
    case 'UNEXPECTED_TOKEN':
      return `YAML did not expect what it found here${column} (${firstLine(problem.message)}); a value starting with '- ' or holding ': ' must be quoted`;
    default:
      return `${firstLine(problem.message)}; check the quoting and indentation of that line`;
  }
}

/** A message's first line, without the yaml library's own " at line L, column C:". */
function firstLine(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '');
}

/** The last line at or before `line` whose value opens a quote it does not close. */
function quoteOpening(lines: readonly string[], line: number): number | null {
  for (let at = Math.min(line, lines.length); at >= 1; at--) {
    const value = /^\s*(?:-\s+)?[^\s:][^:]*:\s+(["'])(.*)$/.exec(lines[at - 1] ?? '');
    if (value !== null && !(value[2] ?? '').replace(/\\./g, '').includes(value[1] as string)) return at;
  }
  return null;
}

/** Every error, one per line (the first error on a line explains it; the rest follow from it), in line order. */
export function teachYamlErrors(source: string, problems: readonly YamlProblem[]): TaughtError[] {
  const lines = source.split('\n');
  const byLine = new Map<number, TaughtError>();
  for (const problem of problems) {
    const reported = problem.linePos?.[0].line ?? 2;
    // The parser notices an unclosed quote where the text ends; the author needs the line it opens on.
    const line = problem.code === 'MISSING_CHAR' && /quote/i.test(problem.message) ? (quoteOpening(lines, reported) ?? reported) : reported;
    if (byLine.has(line)) continue;
    byLine.set(line, { line, message: sentence(problem, lines[line - 1] ?? '') });
  }
  return [...byLine.values()].sort((a, b) => a.line - b.line);
}

/**
 * The text with every plain value that holds `: ` quoted, when those are all its errors: the
 * repair the Agent Skills client guide asks for. A value that runs on to more indented lines is
 * folded into one (as YAML folds a plain scalar), those lines left blank so every line keeps its
 * number. Null when any error is of another kind, or a line cannot be repaired so.
 */
export function quoteColonValues(source: string, problems: readonly YamlProblem[]): { text: string; values: LenientValue[] } | null {
  if (problems.length === 0 || problems.some((p) => !COLON_CODES.has(p.code) || p.linePos === undefined)) return null;
  const lines = source.split('\n');
  const values: LenientValue[] = [];
  for (const line of new Set(problems.map((p) => (p.linePos as NonNullable<YamlProblem['linePos']>)[0].line))) {
    const pair = KEY_VALUE.exec(lines[line - 1] ?? '');
    if (pair === null || !(pair[4] ?? '').includes(': ') || / #/.test(pair[4] ?? '')) return null;
    const [, indent = '', dash = '', key = '', first = ''] = pair;
    const parts = [first];
    const keyIndent = indent.length + dash.length;
    for (let next = line; next < lines.length; next++) {
      const text = lines[next] as string;
      const own = text.length - text.trimStart().length;
      if (text.trim() === '' || own <= keyIndent || text.trimStart().startsWith('#')) break;
      parts.push(text.trim());
      lines[next] = '';
    }
    const value = parts.join(' ');
    const strict = strictLine(indent, dash, key, value);
    lines[line - 1] = strict;
    values.push({ line, key, strict: strict.trim() });
  }
  return { text: lines.join('\n'), values };
}
