import { describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../../src-main/shared/errors.js';
import { SkilltrayError } from '../../../src-main/shared/skilltray-error.js';
import { argumentsFromStrings, renderCommand, resolvePrompt, validateArguments, type RenderOptions } from '../../../src-main/core/template/render-command.js';
import type { PlaceholderSyntax, Tool, ToolParam } from '../../../src-main/shared/model.js';
import { param, skill, tool } from './skill-builder.js';
import { thrownBy } from '../../support/errors.js';

const SYNTAXES: PlaceholderSyntax[] = ['angle', 'braces'];

/** The same template in the braces syntax: only the markers differ. */
function inSyntax(command: string, syntax: PlaceholderSyntax): string {
  return syntax === 'angle' ? command : command.replaceAll('<<', '{{').replaceAll('>>', '}}');
}

/** The argv a call renders to; on Linux unless told, so the tables hold wherever the tests run. */
function argv(command: string, params: ToolParam[], args: unknown, syntax: PlaceholderSyntax = 'angle', platform: NodeJS.Platform = 'linux'): string[] {
  const rendered = renderCommand(skill([tool('t', inSyntax(command, syntax), params)], syntax), 't', args, { cwd: '/work', platform });
  return [rendered.program, ...rendered.args];
}

const str = (name: string, overrides: Partial<ToolParam> = {}) => param(name, 'string', overrides);
const int = (name: string, overrides: Partial<ToolParam> = {}) => param(name, 'integer', overrides);
const bool = (name: string, overrides: Partial<ToolParam> = {}) => param(name, 'boolean', overrides);

describe.each(SYNTAXES)('renderCommand forms (%s syntax)', (syntax) => {
  it.each<[string, string, ToolParam[], unknown, string[]]>([
    ['<<key>> with a string', 'echo <<msg>>', [str('msg')], { msg: 'hi there' }, ['echo', 'hi there']],
    ['<<key>> with an integer', 'head -n <<n>>', [int('n')], { n: 42 }, ['head', '-n', '42']],
    ['<<key>> with a number', 'sleep <<s>>', [param('s', 'number')], { s: 0.25 }, ['sleep', '0.25']],
    ['<<key>> with a big number', 'sleep <<s>>', [param('s', 'number')], { s: 1e21 }, ['sleep', '1e+21']],
    ['<<key>> with true', 'set <<v>>', [bool('v')], { v: true }, ['set', 'true']],
    ['<<key>> with false', 'set <<v>>', [bool('v')], { v: false }, ['set', 'false']],
    ['<<key>> with an enum', 'sum --length <<len>>', [param('len', 'enum', { enumValues: ['short', 'long'] })], { len: 'long' }, ['sum', '--length', 'long']],
    ['an enum named by a number', 'ping -c <<n>>', [param('n', 'enum', { enumValues: ['1', '2', '3'] })], { n: 3 }, ['ping', '-c', '3']],
    ['optional <<key>> missing drops the token', 'git diff <<file>> --stat', [str('file')], {}, ['git', 'diff', '--stat']],
    ['optional <<key>> null drops the token', 'git diff <<file>>', [str('file')], { file: null }, ['git', 'diff']],
    ['optional <<key>> "" drops the token', 'git diff <<file>>', [str('file')], { file: '' }, ['git', 'diff']],
    ['optional <<key>> undefined drops the token', 'git diff <<file>>', [str('file')], { file: undefined }, ['git', 'diff']],
    ['optional quoted "<<key>>" missing drops the token', 'git diff "<<file>>"', [str('file')], {}, ['git', 'diff']],
    ['quoted "<<key>>" present', 'grep "<<q>>"', [str('q')], { q: 'a b' }, ['grep', 'a b']],
    ['<<key:default>> missing', 'git log -n <<count:10>>', [int('count')], {}, ['git', 'log', '-n', '10']],
    ['<<key:default>> present', 'git log -n <<count:10>>', [int('count')], { count: 3 }, ['git', 'log', '-n', '3']],
    ['<<key:default>> null', 'git log -n <<count:10>>', [int('count')], { count: null }, ['git', 'log', '-n', '10']],
    ['<<key:.>> missing', 'ls <<path:.>>', [str('path')], {}, ['ls', '.']],
    ['<<key:.>> present', 'ls <<path:.>>', [str('path')], { path: 'src' }, ['ls', 'src']],
    ["<<key:>> missing gives the author's empty argument", 'x <<a:>>', [str('a')], {}, ['x', '']],
    ['<<key:"two words">> missing', 'x "<<a:two words>>"', [str('a')], {}, ['x', 'two words']],
    ['<<key:--flag>> true', 'git diff <<staged:--staged>>', [bool('staged')], { staged: true }, ['git', 'diff', '--staged']],
    ['<<key:--flag>> false', 'git diff <<staged:--staged>>', [bool('staged')], { staged: false }, ['git', 'diff']],
    ['<<key:--flag>> missing', 'git diff <<staged:--staged>>', [bool('staged')], {}, ['git', 'diff']],
    ['<<key:-a>> true', 'ls <<all:-a>>', [bool('all')], { all: true }, ['ls', '-a']],
    ['required <<key:--flag>> false', 'x <<f:--force>>', [bool('f', { required: true })], { f: false }, ['x']],
    ['<<key:-opt>> on a string, missing: nothing', 'mdfind <<folder:-onlyin>> x', [str('folder')], {}, ['mdfind', 'x']],
    [
      '<<key:-opt>> on a string, present: the option and the value',
      'mdfind <<folder:-onlyin>> x',
      [str('folder')],
      { folder: '/tmp' },
      ['mdfind', '-onlyin', '/tmp', 'x'],
    ],
    ['<<key:--opt>> on an integer, present', 'x <<n:--limit>>', [int('n')], { n: 5 }, ['x', '--limit', '5']],
    ['<<key:-opt>> on an enum, present', 'x <<m:-m>>', [param('m', 'enum', { enumValues: ['a', 'b'] })], { m: 'b' }, ['x', '-m', 'b']],
    ['<<key:-opt>> quoted is still the option form', 'x "<<folder:-onlyin>>"', [str('folder')], { folder: 'a b' }, ['x', '-onlyin', 'a b']],
    ['required <<key:-opt>>', 'x <<q:-name>>', [str('q', { required: true })], { q: 'r' }, ['x', '-name', 'r']],
    ['a negative-number default is a default, not an option', 'x <<n:-1>>', [int('n')], {}, ['x', '-1']],
    ['<<key:-opt>> inside a larger argument is a default', 'x --in=<<folder:-onlyin>>', [str('folder')], {}, ['x', '--in=-onlyin']],
    ['<<key:-opt>> inside a larger argument, present', 'x --in=<<folder:-onlyin>>', [str('folder')], { folder: 'a' }, ['x', '--in=a']],
    ['<<key:true>> on a boolean is a default', 'x <<v:true>>', [bool('v')], {}, ['x', 'true']],
    ['in a larger token, present', 'x --limit=<<limit>>', [int('limit')], { limit: 5 }, ['x', '--limit=5']],
    ['in a larger token, missing drops it', 'x --limit=<<limit>> y', [int('limit')], {}, ['x', 'y']],
    ['in a larger token, with a default', 'x --limit=<<limit:20>>', [int('limit')], {}, ['x', '--limit=20']],
    ['a dash value that does not begin the token', 'x --limit=<<limit>>', [int('limit')], { limit: -5 }, ['x', '--limit=-5']],
    ['a dash value after literal text', 'x pre<<a>>', [str('a')], { a: '-rf' }, ['x', 'pre-rf']],
    ['two placeholders in one token', 'x <<a>>:<<b>>', [str('a'), str('b')], { a: 'h', b: '80' }, ['x', 'h:80']],
    ['two placeholders, one missing, drops the token', 'x <<a>>:<<b>> y', [str('a'), str('b')], { a: 'h' }, ['x', 'y']],
    ['a flag inside a larger token, off', 'x --opt=<<f:-y>>', [bool('f')], { f: false }, ['x']],
    ['the same placeholder twice', 'cp <<f>> <<f>>.bak', [str('f')], { f: 'a' }, ['cp', 'a', 'a.bak']],
    ['an explicit empty argument stays', 'x "" <<a:y>>', [str('a')], {}, ['x', '', 'y']],
    ['parameters the template does not use are fine', 'x', [str('unused')], { unused: 'v' }, ['x']],
  ])('%s', (_name, command, params, args, expected) => {
    expect(argv(command, params, args, syntax)).toEqual(expected);
  });

  it.each<[string, unknown]>([
    ['spaces', 'two words'],
    ['quotes', `it's "quoted"`],
    ['command substitution', '$(rm -rf ~)'],
    ['a separator', 'a; rm -rf /'],
    ['a pipe', 'x | sh'],
    ['a newline', 'line1\nline2'],
    ['a backtick', '`id`'],
    ['a placeholder', '<<other>> {{other}}'],
    ['unicode', 'héllo 日本 🎉'],
    ['a glob', '*'],
    ['a variable', '$HOME'],
    ['backslashes', 'a\\b\\'],
  ])('places a value with %s literally, as one argument', (_name, value) => {
    expect(argv('echo <<msg>> end', [str('msg'), str('other')], { msg: value }, syntax)).toEqual(['echo', value, 'end']);
  });

  it('fills the RenderedCommand from the skill', () => {
    const demo = skill([tool('t', inSyntax('git log -n <<n:1>>', syntax), [int('n')])], syntax, {
      name: 'gitty',
      hash: 'a'.repeat(64),
      timeoutSec: 15,
      requires: { bins: ['git'], env: ['GIT_TOKEN'] },
    });
    expect(renderCommand(demo, 't', {}, { cwd: '/repo' })).toEqual({
      program: 'git',
      args: ['log', '-n', '1'],
      supplied: [],
      cwd: '/repo',
      timeoutMs: 15_000,
      env: ['GIT_TOKEN'],
      skill: 'gitty',
      tool: 't',
      skillHash: 'a'.repeat(64),
    });
  });

  it('marks the arguments a caller-supplied value went into, not defaults or flags', () => {
    const demo = skill(
      [
        tool('t', inSyntax('git -c x=y -C <<repo:.>> log <<all:--all>> -n <<n:1>> --format=<<fmt>> -- <<path>>', syntax), [
          str('repo'),
          { ...str('all'), type: 'boolean' },
          int('n'),
          str('fmt'),
          str('path'),
        ]),
      ],
      syntax,
    );
    const rendered = renderCommand(demo, 't', { all: true, n: 5, fmt: '%h', path: 'src' }, { cwd: '/' });
    expect(rendered.args).toEqual(['-c', 'x=y', '-C', '.', 'log', '--all', '-n', '5', '--format=%h', '--', 'src']);
    expect(rendered.supplied).toEqual([7, 8, 10]);
  });
});

describe('renderCommand: the argument-injection guard (E504)', () => {
  it.each<[string, string, ToolParam[], unknown]>([
    ['a whole-token string', 'git fetch <<remote>>', [str('remote')], { remote: '--upload-pack=touch /tmp/x' }],
    ['a single dash', 'cat <<f>>', [str('f')], { f: '-' }],
    ['a short option', 'rm <<f>>', [str('f')], { f: '-rf' }],
    ['a negative integer filling a token', 'head -n <<n>>', [int('n')], { n: -5 }],
    ['a negative number filling a token', 'sleep <<s>>', [param('s', 'number')], { s: -0.5 }],
    ['a quoted whole token', 'git fetch "<<remote>>"', [str('remote')], { remote: '--upload-pack=x' }],
    ['a value that begins a larger token', 'cp a <<dest>>.bak', [str('dest')], { dest: '--x' }],
    ['a value after an empty default', 'x <<a:>><<b>>', [str('a'), str('b')], { b: '-x' }],
    ['the value of an option form, which stands as its own argument', 'mdfind <<folder:-onlyin>>', [str('folder')], { folder: '-rf' }],
  ])('rejects %s', (_name, command, params, args) => {
    for (const syntax of SYNTAXES) {
      const error = thrownBy(() => argv(command, params, args, syntax));
      expect(error.code).toBe('E504');
      expect(error.details).toMatchObject({ param: params.at(-1)?.name });
    }
  });

  it.each<[string, string, ToolParam[], unknown, string[]]>([
    ['allow-dash on a string', 'cat <<f>>', [str('f', { allowDash: true })], { f: '-' }, ['cat', '-']],
    ['allow-dash on an integer', 'head -n <<n>>', [int('n', { allowDash: true })], { n: -5 }, ['head', '-n', '-5']],
    ['enum values, which the author wrote', 'x <<m>>', [param('m', 'enum', { enumValues: ['-v', '-q'] })], { m: '-q' }, ['x', '-q']],
    ['a default beginning with a dash', 'x <<n:-1>>', [int('n')], {}, ['x', '-1']],
    ['an option form whose value is missing', 'mdfind <<folder:-onlyin>>', [str('folder')], {}, ['mdfind']],
    ['a token dropped anyway', 'x <<a>><<b>> y', [str('a'), str('b')], { a: '-rf' }, ['x', 'y']],
  ])('allows %s', (_name, command, params, args, expected) => {
    expect(argv(command, params, args)).toEqual(expected);
  });
});

describe('renderCommand: the Windows switch guard (E504 for a leading slash on win32)', () => {
  /** The argv a call renders to, or the code of the SkilltrayError it throws. */
  const outcomeOf = (render: () => string[]): string[] | string => {
    try {
      return render();
    } catch (error) {
      if (error instanceof SkilltrayError) return error.code;
      throw error;
    }
  };
  const outcome = (command: string, params: ToolParam[], args: unknown, platform: NodeJS.Platform) =>
    outcomeOf(() => argv(command, params, args, 'angle', platform));

  it.each<[string, string, ToolParam[], unknown, string[] | string, string[] | string]>([
    ['a whole-token switch', 'dir <<p>>', [str('p')], { p: '/s' }, ['dir', '/s'], 'E504'],
    ['an absolute POSIX path', 'type <<p>>', [str('p')], { p: '/etc/hosts' }, ['type', '/etc/hosts'], 'E504'],
    ['a single slash', 'type <<p>>', [str('p')], { p: '/' }, ['type', '/'], 'E504'],
    ['a quoted whole token', 'find "<<p>>"', [str('p')], { p: '/v' }, ['find', '/v'], 'E504'],
    ['a value that begins a larger token', 'copy a <<p>>.bak', [str('p')], { p: '/y' }, ['copy', 'a', '/y.bak'], 'E504'],
    ['a value after an empty default', 'x <<a:>><<b>>', [str('a'), str('b')], { b: '/q' }, ['x', '/q'], 'E504'],
    ['a leading dash, as everywhere', 'x <<p>>', [str('p')], { p: '-q' }, 'E504', 'E504'],
    ['a value after literal text', 'x /out:<<p>>', [str('p')], { p: '/q' }, ['x', '/out:/q'], ['x', '/out:/q']],
    ['a value after a literal prefix', 'x pre<<p>>', [str('p')], { p: '/q' }, ['x', 'pre/q'], ['x', 'pre/q']],
    ['a slash later in the value', 'x <<p>>', [str('p')], { p: 'a/b' }, ['x', 'a/b'], ['x', 'a/b']],
    ['a drive path', 'x <<p>>', [str('p')], { p: 'C:\\Users\\ana' }, ['x', 'C:\\Users\\ana'], ['x', 'C:\\Users\\ana']],
    ['a UNC path', 'x <<p>>', [str('p')], { p: '\\\\server\\share' }, ['x', '\\\\server\\share'], ['x', '\\\\server\\share']],
    ['allow-dash, which allows a slash too', 'dir <<p>>', [str('p', { allowDash: true })], { p: '/s' }, ['dir', '/s'], ['dir', '/s']],
    ['an enum value, which the author wrote', 'dir <<m>>', [param('m', 'enum', { enumValues: ['/s', '/b'] })], { m: '/b' }, ['dir', '/b'], ['dir', '/b']],
    ['a default beginning with a slash', 'dir <<p:/s>>', [str('p')], {}, ['dir', '/s'], ['dir', '/s']],
    ['a token dropped anyway', 'x <<a>><<b>> y', [str('a'), str('b')], { a: '/s' }, ['x', 'y'], ['x', 'y']],
  ])('%s', (_name, command, params, args, onLinux, onWindows) => {
    expect(outcome(command, params, args, 'linux')).toEqual(onLinux);
    expect(outcome(command, params, args, 'darwin')).toEqual(onLinux);
    expect(outcome(command, params, args, 'win32')).toEqual(onWindows);
  });

  it('says what the slash would do and names the parameter', () => {
    const error = thrownBy(() => argv('dir <<path>>', [str('path')], { path: '/s' }, 'angle', 'win32'));
    expect(error.message).toBe(
      "argument 'path' of tool 't' begins with '/' and would start an argument, where it could act as an option on Windows; " +
        'the parameter does not allow a leading slash',
    );
    expect(error.details).toEqual({ param: 'path', tool: 't' });
  });

  it("guards for this process's platform when none is given", () => {
    const demo = skill([tool('t', 'dir <<p>>', [str('p')])]);
    const render = (options: RenderOptions) => outcomeOf(() => renderCommand(demo, 't', { p: '/s' }, options).args);
    expect(render({ cwd: '/' })).toEqual(render({ cwd: '/', platform: process.platform }));
  });
});

describe('renderCommand: errors, in order', () => {
  const t = tool('t', 'x <<name>> <<count:1>> <<mode:fast>>', [
    str('name', { required: true }),
    int('count'),
    param('mode', 'enum', { enumValues: ['fast', 'slow'] }),
  ]);
  const demo = skill([t]);
  const render = (args: unknown) => () => renderCommand(demo, 't', args, { cwd: '/' });

  it.each<[string, () => unknown, ErrorCode, RegExp, Record<string, unknown>]>([
    [
      'an unknown tool',
      () => renderCommand(demo, 'nope', {}, { cwd: '/' }),
      'E506',
      /tool 'nope' not found in skill 'demo'; it has t/,
      { tool: 'nope', available: ['t'] },
    ],
    [
      'a skill in error',
      () =>
        renderCommand(
          skill([t], 'angle', { state: 'error', diagnostics: [{ code: 'E412', severity: 'error', message: 'm', file: 'f', line: 1, breaks: [] }] }),
          't',
          { name: 'a' },
          { cwd: '/' },
        ),
      'E507',
      /has errors \(E412\) and cannot run until they are fixed: m$/,
      { diagnostics: ['E412'] },
    ],
    [
      'an unknown tool before a skill in error',
      () => renderCommand(skill([t], 'angle', { state: 'error' }), 'nope', {}, { cwd: '/' }),
      'E506',
      /not found/,
      {},
    ],
    ['arguments that are an array', render([]), 'E508', /must be a JSON object, got an array/, {}],
    ['arguments that are null', render(null), 'E508', /got null/, {}],
    ['arguments that are a string', render('name=a'), 'E508', /got "name=a"/, {}],
    ['arguments that are undefined', render(undefined), 'E508', /got a undefined/, {}],
    ['arguments that are a Map', render(new Map([['name', 'a']])), 'E508', /got an object/, {}],
    [
      'an undeclared argument',
      render({ name: 'a', colour: 'red' }),
      'E502',
      /unknown argument 'colour' for tool 't'; it takes name, count, mode/,
      { param: 'colour' },
    ],
    ['__proto__ from JSON', render(JSON.parse('{"name":"a","__proto__":{"x":1}}')), 'E502', /unknown argument '__proto__'/, { param: '__proto__' }],
    ['an undeclared argument before a missing one', render({ colour: 'red' }), 'E502', /colour/, { param: 'colour' }],
    [
      'a wrong type before a missing one',
      render({ count: 'three' }),
      'E503',
      /^argument 'count' of tool 't' must be a whole number, got "three"$/,
      { param: 'count' },
    ],
    ['a string that is a number', render({ name: 5 }), 'E503', /'name' .* must be text, got 5/, { param: 'name' }],
    ['a string with a NUL byte', render({ name: 'a\0b' }), 'E503', /without NUL bytes/, { param: 'name' }],
    ['a fractional integer', render({ name: 'a', count: 1.5 }), 'E503', /must be a whole number, got 1.5/, { param: 'count' }],
    ['a fractional integer as a numeral', render({ name: 'a', count: '1.5' }), 'E503', /must be a whole number, got "1.5"/, { param: 'count' }],
    ['an unsafe integer', render({ name: 'a', count: 2 ** 53 }), 'E503', /must be a whole number of at most 9007199254740991 either way/, { param: 'count' }],
    ['a boolean for an integer', render({ name: 'a', count: true }), 'E503', /got true/, { param: 'count' }],
    [
      'an enum value not listed',
      render({ name: 'a', mode: 'medium' }),
      'E505',
      /'mode' .* must be one of fast, slow; got "medium"/,
      { param: 'mode', allowed: ['fast', 'slow'] },
    ],
    ['an enum value of the wrong case', render({ name: 'a', mode: 'Fast' }), 'E505', /one of fast, slow/, { param: 'mode' }],
    ['an enum value that is a number', render({ name: 'a', mode: 1 }), 'E505', /got 1/, { param: 'mode' }],
    ['a required argument missing', render({}), 'E501', /missing required argument 'name' for tool 't'/, { param: 'name' }],
    ['a required argument null', render({ name: null }), 'E501', /'name'/, { param: 'name' }],
    ['a required argument empty', render({ name: '' }), 'E501', /'name'/, { param: 'name' }],
  ])('%s', (_name, run, code, message, details) => {
    const error = thrownBy(run);
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
    expect(error.details).toMatchObject(details);
  });

  it.each<[string, string, ToolParam[]]>([
    ['an empty command', '  \n ', []],
    ['a placeholder program', '<<prog>> x', [str('prog')]],
    ['a program with a placeholder inside', 'git<<x:-y>> x', [str('x')]],
    ['an empty program', '"" x', []],
    ['a placeholder naming no parameter', 'x <<ghost:1>>', []],
    ['an unterminated quote', 'x "abc', []],
  ])('rejects a broken template with E509: %s', (_name, command, params) => {
    expect(thrownBy(() => argv(command, params, {})).code).toBe('E509');
  });

  it('accepts arguments in a null-prototype object', () => {
    const args = Object.assign(Object.create(null) as Record<string, unknown>, { name: 'a' });
    expect(renderCommand(demo, 't', args, { cwd: '/' }).args).toEqual(['a', '1', 'fast']);
  });
});

describe('validateArguments', () => {
  const t: Tool = tool('t', 'x', [str('s'), int('i'), param('n', 'number'), bool('b'), param('e', 'enum', { enumValues: ['a', 'b'] })]);

  it('returns the typed values and leaves missing ones out', () => {
    expect(validateArguments(t, { s: 'x', i: -3, n: 2.5, b: false, e: 'b' })).toEqual({ s: 'x', i: -3, n: 2.5, b: false, e: 'b' });
    const partial = validateArguments(t, { s: '', i: null, b: true });
    expect(partial).toEqual({ b: true });
    expect(Object.keys(partial)).toEqual(['b']);
  });

  it.each<[string, unknown]>([
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a word', 'two'],
    ['a numeral with spaces', ' 2.5'],
    ['Infinity as text', 'Infinity'],
  ])('rejects %s for a number', (_name, value) => {
    expect(thrownBy(() => validateArguments(t, { n: value })).code).toBe('E503');
  });

  it('takes numerals sent as text (as many assistants send numbers) and keeps them numbers', () => {
    expect(validateArguments(t, { i: '3', n: '2.5' })).toEqual({ i: 3, n: 2.5 });
    expect(validateArguments(t, { i: '-12', n: '-.5e1' })).toEqual({ i: -12, n: -5 });
    for (const text of ['3.0', '0x10', ' 3', '3 ', '1e3'])
      expect(thrownBy(() => validateArguments(t, { i: text })).message, text).toMatch(/must be a whole number/);
  });

  it('rejects "true" for a boolean', () => {
    expect(thrownBy(() => validateArguments(t, { b: 'true' })).code).toBe('E503');
  });

  it('keeps a parameter named __proto__ as plain data', () => {
    const odd = tool('t', 'x', [str('__proto__')]);
    const values = validateArguments(odd, JSON.parse('{"__proto__":"v"}'));
    expect(Object.getPrototypeOf(values)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(values, '__proto__')?.value).toBe('v');
  });

  it('says when a tool takes no arguments', () => {
    expect(thrownBy(() => validateArguments(tool('t', 'x'), { a: 1 })).message).toMatch(/it takes no arguments/);
  });
});

describe('argumentsFromStrings', () => {
  const t: Tool = tool('t', 'x', [
    str('s'),
    int('i'),
    param('n', 'number'),
    bool('b'),
    param('e', 'enum', { enumValues: ['a', 'b'] }),
    str('r', { required: true }),
  ]);

  it('converts by the declared types', () => {
    expect(
      argumentsFromStrings(t, [
        ['s', '5'],
        ['i', '-12'],
        ['n', '2.5e3'],
        ['b', 'true'],
        ['e', 'a'],
        ['r', 'x=y'],
      ]),
    ).toEqual({ s: '5', i: -12, n: 2500, b: true, e: 'a', r: 'x=y' });
    expect(
      argumentsFromStrings(t, [
        ['b', 'false'],
        ['n', '.5'],
        ['r', 'r'],
      ]),
    ).toEqual({ b: false, n: 0.5, r: 'r' });
  });

  it('treats an empty value as not given', () => {
    expect(
      argumentsFromStrings(t, [
        ['i', ''],
        ['b', ''],
        ['r', 'x'],
      ]),
    ).toEqual({ r: 'x' });
    expect(thrownBy(() => argumentsFromStrings(t, [['r', '']])).code).toBe('E501');
  });

  it.each<[string, readonly (readonly [string, string])[], ErrorCode, Record<string, unknown>]>([
    ['an undeclared key', [['zz', '1']], 'E502', { param: 'zz' }],
    [
      'a non-integer',
      [
        ['i', '1.5'],
        ['r', 'x'],
      ],
      'E503',
      { param: 'i' },
    ],
    [
      'an integer with spaces',
      [
        ['i', ' 1'],
        ['r', 'x'],
      ],
      'E503',
      { param: 'i' },
    ],
    [
      'an integer in hex',
      [
        ['i', '0x10'],
        ['r', 'x'],
      ],
      'E503',
      { param: 'i' },
    ],
    [
      'an unsafe integer',
      [
        ['i', '9007199254740993'],
        ['r', 'x'],
      ],
      'E503',
      { param: 'i' },
    ],
    [
      'a non-number',
      [
        ['n', 'abc'],
        ['r', 'x'],
      ],
      'E503',
      { param: 'n' },
    ],
    [
      'Infinity',
      [
        ['n', 'Infinity'],
        ['r', 'x'],
      ],
      'E503',
      { param: 'n' },
    ],
    [
      'an overflowing number',
      [
        ['n', '1e999'],
        ['r', 'x'],
      ],
      'E503',
      { param: 'n' },
    ],
    [
      'a boolean spelt yes',
      [
        ['b', 'yes'],
        ['r', 'x'],
      ],
      'E503',
      { param: 'b' },
    ],
    [
      'a boolean in capitals',
      [
        ['b', 'TRUE'],
        ['r', 'x'],
      ],
      'E503',
      { param: 'b' },
    ],
    [
      'an enum value not listed',
      [
        ['e', 'c'],
        ['r', 'x'],
      ],
      'E505',
      { param: 'e', allowed: ['a', 'b'] },
    ],
    [
      'a key given twice',
      [
        ['s', '1'],
        ['s', '2'],
      ],
      'E508',
      { param: 's' },
    ],
    ['a missing required key', [['s', '1']], 'E501', { param: 'r' }],
  ])('rejects %s', (_name, pairs, code, details) => {
    const error = thrownBy(() => argumentsFromStrings(t, pairs));
    expect(error.code).toBe(code);
    expect(error.details).toMatchObject(details);
  });
});

describe('resolvePrompt', () => {
  const prompt = (body: string, args: string[]) => resolvePrompt(skill([], 'angle', { body }), args);

  it('replaces every $ARGUMENTS with the arguments joined by spaces', () => {
    expect(prompt('Review $ARGUMENTS.\nThen summarise $ARGUMENTS.', ['src/a.ts', 'b.ts'])).toBe('Review src/a.ts b.ts.\nThen summarise src/a.ts b.ts.');
  });

  it('uses an empty string without arguments and leaves a body without $ARGUMENTS alone', () => {
    expect(prompt('Run on: $ARGUMENTS', [])).toBe('Run on: ');
    expect(prompt('No arguments here.', ['x'])).toBe('No arguments here.');
  });

  it('keeps replacement patterns in arguments literal', () => {
    expect(prompt('[$ARGUMENTS]', ["$& $' $` $$ $1"])).toBe("[$& $' $` $$ $1]");
  });
});
