/**
 * The loader lexes only a body's tool sections where the line scan can place its headings
 * (skills/tools.ts toolSections): held here to lexing the whole body, over generated bodies made
 * of tool sections and of lines that end, open or swallow blocks around them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanHeadings } from '../../../src-main/core/markdown/heading-scan.js';
import { lexedToolSections, toolSections } from '../../../src-main/core/skills/tools.js';

/** Whole tool sections, as skills write them (and as they get them wrong). */
const SECTIONS = [
  '### deploy_1\n\nDo the deploy step.\n\n#### Parameters\n\n| Name | Type | Required | Description |\n|------|------|----------|-------------|\n| target | string | yes | What to deploy |\n| count | integer | no | How many |\n\n#### Command\n\n```bash\necho deploy <<target>> -n <<count:10>>\n```\n',
  '### restore_list\n\nList restore entries.\n\n#### Parameters\n\nNone.\n\n#### Command\n\n```bash\nls -la\n```\n',
  '### two_fences\n\n#### Command\n\n```\na\n```\n\n```\nb\n```\n',
  '### no_table\n\nText.\n\n#### Parameters\n\n- target: a list, not a table\n\n#### Command\n\n~~~sh\necho <<target>>\n~~~\n',
  '### examples_too\n\nDescribed\nover two lines.\n\n#### Command\n\n```bash\ngit status\n```\n\n#### Examples\n\nCall: examples_too {}\n\n##### Deeper\n\nstill examples\n',
  '### Not A Tool\n\nProse under an H3 without a Command.\n',
  '### table_in_prose\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n#### Parameters\n\n| Name | Type | Required |\n|---|---|---|\n| x | bool | maybe |\n',
];

/** Lines around them: headings of every level, prose, lists, tables, fences, quotes, HTML, setext underlines, definitions. */
const LINES = [
  '# Title',
  '## Usage',
  '### loose_h3',
  '#### Command',
  '#### Parameters',
  '#### Command ###',
  '####   parameters  ',
  '##### Notes',
  'Plain prose with words.',
  '',
  '',
  '- a list item',
  '  continued in the item',
  '1. ordered',
  '| Name | Type | Required | Description |',
  '|---|---|---|---|',
  '| x | string | yes | y |',
  '```',
  '```bash',
  '~~~',
  'echo <<x>>',
  '    indented code',
  '> quoted',
  '> #### Command',
  '<div>',
  '</div>',
  '---',
  '===',
  '[label]: /url',
  '  # indented heading',
  'None.',
];

const fragment = fc.oneof({ arbitrary: fc.constantFrom(...SECTIONS), weight: 2 }, { arbitrary: fc.constantFrom(...LINES), weight: 3 });
const bodies = fc.array(fragment, { maxLength: 24 }).map((parts) => parts.join('\n'));

describe('tool sections lexed alone', () => {
  it('are the tool sections of the whole body lexed (property), for every body the scan can place', () => {
    let placed = 0;
    let withTools = 0;
    fc.assert(
      fc.property(bodies, fc.integer({ min: 1, max: 40 }), (body, bodyLine) => {
        const lexed = lexedToolSections(body, bodyLine);
        expect(toolSections(body, bodyLine)).toEqual(lexed);
        if (scanHeadings(body, bodyLine) !== null) {
          placed++;
          if (lexed.length > 0) withTools++;
        }
      }),
      { numRuns: 3000 },
    );
    // The fast path was taken often enough to mean something, tools and all.
    expect(placed).toBeGreaterThan(1000);
    expect(withTools).toBeGreaterThan(500);
  });
});
