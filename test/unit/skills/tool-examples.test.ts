/** A tool's Examples read as calls (`run --example N`): both forms, any text, and every bundled pack's examples. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exampleArguments, toolExamples } from '../../../src-main/core/skills/tool-examples.js';
import { loadPacks } from '../../integration/packs/bundled-packs.js';

const key = fc.stringMatching(/^[a-z_][a-z0-9_]{0,8}$/);
const text = fc.string({ maxLength: 30 }).filter((s) => !s.includes('<escape>') && !s.includes('\n'));

describe('toolExamples', () => {
  it("reads gibb.eri.sh's call:<tool>{key:<escape>text<escape>} back to the very text, whatever it holds", () => {
    fc.assert(
      fc.property(fc.dictionary(key, text, { minKeys: 1, maxKeys: 4 }), (args) => {
        const written = Object.entries(args)
          .map(([k, v]) => `${k}:<escape>${v}<escape>`)
          .join(',');
        const [example] = toolExamples(`User: do it\n<start_function_call>call:t{${written}}<end_function_call>`);
        expect(example).toMatchObject({ n: 1, user: 'do it', tool: 't', args, problem: null });
      }),
    );
  });

  it("reads Skilltray's Call: <tool> <JSON> as that JSON, numbers the calls in order, and pairs each with its User line", () => {
    const examples = toolExamples('```\nUser: a\nCall: t {"n": 1, "error": "x"}\nCall: t\nUser: c\nCall: t [1]\n```');
    expect(examples.map((e) => [e.n, e.user, e.args, e.problem])).toEqual([
      [1, 'a', { n: 1, error: 'x' }, null],
      [2, null, {}, null],
      [3, 'c', null, 'the arguments are not a JSON object'],
    ]);
    expect(() => exampleArguments({ name: 'other', examples: 'Call: t {}' }, 1)).toThrow(expect.objectContaining({ code: 'E521' }));
  });

  it('every example of every bundled pack is a call of its own tool that reads', () => {
    for (const skill of loadPacks().list()) {
      for (const tool of skill.tools) {
        const examples = toolExamples(tool.examples);
        expect(examples.length, `${skill.name}/${tool.name}`).toBeGreaterThan(0);
        for (const example of examples) expect(exampleArguments(tool, example.n), `${skill.name}/${tool.name} #${example.n}`).toEqual(example.args);
      }
    }
  });
});
