import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { oneLine, plainInline, plainText } from '../../../src-main/core/search/plain-text.js';

describe('plain text for catalog snippets', () => {
  it('drops heading marks, fences, table rules and pipes, list and quote marks, keeping every word', () => {
    const markdown = [
      '## Usage ##',
      '',
      '> Run `git status` **first**, then *read* the [docs](https://example.com/a_(b)).',
      '',
      '- [x] one',
      '2. two',
      '',
      '| Name | Type |',
      '|------|:----:|',
      '| repo | string |',
      '',
      '```bash',
      'git -C <<repo:.>> status --short',
      '```',
      '---',
    ].join('\n');
    expect(plainText(markdown).split('\n')).toEqual([
      'Usage',
      '',
      'Run git status first, then read the docs.',
      '',
      '• one',
      '• two',
      '',
      'Name · Type',
      'repo · string',
      '',
      'git -C <<repo:.>> status --short',
    ]);
  });

  it('reads a frontmatter block as key: value lines without YAML brackets or quotes', () => {
    expect(plainText('---\nname: git\ndescription: "Read a repo"\nrequires:\n  bins: [git, jq]\ntags:\n  - vcs\n---\n')).toBe(
      'name: git\ndescription: Read a repo\nrequires:\n  bins: git, jq\ntags:\n  vcs\n',
    );
  });

  it('leaves snake_case names, paths and option dashes alone', () => {
    expect(plainInline('git_status reads ./a_b/c-d --no-ext-diff 2*3')).toBe('git_status reads ./a_b/c-d --no-ext-diff 2*3');
    expect(plainText('~~~\n### not a heading\n~~~')).toBe('### not a heading');
  });

  it('keeps every word of decorated Markdown, in order (property)', () => {
    const word = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/);
    const decorate = (w: string, how: number): string => [w, `**${w}**`, `\`${w}\``, `*${w}*`, `[${w}](https://x.test/${w})`, `~~${w}~~`][how] as string;
    const prefix = fc.constantFrom('', '# ', '### ', '- ', '* ', '1. ', '> ', '- [ ] ');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(prefix, fc.array(fc.tuple(word, fc.integer({ min: 0, max: 5 })), { minLength: 1, maxLength: 6 })), { minLength: 1, maxLength: 8 }),
        (lines) => {
          const markdown = lines.map(([p, words]) => p + words.map(([w, how]) => decorate(w, how)).join(' ')).join('\n');
          const expected = lines.flatMap(([, words]) => words.map(([w]) => w));
          const got = oneLine(plainText(markdown))
            .split(' ')
            .filter((w) => w !== '•');
          expect(got).toEqual(expected);
        },
      ),
    );
  });
});

describe('plainText with a memo shared over one file', () => {
  it('gives every section of a file what it gives without one', () => {
    const file = [
      '# Tool',
      '',
      'Run `git` with **care**; see [the docs](https://example.com).',
      '',
      '| Name | Type |',
      '|------|------|',
      '| repo | path |',
      '',
      '```bash',
      '| not | a table |',
      '# not a heading',
      '```',
      '',
      '- [x] done',
      '> quoted *text*',
      '---',
      '## Inside',
      '',
      '| repo | path |',
      '# not a heading',
    ].join('\n');
    const lines = file.split('\n');
    const memo = new Map<string, string | null>();
    // Every run of lines, as nested sections and their parents cover them, in any order.
    for (let from = 0; from < lines.length; from++) {
      for (let to = lines.length; to > from; to--) {
        const section = lines.slice(from, to).join('\n');
        expect(plainText(section, memo)).toBe(plainText(section));
      }
    }
    expect(memo.size).toBeGreaterThan(5);
  });
});
