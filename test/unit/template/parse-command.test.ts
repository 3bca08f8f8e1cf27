import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SkilltrayError } from '../../../src-main/shared/skilltray-error.js';
import { parseAnyCommand, parseCommand, parsePlainCommand, type ParsedCommand } from '../../../src-main/core/template/parse-command.js';
import type { PlaceholderSyntax } from '../../../src-main/shared/model.js';

/** Tokens in a compact form: literal text as is, a placeholder as ⟨key⟩ or ⟨key:fallback⟩. */
function compact(parsed: ParsedCommand): string[] {
  return parsed.tokens.map((token) =>
    token.parts
      .map((part) =>
        part.kind === 'text' ? part.value : `⟨${part.placeholder.key}${part.placeholder.fallback === null ? '' : `:${part.placeholder.fallback}`}⟩`,
      )
      .join(''),
  );
}

function parseError(text: string, syntax: PlaceholderSyntax = 'angle'): SkilltrayError {
  try {
    parseCommand(text, syntax);
  } catch (error) {
    if (error instanceof SkilltrayError) return error;
    throw error;
  }
  throw new Error(`parsed without error: ${text}`);
}

describe('parseCommand: tokens', () => {
  it.each([
    ['git status --short', ['git', 'status', '--short']],
    ['  git \t status\n--short  ', ['git', 'status', '--short']],
    ['echo "hello world"', ['echo', 'hello world']],
    ["echo 'hello world'", ['echo', 'hello world']],
    ['echo a"b c"d', ['echo', 'ab cd']],
    [`echo 'it'"'"'s'`, ['echo', "it's"]],
    ['echo "say \\"hi\\""', ['echo', 'say "hi"']],
    ['echo "a\\\\b"', ['echo', 'a\\b']],
    // Inside double quotes only \" \\ and the placeholder escape are escapes.
    ['echo "a\\nb\\$c"', ['echo', 'a\\nb\\$c']],
    ["echo 'a\\b\\'", ['echo', 'a\\b\\']],
    ['echo a\\ b', ['echo', 'a b']],
    ['echo \\"x\\"', ['echo', '"x"']],
    ['echo \\\\', ['echo', '\\']],
    ['git log \\\n  --oneline', ['git', 'log', '--oneline']],
    ['echo ab\\\ncd', ['echo', 'abcd']],
    ['echo "line1\nline2"', ['echo', 'line1\nline2']],
    ['echo "" x', ['echo', '', 'x']],
    ["echo ''", ['echo', '']],
    ['echo """"', ['echo', '']],
    ['', []],
    ['   \n\t ', []],
    ['echo é 日本 🎉', ['echo', 'é', '日本', '🎉']],
  ])('%j splits into %j', (text, expected) => {
    expect(compact(parseCommand(text, 'angle'))).toEqual(expected);
  });

  it('marks tokens that contained a quoted section', () => {
    const parsed = parseCommand(`a "b" c'd' \\"e ""`, 'angle');
    expect(parsed.tokens.map((token) => token.quoted)).toEqual([false, true, true, false, true]);
    expect(parsed.tokens[4]?.parts).toEqual([]);
  });

  it.each(['a | b', 'a > out.txt', 'a ; b', 'a && b', 'echo $(whoami)', 'echo `id`', 'echo $HOME', 'ls ~', 'ls *.md'])(
    '%j has no shell meaning: every character stays in the argv text',
    (text) => {
      const tokens = compact(parseCommand(text, 'angle'));
      expect(tokens.join(' ')).toBe(text);
    },
  );
});

describe('parseCommand: placeholders', () => {
  it.each<[string, PlaceholderSyntax, string[]]>([
    ['git log -n <<count>>', 'angle', ['git', 'log', '-n', '⟨count⟩']],
    ['git log -n <<count:10>>', 'angle', ['git', 'log', '-n', '⟨count:10⟩']],
    ['git log -n {{count:10}}', 'braces', ['git', 'log', '-n', '⟨count:10⟩']],
    ['git diff <<staged:--staged>>', 'angle', ['git', 'diff', '⟨staged:--staged⟩']],
    ['ls <<path:.>>', 'angle', ['ls', '⟨path:.⟩']],
    ['ls {{all:-a}} {{path:.}}', 'braces', ['ls', '⟨all:-a⟩', '⟨path:.⟩']],
    ['x <<a:>>', 'angle', ['x', '⟨a:⟩']],
    ['x <<a:b:c>>', 'angle', ['x', '⟨a:b:c⟩']],
    ['x <<_k9>>', 'angle', ['x', '⟨_k9⟩']],
    ['x --limit=<<limit>>', 'angle', ['x', '--limit=⟨limit⟩']],
    ['x <<a>>-<<b>>', 'angle', ['x', '⟨a⟩-⟨b⟩']],
    ['x "<<msg>>"', 'angle', ['x', '⟨msg⟩']],
    ["x '<<msg>>'", 'angle', ['x', '⟨msg⟩']],
    ['x "<<msg:hello world>>"', 'angle', ['x', '⟨msg:hello world⟩']],
    ['x <<msg:"hello world">>', 'angle', ['x', '⟨msg:hello world⟩']],
    ['x "pre <<a>> post"', 'angle', ['x', 'pre ⟨a⟩ post']],
    // The other syntax's markers are plain text.
    ['x {{a}}', 'angle', ['x', '{{a}}']],
    ['x <<a>>', 'braces', ['x', '<<a>>']],
    // Escapes make an opening marker literal.
    ['x \\<<a>>', 'angle', ['x', '<<a>>']],
    ['x "\\<<a>>"', 'angle', ['x', '<<a>>']],
    ['x "\\<\\<<a>>"', 'angle', ['x', '<<<a>>']],
    ['x \\{{a}}', 'braces', ['x', '{{a}}']],
    ['x "\\{{a}}"', 'braces', ['x', '{{a}}']],
    ['x \\<<<a>>', 'angle', ['x', '<⟨a⟩']],
    // A lone closing marker is text.
    ['x a>>b', 'angle', ['x', 'a>>b']],
    ['x 2>>err', 'angle', ['x', '2>>err']],
  ])('%j (%s) → %j', (text, syntax, expected) => {
    expect(compact(parseCommand(text, syntax))).toEqual(expected);
  });

  it('keeps each placeholder as written, in order', () => {
    const parsed = parseCommand('x "<<a:1 2>>" --n=<<b>> <<c:"q r">> <<a>>', 'angle');
    expect(parsed.placeholders).toEqual([
      { key: 'a', fallback: '1 2', raw: '<<a:1 2>>' },
      { key: 'b', fallback: null, raw: '<<b>>' },
      { key: 'c', fallback: 'q r', raw: '<<c:"q r">>' },
      { key: 'a', fallback: null, raw: '<<a>>' },
    ]);
    expect(parsed.tokens[2]?.parts).toEqual([
      { kind: 'text', value: '--n=' },
      { kind: 'placeholder', placeholder: { key: 'b', fallback: null, raw: '<<b>>' } },
    ]);
  });
});

describe('parseCommand: shell syntax is reported, never interpreted', () => {
  it.each<[string, string[]]>([
    ['git status --short', []],
    ['a | b', ['|']],
    ['a || b', ['||']],
    ['a && b', ['&&']],
    ['a ; b', [';']],
    ['a &', ['&']],
    ['a > f', ['>']],
    ['a >> f', ['>>']],
    ['a < f', ['<']],
    ['a 2> f', ['2>']],
    ['a 2>&1', ['2>&1']],
    ['echo $(id)', ['$(']],
    ['echo ${HOME}', ['${']],
    ['echo $HOME $USER', ['$HOME', '$USER']],
    ['echo `id`', ['`']],
    ['ls ~/x', ['~']],
    ['ls *.md', ['*']],
    ['ls file?.md', ['?']],
    ['ls # a comment', ['#']],
    ['git status\ngit log', ['newline']],
    ['# list files\nls -la', ['#', 'newline']],
    ['git log \\\n  --oneline', []],
    ['\n\ngit status\n\n', []],
    // Quoted or escaped, nothing is shell syntax.
    ['a "|" \'>\' \\; "$(id)" \'$HOME\' \\$HOME "~" "*" \\?', []],
    ['echo "a\nb"', []],
    // Only whole tokens are operators; a~b is not a leading tilde.
    ['a b|c x~y', []],
    // Placeholder text is not shell text.
    ['ls <<path:~/x>> <<glob:*>>', []],
    ['ls <<path:$HOME>>', []],
    ['echo $<<a>>', []],
  ])('%j → %j', (text, expected) => {
    expect(parseCommand(text, 'angle').shellSyntax).toEqual(expected);
  });

  it('judges the braces syntax by its own markers', () => {
    expect(parseCommand('ls {{path:$HOME}} {{glob:*}}', 'braces').shellSyntax).toEqual([]);
    expect(parseCommand('ls {{path:$HOME}}', 'angle').shellSyntax).toEqual(['$HOME']);
  });

  it('reports each construct once', () => {
    expect(parseCommand('a | b | c $X $X', 'angle').shellSyntax).toEqual(['|', '$X']);
  });
});

describe('parseCommand: malformed text is E509 with an offset', () => {
  it.each<[string, PlaceholderSyntax, RegExp, number]>([
    ['echo "abc', 'angle', /unterminated double quote/, 5],
    ["echo 'abc", 'angle', /unterminated single quote/, 5],
    ['echo "a\\"', 'angle', /unterminated double quote/, 5],
    ['echo <<count', 'angle', /unterminated placeholder '<<count'/, 5],
    ['echo {{count', 'braces', /unterminated placeholder '\{\{count'/, 5],
    ['echo <<msg:hello world>>', 'angle', /unterminated placeholder.*quoted/, 5],
    ['cat <<EOF', 'angle', /unterminated placeholder/, 4],
    ['echo <<>>', 'angle', /bad placeholder key ''/, 5],
    ['echo <<:x>>', 'angle', /bad placeholder key ''/, 5],
    ['echo <<9a>>', 'angle', /bad placeholder key '9a'/, 5],
    ['echo <<a-b>>', 'angle', /bad placeholder key 'a-b'/, 5],
    ['echo {{ a }}', 'braces', /unterminated placeholder/, 5],
    ['echo "<< a >>"', 'angle', /bad placeholder key ' a '/, 6],
    ['echo <<<a>>', 'angle', /bad placeholder key '<a'/, 5],
    ['echo <<a:<<b>>>>', 'angle', /cannot nest/, 5],
    ['echo \\', 'angle', /lone backslash/, 5],
    ['echo a\0b', 'angle', /NUL byte/, 6],
    ['echo "a\0b"', 'angle', /NUL byte/, 7],
  ])('%j (%s)', (text, syntax, message, offset) => {
    const error = parseError(text, syntax);
    expect(error.code).toBe('E509');
    expect(error.message).toMatch(message);
    expect(error.details).toEqual({ offset });
  });

  it('throws only SkilltrayError E509, whatever the text', () => {
    const alphabet = fc.constantFrom('<', '>', '{', '}', '"', "'", '\\', ' ', '\n', ':', 'a', '9', '-', '$', '|', '\0', 'é');
    const text = fc.oneof(fc.string({ unit: alphabet, maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }));
    fc.assert(
      fc.property(text, fc.constantFrom<PlaceholderSyntax>('angle', 'braces'), (input, syntax) => {
        try {
          parseCommand(input, syntax);
        } catch (error) {
          return error instanceof SkilltrayError && error.code === 'E509' && typeof error.details?.offset === 'number';
        }
        return true;
      }),
      { numRuns: 3000 },
    );
  });
});

/** Quotes a literal for a Command so that it parses back to exactly itself (no placeholder, no split). */
function quoteLiteral(value: string, syntax: PlaceholderSyntax): string {
  const opener = syntax === 'angle' ? '<' : '{';
  let out = '"';
  for (const ch of value) out += ch === '"' || ch === '\\' || ch === opener ? `\\${ch}` : ch;
  return `${out}"`;
}

describe('parseCommand: quoting round-trips', () => {
  it('any list of strings, double-quoted with escapes, parses back to itself', () => {
    const unit = fc.oneof(
      fc.constantFrom('<', '>', '{', '}', '"', "'", '\\', ' ', '\n', '\t', '$', '`', '|', ';', '*', '~'),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
    );
    const word = fc.string({ unit, maxLength: 12 }).filter((s) => !s.includes('\0'));
    const separator = fc.constantFrom(' ', '\t', '\n', ' \\\n ', '  ');
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 6 }), separator, fc.constantFrom<PlaceholderSyntax>('angle', 'braces'), (words, sep, syntax) => {
        const parsed = parseCommand(words.map((w) => quoteLiteral(w, syntax)).join(sep), syntax);
        expect(compact(parsed)).toEqual(words);
        expect(parsed.placeholders).toEqual([]);
        expect(parsed.shellSyntax).toEqual(sep === '\n' && words.length > 1 ? ['newline'] : []);
      }),
      { numRuns: 1000 },
    );
  });
});

/** What the full parser says of `text`: the parse, or the error's code, message and offset. */
function fully(text: string, syntax: PlaceholderSyntax): ParsedCommand | string {
  try {
    return parseAnyCommand(text, syntax);
  } catch (error) {
    if (!(error instanceof SkilltrayError)) throw error;
    return `${error.code} ${error.message} ${JSON.stringify(error.details)}`;
  }
}

describe('parsePlainCommand: plain commands without the full tokenizer', () => {
  /** Holds the plain parse of `text` to the full one: no answer, or exactly its answer (never one where the full parser refuses). */
  const agrees = (text: string, syntax: PlaceholderSyntax): boolean => {
    const plain = parsePlainCommand(text, syntax);
    if (plain === null) return false;
    expect(plain, text).toStrictEqual(fully(text, syntax));
    return true;
  };

  it('for any text of the characters commands and placeholders are made of, says nothing or what the full parser says', () => {
    const unit = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom('a', 'Z', '_', '9', '-', '.', '/', '=', ',', '@', 'é', '🎉') },
      { weight: 4, arbitrary: fc.constantFrom('<<', '>>', '{{', '}}', '<', '>', '{', '}', ':', ' ', '  ', '\t', '\n', '\r') },
      { weight: 2, arbitrary: fc.constantFrom('$', '$HOME', '${X}', '$(', '`', '*', '?', '~', '#', '|', '||', '&&', ';', '&', '2>&1') },
      { weight: 1, arbitrary: fc.constantFrom('"', "'", '\\', '\0', '<<key>>', '<<n:10>>', '{{key}}', '{{v:--verbose}}', '<<a<<b>>>>', '<<9x>>', '<<>>') },
    );
    let answered = 0;
    let placeholders = 0;
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 24 }), fc.constantFrom<PlaceholderSyntax>('angle', 'braces'), (units, syntax) => {
        const text = units.join('');
        if (agrees(text, syntax)) {
          answered++;
          if ((parsePlainCommand(text, syntax)?.placeholders.length ?? 0) > 0) placeholders++;
        }
      }),
      { numRuns: 20_000 },
    );
    // Not a parser that always declines: most such texts are plain.
    expect(answered).toBeGreaterThan(5_000);
    expect(placeholders).toBeGreaterThan(500);
  });

  it("answers for the commands people write: every plain Command of the bundled skills and of gibb.eri.sh's", () => {
    const commands: { text: string; syntax: PlaceholderSyntax }[] = [];
    for (const [dir, syntax] of [
      [join(import.meta.dirname, '..', '..', '..', 'skills'), 'angle'],
      [join(import.meta.dirname, '..', '..', 'fixtures', 'gibberish-skills'), 'braces'],
    ] as const) {
      for (const name of readdirSync(dir)) {
        if (!existsSync(join(dir, name, 'SKILL.md'))) continue;
        const text = readFileSync(join(dir, name, 'SKILL.md'), 'utf8');
        for (const match of text.matchAll(/#### Command\n+```[a-z]*\n([\s\S]*?)\n```/g)) commands.push({ text: match[1] as string, syntax });
      }
    }
    expect(commands.length).toBeGreaterThan(20);
    const plain = commands.filter(({ text }) => !/['"\\]/.test(text));
    expect(plain.length).toBeGreaterThan(10);
    for (const { text, syntax } of plain) expect(agrees(text, syntax), text).toBe(true);
    for (const { text, syntax } of commands) expect(parseCommand(text, syntax)).toStrictEqual(fully(text, syntax));
  });
});
