import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withoutSharedPassages } from '../../../src-main/core/agent/shared-passages.js';

/** An owner's template around each skill's own line, as a collection of generated skills has it. */
const templated = (name: string, own: string): string =>
  [
    `# ${name}`,
    '',
    `Operate **${name}** through your connected account. The service injects credentials server-side, so you never handle raw tokens.`,
    '',
    '## Available actions',
    '',
    `- ${own}`,
    '',
    '## First-time setup',
    '',
    'These are one-time steps, do not repeat them on every call.',
    '```bash',
    'oo auth login --browser',
    '```',
  ].join('\n');

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

describe('shared passages', () => {
  it('takes out the runs of words many bodies repeat, even beside each copy’s own name, and keeps each body’s own words', () => {
    const own = [
      'Create a short link for a long URL.',
      'Get the air quality of a city.',
      'Send a text message.',
      'List the open tickets.',
      'Convert an address to coordinates.',
      'Search papers by title.',
    ];
    const bodies = own.map((line, i) => templated(`Service${i}`, line));
    const out = withoutSharedPassages(bodies);
    for (const [i, body] of out.entries()) {
      expect(body).toContain(own[i]);
      expect(body).toContain(`Service${i}`);
      // The template's sentence goes, though the sentence before it names the skill.
      expect(words(body)).not.toContain('tokens');
      expect(words(body)).not.toContain('repeat');
      expect(body).not.toContain('auth login');
    }
    // Only words go: the headings' marks and the fences stay where they were.
    expect(out[0]).toMatch(/^# Service0$/m);
    expect(out[0]!.match(/^```/gm)).toHaveLength(2);
  });

  it('leaves bodies alone when too few share a run: a few related skills may say the same thing on purpose', () => {
    const shared = 'Run the tests after every change and read each failure first.';
    const bodies = [
      `${shared} Then fix the parser.`,
      `${shared} Then fix the lexer.`,
      'Write release notes.',
      'Draw a diagram.',
      'Plan a sprint.',
      'Book a room.',
    ];
    expect(withoutSharedPassages(bodies)).toEqual(bodies);
  });

  it('finds a template in a collection of tens of thousands of skills, where 1% is more bodies than a small counter holds', () => {
    const template = 'Connect the account once before the first call.';
    const bodies = Array.from({ length: 26_000 }, (_, i) => (i % 80 === 0 ? `Tool ${i} lists item ${i}. ${template}` : `Tool ${i} lists items number ${i}.`));
    // 325 bodies hold the template: at least 1% (260) of them.
    const out = withoutSharedPassages(bodies);
    expect(out[0]).not.toContain('account');
    expect(out[0]).toContain('Tool 0 lists item 0.');
    expect(out[1]).toBe(bodies[1]);
  });

  it('only ever takes words out: what stays is the body’s words in order, and a body sharing nothing is returned as it was', () => {
    const vocabulary = fc.constantFrom('run', 'the', 'tests', 'fix', 'a', 'bug', 'Ünïcode', '漢字', 'x1', 'step');
    const body = fc.array(fc.tuple(vocabulary, fc.constantFrom(' ', '\n', '. ', ' — ', '\n## ')), { maxLength: 40 }).map((parts) => parts.flat().join(''));
    fc.assert(
      fc.property(fc.array(body, { minLength: 5, maxLength: 12 }), (bodies) => {
        const out = withoutSharedPassages(bodies);
        expect(out).toHaveLength(bodies.length);
        for (const [i, kept] of out.entries()) {
          const before = words(bodies[i]!);
          let at = 0;
          for (const word of words(kept)) {
            while (at < before.length && before[at] !== word) at++;
            expect(at).toBeLessThan(before.length);
            at++;
          }
          if (words(kept).length === before.length) expect(kept).toBe(bodies[i]);
        }
      }),
    );
  });
});
