/** One gibb.eri.sh tool pack read into a tool: its fields, its policy with Skilltray's defaults, and every way it can be wrong. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DiagnosticList } from '../../../src-main/core/skills/diagnostics.js';
import { commandText, MAX_PACK_BYTES, readToolPack } from '../../../src-main/core/skills/tool-pack.js';
import { parseCommand } from '../../../src-main/core/template/parse-command.js';

const FILE = '/packs/x.tool.json';
const read = (text: string) => {
  const diags = new DiagnosticList();
  const { tool } = readToolPack(Buffer.from(text), FILE, diags);
  return { tool, diagnostics: diags.items };
};
const packText = (extra: Record<string, unknown> = {}) => JSON.stringify({ name: 'p', description: 'A pack.', command: { program: 'echo', args: [] }, ...extra }, null, 2);

describe('a tool pack', () => {
  it("takes its policy from the pack, with Skilltray's defaults where it says nothing (read_only false, not gibb's true)", () => {
    expect(read(packText()).tool?.policy).toMatchObject({ readOnly: false, alwaysAsk: false, timeoutSec: 30, network: false, hosts: [] });
    const policy = { read_only: true, requires_network: true, timeout_secs: 120, confirm_before_run: true, allowed_exit_codes: [0, 1] };
    const strict = read(packText({ policy }));
    expect(strict.diagnostics).toEqual([]);
    expect(strict.tool?.policy).toMatchObject({ readOnly: true, alwaysAsk: true, timeoutSec: 120, network: true, hosts: ['*'] });
  });

  it('reads typed parameters: enum, required, default (as gibb fills it in), source and allow_dash', () => {
    const { tool, diagnostics } = read(
      packText({
        parameters: {
          length: { type: 'string', enum: ['short', 'long'], default: 'short' },
          count: { type: 'integer', required: true, default: 5 },
          url: { type: 'string', source: 'context.url', allow_dash: true, default: null },
        },
      }),
    );
    expect(diagnostics).toEqual([]);
    expect(tool?.params.map((p) => [p.name, p.type, p.enumValues, p.required, p.default, p.allowDash])).toEqual([
      ['length', 'enum', ['short', 'long'], false, 'short', false],
      ['count', 'integer', [], true, '5', false],
      ['url', 'string', [], false, null, true],
    ]);
    expect(tool?.sources).toEqual({ url: 'context.url' });
  });

  it.each([
    [{ name: 'Bad-Name' }, '/name'],
    [{ description: '' }, '/description'],
    [{ command: { program: '{{p}}' }, parameters: { p: { type: 'string' } } }, '/command/program'],
    [{ command: { program: 'echo', args: ['{{nope}}'] } }, '/command/args/0'],
    [{ command: { program: 'echo', args: [1] } }, '/command/args/0'],
    [{ parameters: { a: { type: 'array' } } }, '/parameters/a/type'],
    [{ parameters: { a: { type: 'string', enum: ['x', 'x'] } } }, '/parameters/a/enum/1'],
    [{ parameters: { 'a/b': { type: 'string' } } }, '/parameters/a~1b'],
    [{ parameters: { a: {} } }, '/parameters/a/type'],
    [{ policy: { timeout_secs: 301 } }, '/policy/timeout_secs'],
    [{ policy: { read_only: 'yes' } }, '/policy/read_only'],
    [{ output: { max_chars: 0 } }, '/output/max_chars'],
    [{ modes: 'Global' }, '/modes'],
  ])('refuses %j with E452 at its JSON pointer %s, and gives no tool', (extra, pointer) => {
    const { tool, diagnostics } = read(packText(extra));
    expect(tool).toBeNull();
    expect(diagnostics.filter((d) => d.code === 'E452').map((d) => d.pointer)).toContain(pointer);
    expect(diagnostics.every((d) => d.file === FILE && d.line >= 1)).toBe(true);
  });

  it('warns (W451) of what it does not apply, at its pointer, and still loads', () => {
    const { tool, diagnostics } = read(
      packText({
        extra: 1,
        modes: ['Global', 'Dictation'],
        command: { program: 'echo', args: [], env: { A: 'b' }, cwd: '/somewhere' },
        output: { template: 'x {{output}}' },
      }),
    );
    expect(tool).not.toBeNull();
    expect(diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ['W451', '/extra'],
      ['W451', '/modes/1'],
      ['W451', '/command/env'],
      ['W451', '/command/cwd'],
      ['W451', '/output/template'],
    ]);
    expect(tool?.modes).toEqual(['Global']);
  });

  it('gives the line and column where malformed JSON breaks, and refuses what gibb (serde_json) refuses', () => {
    expect(read('{\n  "name": "p",\n  "description": ,\n}').diagnostics).toEqual([expect.objectContaining({ code: 'E451', line: 3, column: 18 })]);
    for (const text of ['{"name": "p", // a comment\n}', '{"name": "p",}', '', '{"name": "p", "name": "q", "description": "d", "command": {"program": "x"}}']) {
      expect(read(text).tool).toBeNull();
    }
    expect(read(`{"description": "${'x'.repeat(MAX_PACK_BYTES)}"}`).diagnostics[0]?.message).toContain('256 KiB');
    expect(read(`${'{"a":'.repeat(40)}1${'}'.repeat(40)}`).diagnostics[0]?.message).toContain('32 levels');
  });

  it('never throws, hangs or pollutes a prototype on any input (property)', () => {
    const key = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'prototype', 'name', 'command', 'parameters', 'policy', 'type'));
    const value = fc.letrec((tie) => ({
      json: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 2 }), fc.dictionary(key, tie('json'), { maxKeys: 4 }), fc.array(tie('json'), { maxLength: 3 })),
    })).json;
    const text = fc.oneof(
      value.map((v) => JSON.stringify(v) ?? 'null'),
      fc.record({ name: fc.constantFrom('p', '__proto__'), description: fc.string(), parameters: value, command: value, policy: value, output: value }).map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 200 }),
    );
    fc.assert(
      fc.property(text, (t) => {
        const { tool, diagnostics } = read(t);
        expect(tool === null || typeof tool.name === 'string').toBe(true);
        if (tool === null) expect(diagnostics.some((d) => d.severity === 'error')).toBe(true);
        expect(({} as Record<string, unknown>).type).toBeUndefined();
        expect(Object.prototype).not.toHaveProperty('program');
      }),
      { numRuns: 500 },
    );
  });
});

describe("a pack's argv as a Command line", () => {
  /** The words parse-command.ts reads from `text` (a pack's command uses gibb's {{braces}}). */
  const words = (text: string): string[] =>
    parseCommand(text, 'braces').tokens.map((token) => token.parts.map((part) => (part.kind === 'text' ? part.value : `{{${part.placeholder.key}}}`)).join(''));

  it('reads back word for word, whatever the words hold: a tab stays a tab, a newline a newline (JSON escapes did not)', () => {
    expect(words(commandText(['cut', '-d', '\t', '-f', '1']))).toEqual(['cut', '-d', '\t', '-f', '1']);
    // Characters a command line treats specially, and any other (no NUL: no argv holds one; no braces: those are placeholders).
    const char = fc.oneof(fc.constantFrom('\t', '\n', '\r', ' ', '"', "'", '\\', '|', '$', '<', '>', '\u0001', '\u00a0', 'é', '日'), fc.string({ minLength: 1, maxLength: 1 }));
    const word = fc.array(char, { maxLength: 8 }).map((chars) => chars.join('').replace(/[\0{}]/g, 'x'));
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 6 }), (argv) => {
        expect(words(commandText(argv))).toEqual(argv);
      }),
      { numRuns: 500 },
    );
  });
});
