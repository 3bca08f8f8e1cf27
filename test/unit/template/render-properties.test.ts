/**
 * Properties of rendering over adversarial values and randomly built templates: values land in
 * argv verbatim as single elements, dropped tokens leave no trace, an option form gives its option
 * and the value or nothing, and no argument value can begin an argv element with `-` unless its
 * parameter allows it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SkilltrayError } from '../../../src-main/shared/skilltray-error.js';
import { renderCommand } from '../../../src-main/core/template/render-command.js';
import type { PlaceholderSyntax, ToolParam } from '../../../src-main/shared/model.js';
import { param, skill, tool } from './skill-builder.js';

const syntaxArb = fc.constantFrom<PlaceholderSyntax>('angle', 'braces');

/** Strings an attacker would try: quotes, spaces, shell syntax, placeholders, newlines, unicode, leading dashes. */
const nastyString = fc
  .oneof(
    fc.string({
      unit: fc.oneof(
        fc.constantFrom('-', '--', '"', "'", ' ', '\t', '\n', '\\', '$(', ')', '`', ';', '|', '&&', '>', '<<', '>>', '{{', '}}', '*', '~', '$HOME', '=', ':'),
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
      ),
      maxLength: 10,
    }),
    fc.string({ unit: 'binary', maxLength: 10 }),
  )
  .filter((s) => !s.includes('\0'));

function markers(syntax: PlaceholderSyntax): [string, string] {
  return syntax === 'angle' ? ['<<', '>>'] : ['{{', '}}'];
}

/** Double-quotes a literal so it parses back to itself in either syntax. */
function quoteLiteral(value: string, syntax: PlaceholderSyntax): string {
  const opener = syntax === 'angle' ? '<' : '{';
  let out = '"';
  for (const ch of value) out += ch === '"' || ch === '\\' || ch === opener ? `\\${ch}` : ch;
  return `${out}"`;
}

/** What a template token is made of, so the expected argv can be computed independently. */
type TokenSpec =
  | { kind: 'literal'; text: string }
  | { kind: 'whole'; key: string; fallback: string | null; quoted: boolean }
  | { kind: 'prefixed'; prefix: string; key: string }
  | { kind: 'flag'; flag: string }
  | { kind: 'option'; key: string; option: string };

const VALUE_KEYS = ['a', 'b', 'c', 'i', 'e'] as const;
const safeText = fc.string({ unit: fc.constantFrom('a', 'Z', '0', '.', '/', '_', '=', '-'), maxLength: 6 });

const tokenSpec: fc.Arbitrary<TokenSpec> = fc.oneof(
  fc.record({ kind: fc.constant('literal' as const), text: nastyString }),
  fc.record({ kind: fc.constant('whole' as const), key: fc.constantFrom(...VALUE_KEYS), fallback: fc.option(safeText, { nil: null }), quoted: fc.boolean() }),
  fc.record({ kind: fc.constant('prefixed' as const), prefix: safeText.filter((s) => s !== ''), key: fc.constantFrom(...VALUE_KEYS) }),
  fc.record({ kind: fc.constant('flag' as const), flag: fc.constantFrom('-f', '--force', '-') }),
  fc.record({ kind: fc.constant('option' as const), key: fc.constantFrom(...VALUE_KEYS), option: fc.constantFrom('-o', '-onlyin', '--limit', '--dry-run') }),
);

/** A fallback the docs call an option name: one or two dashes, then a letter. */
function isOptionName(fallback: string): boolean {
  return /^--?[A-Za-z][A-Za-z0-9_.-]*$/.test(fallback);
}

function templateOf(specs: readonly TokenSpec[], syntax: PlaceholderSyntax): string {
  const [open, close] = markers(syntax);
  const words = specs.map((spec) => {
    switch (spec.kind) {
      case 'literal':
        return quoteLiteral(spec.text, syntax);
      case 'whole': {
        const placeholder = `${open}${spec.key}${spec.fallback === null ? '' : `:${spec.fallback}`}${close}`;
        return spec.quoted ? `"${placeholder}"` : placeholder;
      }
      case 'prefixed':
        return `${spec.prefix}${open}${spec.key}${close}`;
      case 'flag':
        return `${open}f:${spec.flag}${close}`;
      case 'option':
        return `${open}${spec.key}:${spec.option}${close}`;
    }
  });
  return ['prog', ...words].join(' ');
}

const paramsArb = fc.record({
  a: fc.record({ required: fc.boolean(), allowDash: fc.boolean() }),
  b: fc.record({ required: fc.boolean(), allowDash: fc.boolean() }),
  c: fc.record({ required: fc.boolean(), allowDash: fc.boolean() }),
  i: fc.record({ required: fc.boolean(), allowDash: fc.boolean() }),
});

type ParamFlags = Record<'a' | 'b' | 'c' | 'i', { required: boolean; allowDash: boolean }>;

function paramsOf(flags: ParamFlags): ToolParam[] {
  return [
    param('a', 'string', flags.a),
    param('b', 'string', flags.b),
    param('c', 'string', flags.c),
    param('i', 'integer', flags.i),
    param('e', 'enum', { enumValues: ['-v', 'plain', '--all'] }),
    param('f', 'boolean'),
  ];
}

const missing = fc.constantFrom(undefined, null, '');
const argsArb = fc.record(
  {
    a: fc.oneof(nastyString, missing),
    b: fc.oneof(nastyString, missing),
    c: fc.oneof(nastyString, missing),
    i: fc.oneof(fc.integer(), fc.constant(null)),
    e: fc.oneof(fc.constantFrom('-v', 'plain', '--all'), missing),
    f: fc.oneof(fc.boolean(), fc.constant(null)),
  },
  { requiredKeys: [] },
);

/** The code of the SkilltrayError `run` throws, or null when it returns. */
function errorCode(run: () => unknown): string | null {
  try {
    run();
  } catch (error) {
    if (error instanceof SkilltrayError) return error.code;
    throw error;
  }
  return null;
}

function isGiven(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

/** An independent model of rendering: the argv, or the error code it must fail with. */
function expected(specs: readonly TokenSpec[], params: readonly ToolParam[], args: Record<string, unknown>): string[] | 'E501' | 'E504' {
  if (params.some((p) => p.required && !isGiven(args[p.name]))) return 'E501';
  const argv: string[] = [];
  for (const spec of specs) {
    if (spec.kind === 'literal') {
      argv.push(spec.text);
    } else if (spec.kind === 'flag') {
      if (args.f === true) argv.push(spec.flag);
    } else if (spec.kind === 'option' || (spec.kind === 'whole' && spec.fallback !== null && isOptionName(spec.fallback))) {
      const value = args[spec.key];
      const p = params.find((candidate) => candidate.name === spec.key) as ToolParam;
      if (isGiven(value)) {
        const text = String(value);
        if (text.startsWith('-') && !p.allowDash && p.type !== 'enum') return 'E504';
        argv.push(spec.kind === 'option' ? spec.option : (spec.fallback as string), text);
      }
    } else {
      const value = args[spec.key];
      const p = params.find((candidate) => candidate.name === spec.key) as ToolParam;
      if (isGiven(value)) {
        const text = String(value);
        const begins = spec.kind === 'whole';
        if (begins && text.startsWith('-') && !p.allowDash && p.type !== 'enum') return 'E504';
        argv.push(spec.kind === 'prefixed' ? spec.prefix + text : text);
      } else if (spec.kind === 'whole' && spec.fallback !== null) {
        argv.push(spec.fallback);
      }
    }
  }
  return argv;
}

describe('rendering properties', () => {
  it('matches an independent model on random templates and adversarial values', () => {
    fc.assert(
      fc.property(fc.array(tokenSpec, { maxLength: 8 }), paramsArb, argsArb, syntaxArb, (specs, flags, args, syntax) => {
        const params = paramsOf(flags);
        const demo = skill([tool('t', templateOf(specs, syntax), params)], syntax);
        const want = expected(specs, params, args);
        if (typeof want === 'string') {
          expect(errorCode(() => renderCommand(demo, 't', args, { cwd: '/' }))).toBe(want);
        } else {
          const rendered = renderCommand(demo, 't', args, { cwd: '/' });
          expect(rendered.program).toBe('prog');
          expect(rendered.args).toEqual(want);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('(a) a value that fills a token is exactly one argv element, verbatim', () => {
    fc.assert(
      fc.property(
        nastyString.filter((s) => s !== '' && !s.startsWith('-')),
        nastyString.filter((s) => s !== '' && !s.startsWith('-')),
        syntaxArb,
        (x, y, syntax) => {
          const [open, close] = markers(syntax);
          const demo = skill([tool('t', `run ${open}x${close} middle "${open}y${close}" end`, [param('x', 'string'), param('y', 'string')])], syntax);
          expect(renderCommand(demo, 't', { x, y }, { cwd: '/' }).args).toEqual([x, 'middle', y, 'end']);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('(b) argv has one element per token that is not dropped', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.option(
            nastyString.filter((s) => s !== '' && !s.startsWith('-')),
            { nil: undefined },
          ),
          { minLength: 1, maxLength: 6 },
        ),
        syntaxArb,
        (values, syntax) => {
          const [open, close] = markers(syntax);
          const keys = values.map((_, index) => `k${index}`);
          const command = ['run', ...keys.map((key) => `--${key}=${open}${key}${close}`), 'end'].join(' ');
          const args = Object.fromEntries(keys.flatMap((key, index) => (values[index] === undefined ? [] : [[key, values[index]]])));
          const demo = skill(
            [
              tool(
                't',
                command,
                keys.map((key) => param(key, 'string')),
              ),
            ],
            syntax,
          );
          const rendered = renderCommand(demo, 't', args, { cwd: '/' });
          expect(rendered.args).toHaveLength(values.filter((value) => value !== undefined).length + 1);
          expect(rendered.args.at(-1)).toBe('end');
        },
      ),
      { numRuns: 500 },
    );
  });

  it('(c) no value beginning with "-" starts an argv element unless its parameter allows it', () => {
    fc.assert(
      fc.property(nastyString, fc.boolean(), syntaxArb, (value, allowDash, syntax) => {
        const [open, close] = markers(syntax);
        const demo = skill([tool('t', `run ${open}v${close} ${open}v${close}.bak x=${open}v${close}`, [param('v', 'string', { allowDash })])], syntax);
        let args: string[];
        try {
          args = renderCommand(demo, 't', { v: value }, { cwd: '/' }).args;
        } catch (error) {
          expect(error).toBeInstanceOf(SkilltrayError);
          expect((error as SkilltrayError).code).toBe('E504');
          expect(value.startsWith('-') && !allowDash).toBe(true);
          return;
        }
        if (!allowDash) expect(args.filter((arg) => arg.startsWith('-'))).toEqual([]);
        if (value !== '') expect(args).toEqual([value, `${value}.bak`, `x=${value}`]);
      }),
      { numRuns: 1000 },
    );
  });

  it('(d) rendering any template text fails only with a SkilltrayError', () => {
    const templateText = fc.string({ unit: fc.constantFrom('<<', '>>', '{{', '}}', 'a', ':', '-', '"', "'", '\\', ' ', '\n', 'x', '\0'), maxLength: 30 });
    fc.assert(
      fc.property(
        templateText,
        syntaxArb,
        fc.dictionary(fc.constantFrom('a', 'x'), fc.oneof(nastyString, fc.boolean(), fc.integer())),
        (command, syntax, args) => {
          const demo = skill([tool('t', command, [param('a', 'string'), param('x', 'boolean')])], syntax);
          try {
            renderCommand(demo, 't', args, { cwd: '/' });
          } catch (error) {
            return error instanceof SkilltrayError;
          }
          return true;
        },
      ),
      { numRuns: 2000 },
    );
  });
});
