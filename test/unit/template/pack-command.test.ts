/**
 * A tool pack's `{{…}}` rendered as gibb.eri.sh renders it: the oracle table (gibb's own
 * build_command run on each case, test/fixtures/gibb-tool-packs/oracle.md), a property test against
 * a model of gibb's substitution as its code reads, and the injection guard over generated values.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blankSkill } from '../../../src-main/core/skills/parse-skill.js';
import { DiagnosticList } from '../../../src-main/core/skills/diagnostics.js';
import { readToolPack } from '../../../src-main/core/skills/tool-pack.js';
import { capOutput, shapeOutput } from '../../../src-main/core/skills/pack-output.js';
import { renderCommand } from '../../../src-main/core/template/render-command.js';
import type { RunResult, Skill, Tool } from '../../../src-main/shared/model.js';
import { thrownBy } from '../../support/errors.js';

interface OracleCase {
  kind: 'same' | 'guard' | 'flag' | 'output';
  note?: string;
  dashed?: string;
  pack: Record<string, unknown>;
  args: Record<string, unknown>;
  gibb: { program: string; argv: string[] };
  gibbSkillMd: string[] | { error: string };
  stdout?: string;
  gibbOutput?: string;
}

const table = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'gibb-tool-packs', 'oracle.json'), 'utf8')) as { cases: OracleCase[] };

/** The pack read as Skilltray reads it, as the one tool of a skill. */
function packSkill(pack: Record<string, unknown>): { skill: Skill; tool: Tool } {
  const diags = new DiagnosticList();
  const { tool } = readToolPack(Buffer.from(JSON.stringify(pack)), '/packs/p.tool.json', diags);
  expect(diags.items.filter((d) => d.severity === 'error')).toEqual([]);
  const skill = {
    ...blankSkill('/packs', { path: '/', kind: 'gibbtools', trust: 'user', syntax: 'braces' }),
    syntax: 'braces' as const,
    tools: [tool as Tool],
  };
  return { skill, tool: tool as Tool };
}

const render = (skill: Skill, tool: Tool, args: unknown) => renderCommand(skill, tool.name, args, { cwd: '/tmp', platform: 'linux' });

describe("the oracle: gibb.eri.sh's own build_command on the same pack and arguments", () => {
  const cases = table.cases;
  it('covers every kind, gibb’s own example pack included', () => {
    expect(cases.filter((c) => c.kind === 'same').length).toBeGreaterThanOrEqual(100);
    expect(cases.filter((c) => c.kind === 'guard').length).toBeGreaterThanOrEqual(20);
    expect(cases.filter((c) => c.kind === 'flag').length).toBeGreaterThanOrEqual(20);
    expect(cases.some((c) => c.note === "gibb's own example pack")).toBe(true);
  });

  it.each(cases.filter((c) => c.kind === 'same').map((c, i) => [i, c] as const))('renders case %i exactly as gibb does', (_, c) => {
    const { skill, tool } = packSkill(c.pack);
    const rendered = render(skill, tool, c.args);
    expect({ program: rendered.program, argv: rendered.args }).toEqual(c.gibb);
  });

  it.each(cases.filter((c) => c.kind === 'guard').map((c, i) => [i, c] as const))(
    'refuses case %i, where gibb would pass a value that starts with a dash as an argument of its own (E504)',
    (_, c) => {
      const { skill, tool } = packSkill(c.pack);
      const dashed = c.args[c.dashed as string] as string;
      expect(c.gibb.argv.some((arg) => arg.startsWith(dashed))).toBe(true);
      const error = thrownBy(() => render(skill, tool, c.args));
      expect(error.code).toBe('E504');
      expect(error.message).toContain(`argument '${c.dashed as string}'`);
    },
  );

  it.each(cases.filter((c) => c.kind === 'flag').map((c, i) => [i, c] as const))(
    "renders case %i's {{flag:--x}} as gibb's interpolate_command does (its tool-pack path passes 'true' instead)",
    (_, c) => {
      const { skill, tool } = packSkill(c.pack);
      expect(Array.isArray(c.gibbSkillMd)).toBe(true);
      expect(render(skill, tool, c.args).args).toEqual(c.gibbSkillMd);
    },
  );

  it.each(cases.filter((c) => c.kind === 'output').map((c, i) => [i, c] as const))('caps case %i’s output as gibb’s process_output does', (_, c) => {
    const { tool } = packSkill(c.pack);
    const result: RunResult = {
      exitCode: 0,
      signal: null,
      timedOut: false,
      cancelled: false,
      stdout: c.stdout as string,
      stderr: '',
      droppedBytes: { stdout: 0, stderr: 0 },
      durationMs: 1,
    };
    const shaped = shapeOutput(tool, result);
    expect(shaped.stdout).toBe(c.gibbOutput);
    expect(shaped.speech).toMatch(/^[^\n]{1,200}[.!?…]$/u);
  });
});

/**
 * gibb's ToolPackTool::substitute and build_command as its code reads (tool_pack.rs): every
 * `{{name}}`/`{{name:default}}` replaced by the value's text, else the inline default, else the
 * parameter's default, else nothing; an argument that comes out empty is dropped.
 */
function gibbModel(args: readonly string[], values: Record<string, string | number | boolean>, defaults: Record<string, string>): string[] {
  const out: string[] = [];
  for (const template of args) {
    const text = template.replace(
      /\{\{([\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}]+)(?::([^}]*))?\}\}/gu,
      (_, name: string, inline: string | undefined) => {
        if (Object.hasOwn(values, name)) return String(values[name]);
        if (inline !== undefined) return inline;
        return Object.hasOwn(defaults, name) ? (defaults[name] as string) : '';
      },
    );
    if (text !== '') out.push(text);
  }
  return out;
}

/** The value a rendered argument starts with, when a value given starts it (the text before it rendered empty), or null. */
function valueStartingArg(template: string, values: Record<string, string>): string | null {
  for (const match of template.matchAll(/\{\{(\w+)(?::([^}]*))?\}\}|[^{]+|\{/g)) {
    if (match[1] === undefined) return null;
    if (Object.hasOwn(values, match[1])) return values[match[1]] as string;
    if ((match[2] ?? '') !== '') return null;
  }
  return null;
}

const NAMES = ['a', 'b', 'c', 'd'] as const;
const word = fc.stringMatching(/^[^-{}][^{}]{0,8}$/);
const placeholder = fc.record({ name: fc.constantFrom(...NAMES), inline: fc.option(fc.stringMatching(/^[^}]{0,6}$/), { nil: undefined }) });
const template = fc
  .array(
    fc.oneof(
      word,
      placeholder.map(({ name, inline }) => `{{${name}${inline === undefined ? '' : `:${inline}`}}}`),
    ),
    { maxLength: 3 },
  )
  .map((parts) => parts.join(''));

function stringPack(args: string[], defaults: Record<string, string>) {
  const parameters = Object.fromEntries(NAMES.map((name) => [name, { type: 'string', ...(Object.hasOwn(defaults, name) ? { default: defaults[name] } : {}) }]));
  return packSkill({ name: 'gen', description: 'Generated.', parameters, command: { program: 'prog', args } });
}

describe('tool pack rendering (property tests)', () => {
  it("matches gibb's substitution as its code reads, for any template and any values that start no argument with a dash", () => {
    fc.assert(
      fc.property(
        fc.array(template, { maxLength: 6 }),
        fc.dictionary(fc.constantFrom(...NAMES), fc.stringMatching(/^[^-].{0,10}$/s), { maxKeys: 4 }),
        fc.dictionary(fc.constantFrom(...NAMES), fc.string({ maxLength: 6 }), { maxKeys: 4 }),
        (args, values, defaults) => {
          const { skill, tool } = stringPack(args, defaults);
          expect(render(skill, tool, values).args).toEqual(gibbModel(args, values, defaults));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never lets a value become an option or a second argument, whatever the template and the values (hostile values)', () => {
    const hostile = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('-x', '--upload-pack=evil', '-', '--', ' -x', 'a b', 'a\nb', '{{a}}', '$(id)'));
    fc.assert(
      fc.property(fc.array(template, { minLength: 1, maxLength: 6 }), fc.dictionary(fc.constantFrom(...NAMES), hostile, { maxKeys: 4 }), (args, values) => {
        const { skill, tool } = stringPack(args, {});
        const given = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
        const dashLed = args.some((t) => valueStartingArg(t, given)?.startsWith('-') === true);
        if (dashLed) {
          expect(thrownBy(() => render(skill, tool, values)).code).toBe('E504');
          return;
        }
        // Each argument is one template's text: no value split into two, none joined to the next, none leading with a dash.
        expect(render(skill, tool, values).args).toEqual(gibbModel(args, given, {}));
      }),
      { numRuns: 400 },
    );
  });

  it('lets a parameter that allows a dash take one, and keeps a dash value after other text', () => {
    const { skill, tool } = packSkill({
      name: 'dash',
      description: 'Dashes.',
      parameters: { n: { type: 'string', allow_dash: true }, m: { type: 'string' } },
      command: { program: 'prog', args: ['{{n}}', '--m={{m}}'] },
    });
    expect(render(skill, tool, { n: '-1', m: '-2' }).args).toEqual(['-1', '--m=-2']);
    const bare = { ...tool, pack: { program: 'prog', args: ['{{m}}'] } };
    expect(thrownBy(() => render({ ...skill, tools: [bare] }, bare, { m: '-2' })).code).toBe('E504');
  });

  it('caps output by characters, never cutting one in two where gibb cuts bytes', () => {
    expect(capOutput('日本語のテキスト', 3)).toBe('日本語...');
    expect(capOutput('😀😀', 1)).toBe('😀...');
    expect(capOutput('short', 10)).toBe('short');
  });
});
