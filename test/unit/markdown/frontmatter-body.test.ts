import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markdownBody, splitFrontmatter } from '../../../src-main/core/markdown/frontmatter.js';

/** markdownBody's answer as splitFrontmatter (gray-matter) gives it: the body after a well-formed block, else the whole text. */
function viaGrayMatter(text: string): { body: string; bodyLine: number } {
  const split = splitFrontmatter(text, () => ({}));
  return split.ok ? { body: split.body, bodyLine: split.bodyLine } : { body: text, bodyLine: 1 };
}

/** Lines near the delimiter: exact, padded, too long, with an info string, indented, and YAML or prose between. */
const LINES = ['---', '--- ', '---\t', '---  \t ', '---\u00a0', '---\u2028', '---\r', '----', '---x', '--- yaml', '---js', ' ---', '--', '-', '', ' ', 'a: 1', 'title: "---"', '# Heading', 'text ---', '\ufeff---', '...'];
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
