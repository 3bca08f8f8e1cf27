import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { headingsOf, lexHeadings } from '../../../src-main/core/markdown/blocks.js';
import { markdownBody } from '../../../src-main/core/markdown/frontmatter.js';
import { scanHeadings } from '../../../src-main/core/markdown/heading-scan.js';
import { scanAgreesWithMarked, scanned } from '../../support/heading-scan.js';

/** Lines that are plain to the scan, and lines that make it hand over to marked. */
const LINES = [
  '# Title',
  '## Section two',
  '### Closing hashes ###',
  '#### Not closing#',
  '###### Six',
  '####### seven',
  '#',
  '# ',
  '#hashtag',
  '  # indented heading',
  '    # indented code',
  '#\u00a0nbsp',
  '#\ttab',
  'Plain prose with words.',
  'More prose: with a colon:',
  '- a list item',
  '- # heading in a list item',
  '  continued in the item',
  '1. ordered',
  '* star item',
  '| a | b |',
  '|---|---|',
  'a | b',
  '---|---',
  '```',
  '```bash',
  '``` inline `code` here',
  '````',
  '~~~',
  '~~~~ info',
  '  ```',
  '   ~~~',
  '---',
  '***',
  '___',
  '===',
  '-',
  '--',
  '  ---',
  '> quoted',
  '> # quoted heading',
  '<div>',
  '</div>',
  '<!-- comment -->',
  '  <span>',
  '[label]:',
  '[label]: /url',
  '"title"',
  '',
  '',
  '   ',
  'x\u2028y',
  '\ttabbed',
];

const document = fc.array(fc.constantFrom(...LINES), { maxLength: 40 }).map((lines) => lines.join('\n'));

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

describe('the heading scan', () => {
  it('agrees with marked on every document it answers for, and answers for plain documents', () => {
    // The generator mixes in lines that hand over to marked; enough documents must still be answered to mean something.
    expect(scanAgreesWithMarked(document, 4000)).toBeGreaterThan(400);
  });

  it('agrees with marked on documents built only from lines it handles', () => {
    const plain = LINES.filter((line) => scanned(line) !== null && scanned(`text\n${line}`) !== null);
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...plain), { maxLength: 60 }), (lines) => {
        const text = lines.join('\n');
        const fast = scanned(text);
        if (fast !== null) expect(fast).toEqual(lexHeadings(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with marked on the checkout’s skills and fixtures', () => {
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    const files = [...markdownFiles(join(root, 'skills')), ...markdownFiles(join(root, 'test', 'fixtures'))];
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const { body, bodyLine } = markdownBody(readFileSync(file, 'utf8').replace(/\r\n?/g, '\n'));
      expect(headingsOf(body, bodyLine), file).toEqual(lexHeadings(body, bodyLine));
    }
  });

  it('finds headings after prose, lists and tables, never inside fences, with file line numbers and offsets', () => {
    const text = 'Intro\n# One #\n- item\n## Two\n| a |\n|---|\n### Three\n```\n# not\n```\n~~~~\n```\n# still not\n~~~~\n#### Four\n';
    expect(scanHeadings(text, 5)).toEqual([
      { level: 1, text: 'One', line: 6, offset: 6 },
      { level: 2, text: 'Two', line: 8, offset: 21 },
      { level: 3, text: 'Three', line: 11, offset: 40 },
      { level: 4, text: 'Four', line: 19, offset: 90 },
    ]);
  });

  it.each([
    ['a setext underline after text', 'Title\n=====\n'],
    ['a dashed underline after a list item', '- item\n---\n'],
    ['a block quote', '> # quoted\n'],
    ['an HTML block', '<div>\n# inside\n</div>\n'],
    ['an indented heading', '   # three spaces\n'],
    ['an indented fence', '- item\n  ```\n# inside?\n  ```\n'],
    ['a heading that may complete a link definition', '[label]:\n# "title"\n'],
    ['a tab', '#\ttabbed\n'],
    ['a backtick in a fence info string', '``` a`b\n# x\n'],
  ])('hands %s to marked', (_label, text) => {
    expect(scanHeadings(text)).toBeNull();
  });
});
