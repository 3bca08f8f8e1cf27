import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { headingsOf, lexHeadings } from '../../../src-main/core/markdown/blocks.js';
import { scanHeadings } from '../../../src-main/core/markdown/heading-scan.js';
import { scanAgreesWithMarked } from '../../support/heading-scan.js';

/** Lines put together from an indent, a block marker, a gap and some content, so that markers meet every indent and content. */
const INDENTS = ['', '', '', ' ', '  ', '   ', '    ', '     ', '\t', ' \t'];
const MARKERS = [
  '',
  '',
  '#',
  '##',
  '###',
  '######',
  '#######',
  '\\#',
  '```',
  '````',
  '``',
  '~~~',
  '~~~~',
  '~~',
  '>',
  '> #',
  '<div>',
  '</div>',
  '<!--',
  '-->',
  '<span>',
  '[x]:',
  '[x]: /u',
  '-',
  '*',
  '+',
  '1.',
  '2)',
  '=',
  '==',
  '---',
  '- - -',
  '***',
  '___',
  '|',
  '|---|',
];
const GAPS = ['', ' ', ' ', '  ', '\t'];
const CONTENTS = [
  '',
  'a',
  'Title words',
  'a #',
  'a ##  ',
  'a#',
  '#',
  ' # ',
  'a \\#',
  'a\\##',
  'a\t#',
  'a \t#',
  '\\',
  'a\u2028b',
  'a\u2029b',
  'a\rb',
  '`x`',
  '```',
  '~~~',
  'a`b',
  '"t"',
  '(t)',
  '<b>',
  'a |',
  '---',
  '===',
];

const line = fc
  .tuple(fc.constantFrom(...INDENTS), fc.constantFrom(...MARKERS), fc.constantFrom(...GAPS), fc.constantFrom(...CONTENTS))
  .map((parts) => parts.join(''));
/** Blank lines often, since they end paragraphs, lists and HTML blocks. */
const anyLine = fc.oneof({ arbitrary: line, weight: 4 }, { arbitrary: fc.constantFrom('', '   '), weight: 1 });
const document = fc
  .tuple(fc.array(anyLine, { maxLength: 30 }), fc.constantFrom('\n', '\n', '\n', '\r\n'), fc.boolean())
  .map(([lines, separator, finalNewline]) => lines.join(separator) + (finalNewline ? separator : ''));

/** Lines the scan mostly answers for (spaces only, no HTML or quotes), to reach deep into its own fence and heading logic. */
const plainLine = fc
  .tuple(
    fc.constantFrom('', '', '', ' ', '   ', '    '),
    fc.constantFrom('', '#', '##', '###', '```', '````', '~~~', '~~~~', '``', '---', '===', '-', '1.'),
    fc.constantFrom('', ' '),
    fc.constantFrom('', 'a', 'a #', '`x`', 'a`b', '~', '```', '~~~'),
  )
  .map((parts) => parts.join(''));
const plainDocument = fc
  .array(fc.oneof({ arbitrary: plainLine, weight: 5 }, { arbitrary: fc.constant(''), weight: 1 }), { maxLength: 30 })
  .map((lines) => lines.join('\n'));

describe('the heading scan on adversarial Markdown', () => {
  it('answers as marked does whenever it answers, and headingsOf always does', () => {
    const answered = scanAgreesWithMarked(document, 6000, (text) => expect(headingsOf(text, 7)).toEqual(lexHeadings(text, 7)));
    // Most mixes hold a construct the scan hands over; enough must still be answered to test it.
    expect(answered).toBeGreaterThan(300);
  });

  it('answers as marked does on fences, headings and rules at small indents', () => {
    expect(scanAgreesWithMarked(plainDocument, 6000)).toBeGreaterThan(1000);
  });

  it.each([
    ['closing #s after a tab, which marked keeps', '# a\t#\n'],
    ['a line separator inside a heading', '# a\u2028b\n'],
    ['a paragraph separator inside a heading', '# a\u2029b\n'],
    ['a carriage return inside a heading', '# a\rb\n'],
    ['CRLF line endings', '# a\r\nb\r\n===\r\n'],
  ])('hands %s to marked', (_label, text) => {
    expect(scanHeadings(text)).toBeNull();
    expect(headingsOf(text)).toEqual(lexHeadings(text));
  });
});
