/**
 * Tool sections lexed without marked (markdown/plain-blocks.ts): wherever plainBlocks answers, its
 * blocks are marked's, token for token and line for line — over generated texts of lines that are
 * plain and lines that only look it (a closing `#`, four backticks, a table that loses a pipe or
 * gains a backslash, a paragraph a setext underline or a table would take over) — and it answers
 * for the tool sections skills really write.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lexBlocks } from '../../../src-main/core/markdown/blocks.js';
import { plainBlocks } from '../../../src-main/core/markdown/plain-blocks.js';
import { markdownBody } from '../../../src-main/core/markdown/frontmatter.js';
import { toolSectionTexts } from '../../../src-main/core/skills/tools.js';

/** Lines plainBlocks takes. */
const PLAIN = [
  '### deploy_1',
  '#### Parameters',
  '#### Command',
  '#   spaced   heading  ',
  '###### six',
  'Do the deploy step.',
  'Text with `code` and | a pipe.',
  '`name` first, then words.',
  'Trailing spaces  ',
  'None.',
  '',
  '',
  '',
  '| Name | Type | Required | Description |',
  '|------|------|----------|-------------|',
  '|:--|--:|:-:|---|',
  '| target | string | yes | What to deploy |',
  '| count | integer | no |',
  '| a | b | c | d | e |',
  '||',
  '| a || b |',
  '| x |',
  '|---|',
  '```',
  '```bash',
  '```c++',
  'echo deploy <<target>> -n <<count:10>>',
  '---',
  '*****',
  '___',
];

/** Near misses: marked reads each of these (or what follows it) differently from a plain line, or plainBlocks cannot tell. */
const NEAR = [
  '#### Command ###',
  '####',
  '####### seven',
  '#nospace',
  ' #### indented heading',
  '````',
  '``` bash',
  '```js title',
  ' ```',
  '~~~',
  '    indented code',
  '\tTabbed',
  '| no closing pipe',
  'a | b',
  '--- | ---',
  '| esc \\| aped |',
  '|',
  '| a | b |x',
  '|-|-|-|',
  '| :-: | - |',
  '- a list item',
  '* star',
  '+ plus',
  '1. ordered',
  '2) ordered',
  '> quoted',
  '<div>',
  '<!-- comment -->',
  '[label]: /url',
  '--',
  '- - -',
  '===',
  '   ',
  ' x',
  'Line\u2028separator',
  '| a\u2028b |',
  'CR\r',
  '\\escaped start',
  '1999 was a year',
  '(parenthesised)',
  '"quoted"',
];

const cell = fc.constantFrom('a', ' b ', '`code`', '', '  ', 'x y', 'yes', '<<k:1>>', 'é');
const alignment = fc.constantFrom('---', ':--', '--:', ':-:', ' --- ', '-');
/** A pipe table: usually as many delimiters as header cells, rows of any width. */
const table = fc
  .tuple(
    fc.array(cell, { minLength: 1, maxLength: 4 }),
    fc.integer({ min: -1, max: 1 }),
    fc.array(fc.array(cell, { maxLength: 5 }), { maxLength: 4 }),
    alignment,
  )
  .map(([header, skew, rows, align]) => {
    const width = Math.max(1, header.length + (skew === 1 ? 1 : skew === -1 && header.length > 1 ? -1 : 0));
    const line = (cells: readonly string[]): string => `|${cells.join('|')}|`;
    return [line(header), `|${Array.from({ length: width }, () => align).join('|')}|`, ...rows.map(line)].join('\n');
  });
const fence = fc
  .tuple(fc.constantFrom('```', '```bash', '```sh'), fc.array(fc.constantFrom(...PLAIN, ...NEAR), { maxLength: 4 }))
  .map(([open, body]) => [open, ...body.filter((l) => !l.startsWith('```')), '```'].join('\n'));
const fragment = fc.oneof(
  { arbitrary: fc.constantFrom(...PLAIN), weight: 8 },
  { arbitrary: table, weight: 3 },
  { arbitrary: fence, weight: 2 },
  { arbitrary: fc.constantFrom(...NEAR), weight: 1 },
);
const texts = fc.tuple(fc.array(fragment, { maxLength: 12 }), fc.boolean()).map(([lines, newline]) => `${lines.join('\n')}${newline ? '\n' : ''}`);

/** Short texts over the characters block structure turns on, for what the list above did not think of. */
const raw = fc.string({ unit: fc.constantFrom('|', '#', '`', '-', ':', ' ', '\n', '\n', 'a', 'b', '=', '\\', '>', '*', '1', '.', '~'), maxLength: 40 });

function heldToMarked(text: string, firstLine: number): boolean {
  const plain = plainBlocks(text, firstLine);
  if (plain === null) return false;
  expect(plain).toStrictEqual(lexBlocks(text, firstLine));
  return true;
}

describe('plain blocks', () => {
  it("are marked's blocks wherever plainBlocks answers (property over plain lines and near misses)", () => {
    let answered = 0;
    let tables = 0;
    fc.assert(
      fc.property(texts, fc.integer({ min: 1, max: 50 }), (text, firstLine) => {
        if (heldToMarked(text, firstLine)) {
          answered++;
          if (plainBlocks(text, firstLine)?.some((b) => b.token.type === 'table')) tables++;
        }
      }),
      { numRuns: 5000 },
    );
    // The near misses must not drown the plain texts: the comparison has to have been made often, tables included.
    expect(answered).toBeGreaterThan(300);
    expect(tables).toBeGreaterThan(50);
  });

  it("are marked's blocks for short texts of the characters block structure turns on (property)", () => {
    let answered = 0;
    fc.assert(
      fc.property(raw, (text) => {
        if (heldToMarked(text, 1)) answered++;
      }),
      { numRuns: 5000 },
    );
    expect(answered).toBeGreaterThan(200);
  });

  it("answer for every tool section of gibb.eri.sh's skills and Skilltray's bundled ones, as marked does", () => {
    const roots = [join(import.meta.dirname, '../../fixtures/gibberish-skills'), join(import.meta.dirname, '../../../skills')];
    let sections = 0;
    for (const root of roots) {
      for (const name of readdirSync(root)) {
        let source: string;
        try {
          source = readFileSync(join(root, name, 'SKILL.md'), 'utf8');
        } catch {
          continue;
        }
        const { body, bodyLine } = markdownBody(source);
        const texts = toolSectionTexts(body, bodyLine);
        expect(texts, name).not.toBeNull();
        for (const { text, line } of texts ?? []) {
          sections++;
          expect(heldToMarked(text, line), `${name}: ${text.slice(0, text.indexOf('\n'))}`).toBe(true);
        }
      }
    }
    expect(sections).toBeGreaterThan(30);
  });
});
