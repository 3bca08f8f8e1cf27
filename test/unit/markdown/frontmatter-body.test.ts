import fc from 'fast-check';
import matter from 'gray-matter';
import { describe, expect, it } from 'vitest';
import { markdownBody, splitFrontmatter, type FrontmatterSplit, type YamlEngine } from '../../../src-main/core/markdown/frontmatter.js';

const isDelimiter = (line: string): boolean => line.trimEnd() === '---';

/**
 * The split as gray-matter makes it, held to the RFC's exact `---` lines the way Skilltray once did
 * it through gray-matter: the reference splitFrontmatter must agree with on every text.
 */
function grayMatterSplit(text: string, parse: YamlEngine): FrontmatterSplit {
  const firstLine = text.split('\n')[0] as string;
  if (!isDelimiter(firstLine)) return { ok: false, reason: 'no-opening', line: 1 };
  const errors: unknown[] = [];
  const engine = (yaml: string): object => {
    try {
      return parse(yaml);
    } catch (error) {
      errors.push(error);
      return {};
    }
  };
  const file = matter(text, { engines: { yaml: engine } });
  const closeAt = 3 + file.matter.length;
  if (closeAt >= text.length) return { ok: false, reason: 'no-closing', line: 1 };
  const closingLine = text.slice(0, closeAt + 1).split('\n').length;
  if (!isDelimiter(text.slice(closeAt + 1).split('\n')[0] as string)) return { ok: false, reason: 'early-close', line: closingLine };
  if (errors.length > 0) throw errors[0];
  const bodyStart = text.indexOf('\n', closeAt + 1);
  return { ok: true, data: file.data, body: bodyStart === -1 ? '' : text.slice(bodyStart + 1), bodyLine: closingLine + 1 };
}

/** What a split answers, or the error it throws. */
function outcome(split: () => FrontmatterSplit): FrontmatterSplit | { threw: string } {
  try {
    return split();
  } catch (error) {
    return { threw: (error as Error).message };
  }
}

/** An engine that hands back what it was given, and refuses a block holding `!`. */
const echo: YamlEngine = (yaml) => {
  if (yaml.includes('!')) throw new Error(`bad YAML: ${JSON.stringify(yaml)}`);
  return { yaml };
};

/** markdownBody's answer as the gray-matter split gives it: the body after a well-formed block, else the whole text. */
function viaGrayMatter(text: string): { body: string; bodyLine: number } {
  const split = grayMatterSplit(text, () => ({}));
  return split.ok ? { body: split.body, bodyLine: split.bodyLine } : { body: text, bodyLine: 1 };
}

/** Lines near the delimiter: exact, padded, too long, with an info string, indented, and YAML or prose between. */
const LINES = [
  '---',
  '# only a comment',
  '  # indented comment',
  'bad: !',
  '--- ',
  '---\t',
  '---  \t ',
  '---\u00a0',
  '---\u2028',
  '---\r',
  '----',
  '---x',
  '--- yaml',
  '---js',
  ' ---',
  '--',
  '-',
  '',
  ' ',
  'a: 1',
  'title: "---"',
  '# Heading',
  'text ---',
  '\ufeff---',
  '...',
];
const SEPARATORS = ['\n', '\n', '\n', '\r\n', '\r'];

const document = fc
  .tuple(
    fc.boolean(),
    // Most texts open with a delimiter line, so that most reach the search for the closing one.
    fc.constantFrom('---\n', '---\n', '--- \n', '---\r\n', ''),
    fc.array(fc.tuple(fc.oneof(fc.constantFrom(...LINES), fc.string({ maxLength: 6 })), fc.constantFrom(...SEPARATORS)), { maxLength: 12 }),
    fc.boolean(),
  )
  .map(([bom, opening, lines, finalNewline]) => {
    const text = opening + lines.map(([line, separator]) => line + separator).join('');
    return (bom ? '\ufeff' : '') + (finalNewline ? text : text.replace(/(\r\n|\r|\n)$/, ''));
  });

describe('splitFrontmatter', () => {
  it('splits every text as gray-matter does: the same data from the same block, the same refusals and the same YAML errors', () => {
    let parsed = 0;
    fc.assert(
      fc.property(document, (text) => {
        const expected = outcome(() => grayMatterSplit(text, echo));
        if ('ok' in expected && expected.ok) parsed++;
        expect(outcome(() => splitFrontmatter(text, echo))).toEqual(expected);
      }),
      { numRuns: 5000 },
    );
    expect(parsed).toBeGreaterThan(250);
  });

  it('never calls the engine for a block of comments alone, as gray-matter does not', () => {
    const never: YamlEngine = () => {
      throw new Error('called');
    };
    expect(splitFrontmatter('---\n# a comment\n  \n---\nbody', never)).toEqual({ ok: true, data: {}, body: 'body', bodyLine: 5 });
    expect(grayMatterSplit('---\n# a comment\n  \n---\nbody', never)).toEqual({ ok: true, data: {}, body: 'body', bodyLine: 5 });
  });
});

describe('markdownBody', () => {
  it('gives the body and body line gray-matter’s split gives, on any text', () => {
    let split = 0;
    fc.assert(
      fc.property(document, (text) => {
        const expected = viaGrayMatter(text);
        if (expected.bodyLine > 1) split++;
        expect(markdownBody(text)).toEqual(expected);
      }),
      { numRuns: 5000 },
    );
    // Enough generated texts must hold a well-formed block for the comparison to mean something.
    expect(split).toBeGreaterThan(250);
  });

  it.each([
    ['a block closed by exactly ---', '---\na: 1\n---\n# Body\n', { body: '# Body\n', bodyLine: 4 }],
    ['delimiters with trailing whitespace', '--- \na: 1\n---\t \n\nbody\n---\nmore', { body: '\nbody\n---\nmore', bodyLine: 4 }],
    ['an empty block at the end of the text', '---\n---', { body: '', bodyLine: 3 }],
    ['CRLF delimiters', '---\r\na: 1\r\n---\r\nbody', { body: 'body', bodyLine: 4 }],
    ['a block closed early by ---x', '---\na: 1\n---x\n---\nbody', { body: '---\na: 1\n---x\n---\nbody', bodyLine: 1 }],
    ['an unterminated block', '---\na: 1\n', { body: '---\na: 1\n', bodyLine: 1 }],
    ['an opening with an info string', '---yaml\na: 1\n---\nbody', { body: '---yaml\na: 1\n---\nbody', bodyLine: 1 }],
    ['a BOM before the opening', '\ufeff---\na: 1\n---\nbody', { body: '\ufeff---\na: 1\n---\nbody', bodyLine: 1 }],
    ['no frontmatter', '# Title\n---\n', { body: '# Title\n---\n', bodyLine: 1 }],
  ])('handles %s', (_label, text, expected) => {
    expect(markdownBody(text)).toEqual(expected);
    expect(viaGrayMatter(text)).toEqual(expected);
  });
});
