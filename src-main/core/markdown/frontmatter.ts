/**
 * The one frontmatter splitter: gray-matter, with the caller's YAML engine, held to RFC-0008 SKL100
 * where gray-matter is looser. gray-matter opens on any first line starting with `---` (and picks an
 * engine, even JavaScript, from the rest of that line) and closes at the first line that merely
 * starts with `---`; the RFC wants both lines to be exactly `---`. So the opening line is checked
 * before gray-matter sees the text, and the closing line gray-matter chose is checked after.
 * markdownBody, for callers that need only the body, finds the same lines without gray-matter.
 */
import type matter from 'gray-matter';
import { lazyRequire } from '../lazy-require.js';

const grayMatter = lazyRequire<typeof matter>('gray-matter');

/** Parses the YAML between the delimiters (line 1 of its input is the rest of the file's line 1). */
export type YamlEngine = (yaml: string) => object;

export type FrontmatterSplit =
  | { ok: true; data: unknown; body: string; bodyLine: number }
  /** `early-close`: gray-matter would end the block at `line`, which starts with `---` but is not exactly `---`. */
  | { ok: false; reason: 'no-opening' | 'no-closing' | 'early-close'; line: number };

const DELIMITER = '---';

const isDelimiter = (line: string): boolean => line.trimEnd() === DELIMITER;

const lineAt = (text: string, offset: number): string => {
  const end = text.indexOf('\n', offset);
  return text.slice(offset, end === -1 ? undefined : end);
};

/**
 * Splits LF-normalised text into parsed frontmatter and body. A structural failure wins over a YAML
 * error (an unclosed block is reported as such, whatever its YAML); a YAML error on a well-formed
 * block is thrown as the engine threw it.
 */
export function splitFrontmatter(text: string, parse: YamlEngine): FrontmatterSplit {
  if (!isDelimiter(lineAt(text, 0))) return { ok: false, reason: 'no-opening', line: 1 };
  const engineErrors: unknown[] = [];
  const engine = (yaml: string): object => {
    try {
      return parse(yaml);
    } catch (error) {
      engineErrors.push(error);
      return {};
    }
  };
  // Options on every call: gray-matter caches by content only when called without them, and a
  // cached result would hand one file's parsed data (and the engine's side effects) to another.
  const file = grayMatter()(text, { engines: { yaml: engine } });
  // The opening line is `---` plus only whitespace, so gray-matter's block starts right after `---`
  // and ends where it found `\n---`; at the end of the text it found none.
  const closeAt = DELIMITER.length + file.matter.length;
  if (closeAt >= text.length) return { ok: false, reason: 'no-closing', line: 1 };
  const closingLine = text.slice(0, closeAt + 1).split('\n').length;
  if (!isDelimiter(lineAt(text, closeAt + 1))) return { ok: false, reason: 'early-close', line: closingLine };
  if (engineErrors.length > 0) throw engineErrors[0];
  const bodyStart = text.indexOf('\n', closeAt + 1);
  return { ok: true, data: file.data, body: bodyStart === -1 ? '' : text.slice(bodyStart + 1), bodyLine: closingLine + 1 };
}

/** Newlines in `text` before `end`. */
function newlinesBefore(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * The body of a Markdown file with any leading frontmatter removed (its YAML is not read), and the
 * line it starts on: the body splitFrontmatter gives, found without loading gray-matter (outline and
 * the index read thousands of files and need no data). It follows gray-matter's rule as
 * splitFrontmatter does — the block closes at the first `\n---` — and a property test holds the two
 * to the same answer.
 */
export function markdownBody(text: string): { body: string; bodyLine: number } {
  const whole = { body: text, bodyLine: 1 };
  if (!isDelimiter(lineAt(text, 0))) return whole;
  const closeAt = text.indexOf(`\n${DELIMITER}`, DELIMITER.length);
  if (closeAt === -1 || !isDelimiter(lineAt(text, closeAt + 1))) return whole;
  const bodyStart = text.indexOf('\n', closeAt + 1);
  // The closing line is the one after the newline at closeAt; the body starts on the line after it.
  return { body: bodyStart === -1 ? '' : text.slice(bodyStart + 1), bodyLine: newlinesBefore(text, closeAt) + 3 };
}
