import { describe, expect, it } from 'vitest';
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
    const text = '# Title #\n\nSetext One\n==========\n\nSetext Two\n----------\n\n```\n# not a heading\n```\n\n~~~md\n## nor this\n~~~\n\n> # quoted\n\n   ### Indented three ###  \n';
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

  it('splits frontmatter only on lines that are exactly ---', () => {
    expect(splitFrontmatter('---\na: 1\n---x\n---\nbody')).toEqual({ ok: true, yaml: 'a: 1\n---x\n', body: 'body', bodyLine: 5 });
    expect(splitFrontmatter('--- \na: 1\n---')).toEqual({ ok: true, yaml: 'a: 1\n', body: '', bodyLine: 4 });
    expect(splitFrontmatter('# no\n').ok).toBe(false);
    expect(splitFrontmatter('---\na: 1\n')).toMatchObject({ ok: false, reason: 'no-closing' });
  });
});
