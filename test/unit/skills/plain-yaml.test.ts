import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readPlainYaml } from '../../../src-main/core/skills/plain-yaml.js';
import { MAX_FRONTMATTER_DEPTH, nesting } from '../../../src-main/core/skills/frontmatter-limits.js';
import { skillText } from '../../../bench/corpus.js';

/** What the yaml library makes of `source`: the data and the line of every key path, or null when it reports an error. */
function byLibrary(source: string): { data: unknown; lineOf: (path: string[]) => number } | null {
  const lineCounter = new LineCounter();
  const doc = parseDocument(source, { lineCounter, uniqueKeys: true });
  if (doc.errors.length > 0) return null;
  return {
    data: doc.toJS({ maxAliasCount: 100 }),
    lineOf: (path) => {
      let node: unknown = doc.contents;
      let line = 2;
      for (const key of path) {
        if (!isMap(node)) break;
        const pair = node.items.find((p) => isScalar(p.key) && p.key.value === key);
        if (!pair) break;
        line = lineCounter.linePos((pair.key as { range: [number] }).range[0]).line;
        node = pair.value;
      }
      return line;
    },
  };
}

/** Every key path of `data` (nested mappings), and one past each that does not exist. */
function keyPaths(data: unknown, prefix: string[] = []): string[][] {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return [];
  return Object.entries(data).flatMap(([key, value]) => [[...prefix, key], [...prefix, key, 'missing'], ...keyPaths(value, [...prefix, key])]);
}

/** Holds plain-yaml.ts to its promise for `source`: null, or exactly the library's data and lines. */
function agrees(source: string): boolean {
  const plain = readPlainYaml(source);
  if (plain === null) return false;
  const library = byLibrary(source);
  expect(library, source).not.toBeNull();
  expect(plain.data, source).toStrictEqual(library?.data);
  for (const path of [[], ['nope'], ...keyPaths(plain.data)]) expect(plain.lineOf(path, 2), `${path.join('.')} in ${source}`).toBe(library?.lineOf(path));
  return true;
}

// Scalars that stress the core schema: numbers of every shape, booleans, nulls, dates, URLs, quotes, colons and hashes.
const scalarText = fc.oneof(
  fc.constantFrom('true', 'True', 'TRUE', 'false', 'yes', 'no', 'on', 'null', 'Null', '~', '', '0', '-0', '+5', '007', '1.0', '1.0.0', '.5', '1e3', '0x1F', '0o17', '.inf', '-.Inf', '.nan', '2026-03-05', '2026-03-05T10:00:00Z', 'C#', 'a # b', 'a: b', 'a:b', 'https://x.y/z', "it's", '"q"', '- x', '-x', '?x', ':x', '[a]', '{a}', '&a', '*a', '!t', '|', '>', '@x', '`x`', '%x', 'a,b', 'trailing:', '12345678901234567890', 'Bash(git:*)', 'Read Grep', 'über', '适用场景'),
  fc.string({ unit: fc.constantFrom('a', 'b', ' ', ':', '#', '-', '.', '0', '1', 'e', '"', "'", ',', '[', ']', '{', '}', '\\', 'é'), maxLength: 12 }),
);

/** A scalar written as YAML: plain, single-quoted or double-quoted. */
const written = fc.tuple(scalarText, fc.constantFrom('plain', 'single', 'double')).map(([text, style]) => (style === 'plain' ? text : style === 'single' ? `'${text.replace(/'/g, "''")}'` : `"${text}"`));

interface Tree {
  [key: string]: string | string[] | Tree;
}

const key = fc.stringMatching(/^[a-z_][a-z0-9_-]{0,8}$/);
const tree: fc.Arbitrary<Tree> = fc.letrec<{ node: Tree }>((tie) => ({
  node: fc.dictionary(key, fc.oneof({ depthSize: 'small', maxDepth: 3 }, written, fc.array(written, { maxLength: 3 }), tie('node')), { minKeys: 1, maxKeys: 4 }),
})).node;

/** Renders a tree as block YAML, with the indentation, sequence style and comments a person might write. */
function render(node: Tree, indent: number, style: { step: number; flow: boolean; sameIndentItems: boolean; comments: boolean; trailing: string }): string[] {
  const pad = ' '.repeat(indent);
  const lines: string[] = [];
  for (const [k, value] of Object.entries(node)) {
    if (style.comments) lines.push(`${pad}# about ${k}`, '');
    if (typeof value === 'string') lines.push(`${pad}${k}: ${value}${style.trailing}`);
    else if (Array.isArray(value)) {
      if (style.flow) lines.push(`${pad}${k}: [${value.join(', ')}]`);
      else {
        lines.push(`${pad}${k}:`);
        const itemPad = style.sameIndentItems ? pad : ' '.repeat(indent + style.step);
        for (const item of value) lines.push(`${itemPad}- ${item}`);
      }
    } else {
      lines.push(`${pad}${k}:`, ...render(value, indent + style.step, style));
    }
  }
  return lines;
}

const styles = fc.record({ step: fc.constantFrom(1, 2, 4), flow: fc.boolean(), sameIndentItems: fc.boolean(), comments: fc.boolean(), trailing: fc.constantFrom('', '  ') });

describe('plain-yaml.ts: the plain YAML of most frontmatter, read without the yaml library', () => {
  it('for any frontmatter a person might write, says nothing or exactly what the yaml library says (data and the line of every key)', () => {
    let read = 0;
    fc.assert(
      fc.property(tree, styles, (t, style) => {
        // Line 1 is the rest of the `---` line, as gray-matter hands it over.
        if (agrees(`\n${render(t, 0, style).join('\n')}\n`)) read++;
      }),
      { numRuns: 1500 },
    );
    // Not a reader that always declines: most of what people write is read.
    expect(read).toBeGreaterThan(300);
  });

  it('for any text at all (a frontmatter cut, mangled or hostile), says nothing or what the library says', () => {
    const fragments = fc.constantFrom('name: x', 'a:', '  b: 1', '- c', '  - d', '[e, f]', '"g"', "'h'", '# i', 'j: k # l', 'm: |', '  n', '&o p', '*o', '? q', 'r: {s: t}', '---', '...', 'u:\tv', ' ', 'w: "x\\ny"', 'a:', 'a: 1');
    fc.assert(
      fc.property(fc.array(fragments, { maxLength: 8 }), (parts) => {
        agrees(`\n${parts.join('\n')}\n`);
      }),
      { numRuns: 2000 },
    );
  });

  it('declines a quote inside a plain flow item, where YAML would read an unclosed string (found by the property above)', () => {
    expect(readPlainYaml('\na: [a","]\n')).toBeNull();
    for (const source of ['\na: [a","]\n', '\na: [a",b]\n', "\na: [a',b]\n", '\na: ["a,b", \'c, d\', e]\n']) agrees(source);
    expect(readPlainYaml('\na: ["a,b", \'c, d\', e]\n')?.data).toStrictEqual({ a: ['a,b', 'c, d', 'e'] });
    // '' is a quote inside single quotes, so the comma after it is still inside the string.
    agrees("\na: ['a'', b', c]\n");
    expect(readPlainYaml("\na: ['a'', b', c]\n")?.data).toStrictEqual({ a: ["a', b", 'c'] });
  });

  it('reads nothing the depth scan would refuse: it declines mappings nested past the limit, which the scan then sees', () => {
    /** `levels` mappings one inside the other (step `step`), the innermost holding `bottom`'s lines. */
    const chain = (levels: number, step: number, bottom: (pad: string) => string[]): string => {
      const lines: string[] = [];
      for (let level = 0; level < levels - 1; level++) lines.push(`${' '.repeat(level * step)}k${level}:`);
      return `\n${[...lines, ...bottom(' '.repeat((levels - 1) * step))].join('\n')}\n`;
    };
    // What the deepest mapping holds: each way the scan counts levels below a mapping's keys.
    const bottoms = [
      (pad: string) => [`${pad}leaf: x`],
      (pad: string) => [`${pad}leaf: [a, b]`],
      (pad: string) => [`${pad}leaf:`, `${pad}- a`],
      (pad: string) => [`${pad}leaf:`, `${pad}  - a`, `${pad}  - [b, c]`],
    ];
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_FRONTMATTER_DEPTH + 4 }), fc.constantFrom(1, 2, 3), fc.constantFrom(...bottoms), (levels, step, bottom) => {
        const source = chain(levels, step, bottom);
        const plain = readPlainYaml(source);
        if (plain !== null) expect(nesting(source).depth, source).toBeLessThanOrEqual(MAX_FRONTMATTER_DEPTH);
        expect(plain === null, `${levels} levels`).toBe(levels > MAX_FRONTMATTER_DEPTH - 3);
      }),
      { numRuns: 600 },
    );
    // The deepest it reads, with the deepest bottom, is exactly as deep as the scan allows.
    const deepest = chain(MAX_FRONTMATTER_DEPTH - 3, 2, bottoms[3] as (pad: string) => string[]);
    expect(agrees(deepest)).toBe(true);
    expect(nesting(deepest).depth).toBe(MAX_FRONTMATTER_DEPTH);
  });

  it("reads the frontmatter of the bench's generated skills and of the bundled skills without the library", () => {
    const frontmatter = (text: string) => `\n${text.split('\n---\n')[0]?.replace(/^---\n/, '')}\n`;
    for (const i of [0, 1, 2, 7, 99]) expect(agrees(frontmatter(skillText(i)))).toBe(true);
    const bundled = join(import.meta.dirname, '..', '..', '..', 'skills');
    for (const name of readdirSync(bundled)) {
      const text = readFileSync(join(bundled, name, 'SKILL.md'), 'utf8');
      expect(agrees(frontmatter(text)), name).toBe(true);
    }
  });
});
