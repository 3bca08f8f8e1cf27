/**
 * The one frontmatter splitter, held to RFC-0008 SKL100: the opening and closing lines are exactly
 * `---`. It follows gray-matter's rule for where the block ends (the first line that starts with
 * `---`) so that hosts built on gray-matter and Skilltray agree on the split, and refuses where
 * gray-matter alone would close early. gray-matter itself is not used: it copies each text into a
 * Buffer and costs a cold load of 10,000 skills half a second; a property test holds the two to the
 * same answer. markdownBody, for callers that need only the body, finds the same lines without the YAML.
 */

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

/** gray-matter's test for a block with nothing to parse: only comment lines and whitespace (the engine is then not called). */
const isEmptyBlock = (block: string): boolean => block.replace(/^\s*#[^\n]+/gm, '').trim() === '';

/** Newlines in `text` before `end`. */
function newlinesBefore(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

type Block = { ok: true; yaml: string; body: string; bodyLine: number } | { ok: false; reason: 'no-opening' | 'no-closing' | 'early-close'; line: number };

/**
 * The frontmatter block of LF-normalised text and the body after it. The opening line is `---` plus
 * only whitespace, so the block starts right after `---` and ends at the first `\n---` (gray-matter's
 * rule), which must be a line that is exactly `---`.
 */
function frontmatterBlock(text: string): Block {
  if (!isDelimiter(lineAt(text, 0))) return { ok: false, reason: 'no-opening', line: 1 };
  const closeAt = text.indexOf(`\n${DELIMITER}`, DELIMITER.length);
  if (closeAt === -1) return { ok: false, reason: 'no-closing', line: 1 };
  // The closing line is the one after the newline at closeAt; the body starts on the line after it.
  const closingLine = newlinesBefore(text, closeAt) + 2;
  if (!isDelimiter(lineAt(text, closeAt + 1))) return { ok: false, reason: 'early-close', line: closingLine };
  const bodyStart = text.indexOf('\n', closeAt + 1);
  return { ok: true, yaml: text.slice(DELIMITER.length, closeAt), body: bodyStart === -1 ? '' : text.slice(bodyStart + 1), bodyLine: closingLine + 1 };
}

/**
 * Splits LF-normalised text into parsed frontmatter and body. A structural failure wins over a YAML
 * error (an unclosed block is reported as such, its YAML never parsed); a YAML error on a
 * well-formed block is thrown as the engine threw it.
 */
export function splitFrontmatter(text: string, parse: YamlEngine): FrontmatterSplit {
  const block = frontmatterBlock(text);
  if (!block.ok) return block;
  return { ok: true, data: isEmptyBlock(block.yaml) ? {} : parse(block.yaml), body: block.body, bodyLine: block.bodyLine };
}

/**
 * The body of a Markdown file with any leading frontmatter removed (its YAML is not read), and the
 * line it starts on: the body splitFrontmatter gives, or the whole text when there is no
 * well-formed block (outline and the index read thousands of files and need no data).
 */
export function markdownBody(text: string): { body: string; bodyLine: number } {
  const block = frontmatterBlock(text);
  return block.ok ? { body: block.body, bodyLine: block.bodyLine } : { body: text, bodyLine: 1 };
}
