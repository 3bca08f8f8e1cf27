import matter from 'gray-matter';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { headingsOf, lexBlocks } from '../../../src-main/core/markdown/blocks.js';
import { markdownBody, splitFrontmatter } from '../../../src-main/core/markdown/frontmatter.js';

describe('Markdown blocks and headings', () => {
  it('numbers blocks by their first and last line', () => {
    const blocks = lexBlocks('# A\n\npara one\npara two\n\n```\ncode\n```\n', 10);
    expect(blocks.map((b) => [b.token.type, b.line, b.endLine])).toEqual([
      ['heading', 10, 10],
      ['paragraph', 12, 13],
      ['code', 15, 17],
    ]);
  });

  it('finds ATX and setext headings, strips closing #s, and ignores # inside fenced code and blockquotes', () => {
    const text =
      '# Title #\n\nSetext One\n==========\n\nSetext Two\n----------\n\n```\n# not a heading\n```\n\n~~~md\n## nor this\n~~~\n\n> # quoted\n\n   ### Indented three ###  \n';
    expect(headingsOf(text)).toEqual([
      { level: 1, text: 'Title', line: 1 },
      { level: 1, text: 'Setext One', line: 3 },
      { level: 2, text: 'Setext Two', line: 6 },
      { level: 3, text: 'Indented three', line: 19 },
    ]);
  });

  it('skips frontmatter but keeps file line numbers', () => {
    const text = '---\ntitle: x\n---\n# First\n';
    expect(markdownBody(text)).toEqual({ body: '# First\n', bodyLine: 4 });
    const { body, bodyLine } = markdownBody(text);
    expect(headingsOf(body, bodyLine)).toEqual([{ level: 1, text: 'First', line: 4 }]);
  });

  it('splits frontmatter on lines that are exactly ---, and refuses where gray-matter alone would close early', () => {
    const yaml = (source: string): object => parse(source) ?? {};
    expect(splitFrontmatter('--- \na: 1\n---', yaml)).toEqual({ ok: true, data: { a: 1 }, body: '', bodyLine: 4 });
    expect(splitFrontmatter('---\na: 1\n---  \n\nbody\n---\nmore', yaml)).toEqual({ ok: true, data: { a: 1 }, body: '\nbody\n---\nmore', bodyLine: 4 });
    expect(splitFrontmatter('---\n---\n', yaml)).toEqual({ ok: true, data: {}, body: '', bodyLine: 3 });
    expect(splitFrontmatter('---\na: 1\n---x\n---\nbody', yaml)).toEqual({ ok: false, reason: 'early-close', line: 3 });
    expect(splitFrontmatter('---\na: 1\n----\n', yaml)).toEqual({ ok: false, reason: 'early-close', line: 3 });
    expect(splitFrontmatter('# no\n', yaml)).toEqual({ ok: false, reason: 'no-opening', line: 1 });
    expect(splitFrontmatter('----\na: 1\n---\n', yaml)).toEqual({ ok: false, reason: 'no-opening', line: 1 });
    expect(splitFrontmatter('\uFEFF---\na: 1\n---\n', yaml)).toEqual({ ok: false, reason: 'no-opening', line: 1 });
    expect(splitFrontmatter('---\na: 1\n', yaml)).toEqual({ ok: false, reason: 'no-closing', line: 1 });
    expect(splitFrontmatter('---', yaml)).toEqual({ ok: false, reason: 'no-closing', line: 1 });
  });

  it('reports the structure before the YAML, and throws the engine’s error for a well-formed block', () => {
    const failing = (): object => {
      throw new Error('bad YAML');
    };
    expect(splitFrontmatter('---\na: [\n', failing)).toEqual({ ok: false, reason: 'no-closing', line: 1 });
    expect(splitFrontmatter('---\na: [\n---x\n', failing)).toEqual({ ok: false, reason: 'early-close', line: 3 });
    expect(() => splitFrontmatter('---\na: [\n---\n', failing)).toThrow('bad YAML');
  });

  it('hands the engine the rest of line 1 onwards, so YAML line N is file line N', () => {
    const seen: string[] = [];
    splitFrontmatter('---  \nname: x\n# note\nlist: [1]\n---\nbody', (source) => (seen.push(source), {}));
    expect(seen).toEqual(['  \nname: x\n# note\nlist: [1]']);
  });

  it('never lets gray-matter pick another engine from the opening line (its JavaScript engine evaluates code)', () => {
    const engine = (): object => ({ parsed: true });
    for (const opening of ['---js', '---javascript', '--- js', '---json', '---yaml']) {
      expect(splitFrontmatter(`${opening}\nglobalThis.pwnedByFrontmatter = 1\n---\nbody`, engine)).toEqual({ ok: false, reason: 'no-opening', line: 1 });
    }
    expect((globalThis as { pwnedByFrontmatter?: number }).pwnedByFrontmatter).toBeUndefined();
  });

  it('never shares parsed data between two texts through gray-matter’s cache', () => {
    const text = '---\nname: same\n---\nbody';
    const first = splitFrontmatter(text, (source) => parse(source) as object);
    const second = splitFrontmatter(text, (source) => parse(source) as object);
    expect(first.ok && second.ok && first.data !== second.data).toBe(true);
    if (first.ok) (first.data as Record<string, unknown>).name = 'changed';
    expect(second).toMatchObject({ ok: true, data: { name: 'same' } });
    expect(Object.keys((matter as unknown as { cache: Record<string, unknown> }).cache)).toEqual([]);
  });
});
