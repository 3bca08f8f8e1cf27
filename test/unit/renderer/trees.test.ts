import { describe, expect, it } from 'vitest';
import type { OutlineHeading, SourceEntry } from '../../../src-main/shared/gateway.js';
import { outlineTree, sourceTree } from '../../../src-renderer/skills/trees.js';

const h = (file: string, level: number, text: string, line: number): OutlineHeading => ({ file, level, text, line });
const e = (path: string, type: 'dir' | 'file', depth: number): SourceEntry => ({ path, name: path.split('/').pop() as string, type, depth, last: false });

describe('outline and sources as trees', () => {
  it('nests headings by level within each file, tolerating skipped levels', () => {
    const tree = outlineTree([
      h('SKILL.md', 1, 'Top', 1),
      h('SKILL.md', 3, 'Deep', 3),
      h('SKILL.md', 2, 'Mid', 5),
      h('ref.md', 2, 'Other', 1),
      h('SKILL.md', 1, 'Second', 9),
    ]);
    const names = (nodes: ReturnType<typeof outlineTree>[number]['nodes']): unknown => nodes.map((n) => [n.heading.text, names(n.children)]);
    expect(tree.map((f) => [f.file, names(f.nodes)])).toEqual([
      [
        'SKILL.md',
        [
          [
            'Top',
            [
              ['Deep', []],
              ['Mid', []],
            ],
          ],
          ['Second', []],
        ],
      ],
      ['ref.md', [['Other', []]]],
    ]);
  });

  it('nests a pre-order listing by depth', () => {
    const tree = sourceTree([e('a', 'dir', 1), e('a/b', 'dir', 2), e('a/b/c.md', 'file', 3), e('a/d.md', 'file', 2), e('SKILL.md', 'file', 1)]);
    const names = (nodes: ReturnType<typeof sourceTree>): unknown => nodes.map((n) => [n.entry.path, names(n.children)]);
    expect(names(tree)).toEqual([
      [
        'a',
        [
          ['a/b', [['a/b/c.md', []]]],
          ['a/d.md', []],
        ],
      ],
      ['SKILL.md', []],
    ]);
  });
});
