import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listSources } from '../../../src-main/core/gateway/sources.js';
import { MAX_SKILL_FILES } from '../../../src-main/core/skills/walk.js';
import { makeSkill, tempDir } from '../../fixtures/gateway/skill-fixture.js';
import { thrownBy } from '../../support/errors.js';
import { formatSources } from '../../../src-main/cli/format/sources.js';

/** A skill shaped like the RFC's `cuda` example, with fewer files. */
function cudaLike(): string {
  const files: Record<string, string> = { 'SKILL.md': '# CUDA\n', 'references/compilation.md': 'c', 'references/debugging-tools.md': 'd' };
  for (let i = 0; i < 3; i++) files[`references/cuda-driver-docs/page-${i}.md`] = 'p';
  for (let i = 0; i < 2; i++) files[`references/cuda-runtime-docs/sub/page-${i}.md`] = 'p';
  for (const name of ['memory.md', 'streams.md', 'zeta.md']) files[`references/${name}`] = 'x';
  return makeSkill(tempDir(), 'cuda', files);
}

describe('RFC-0002:C-SOURCES', () => {
  it('draws the whole tree: directories before files at each level, each bytewise', () => {
    const dir = makeSkill(tempDir(), 'demo', {
      'SKILL.md': '#',
      'a.md': 'a',
      'B.md': 'b',
      'z/1.md': '1',
      'docs/x.md': 'x',
      'docs/inner/y.md': 'y',
      'Docs2/q.md': 'q',
    });
    expect(formatSources(listSources(dir))).toBe(
      [
        'demo/',
        '├── Docs2/',
        '│   └── q.md',
        '├── docs/',
        '│   ├── inner/',
        '│   │   └── y.md',
        '│   └── x.md',
        '├── z/',
        '│   └── 1.md',
        '├── B.md',
        '├── SKILL.md',
        '└── a.md',
      ].join('\n'),
    );
  });

  it('--depth stops expanding and shows "dir/ (N files)" counting every file below', () => {
    const dir = cudaLike();
    expect(formatSources(listSources(dir, { depth: 2 }))).toBe(
      [
        'cuda/',
        '├── references/',
        '│   ├── cuda-driver-docs/ (3 files)',
        '│   ├── cuda-runtime-docs/ (2 files)',
        '│   ├── compilation.md',
        '│   ├── debugging-tools.md',
        '│   ├── memory.md',
        '│   ├── streams.md',
        '│   └── zeta.md',
        '└── SKILL.md',
      ].join('\n'),
    );
  });

  it('--limit cuts the listing with "... (N more)" at the level the listing would continue', () => {
    const dir = cudaLike();
    const result = listSources(dir, { depth: 2, limit: 5 });
    expect(result).toMatchObject({ total: 9, more: 4, more_depth: 2 });
    expect(formatSources(result)).toBe(
      [
        'cuda/',
        '├── references/',
        '│   ├── cuda-driver-docs/ (3 files)',
        '│   ├── cuda-runtime-docs/ (2 files)',
        '│   ├── compilation.md',
        '│   ├── debugging-tools.md',
        '│   └── ... (4 more)',
      ].join('\n'),
    );
    expect(formatSources(listSources(dir, { depth: 2, limit: 8 }))).toMatch(/│ {3}└── zeta\.md\n└── \.\.\. \(1 more\)$/);
  });

  it('--limit defaults to 100', () => {
    const files: Record<string, string> = { 'SKILL.md': '#' };
    for (let i = 0; i < 120; i++) files[`f${String(i).padStart(3, '0')}.txt`] = 'x';
    const result = listSources(makeSkill(tempDir(), 'big', files));
    expect(result.entries).toHaveLength(100);
    expect(result.more).toBe(21);
    expect(formatSources(result).split('\n').at(-1)).toBe('└── ... (21 more)');
  });

  it('--dir lists the subtree, with --depth counted from it', () => {
    const dir = cudaLike();
    const result = listSources(dir, { dir: 'references/', depth: 1 });
    expect(result.root).toBe('cuda/references/');
    expect(formatSources(result)).toBe(
      [
        'cuda/references/',
        '├── cuda-driver-docs/ (3 files)',
        '├── cuda-runtime-docs/ (2 files)',
        '├── compilation.md',
        '├── debugging-tools.md',
        '├── memory.md',
        '├── streams.md',
        '└── zeta.md',
      ].join('\n'),
    );
    expect(listSources(dir, { dir: 'references/cuda-runtime-docs' }).entries.map((e) => e.path)).toEqual([
      'references/cuda-runtime-docs/sub',
      'references/cuda-runtime-docs/sub/page-0.md',
      'references/cuda-runtime-docs/sub/page-1.md',
    ]);
  });

  it('--dir that escapes the root is E012 (.., absolute, symlinked directory outside)', () => {
    const base = tempDir();
    mkdirSync(join(base, 'outside'));
    writeFileSync(join(base, 'outside', 'x.md'), 'x');
    const dir = makeSkill(base, 's', { 'SKILL.md': '#' });
    symlinkSync(join(base, 'outside'), join(dir, 'ext'));
    expect(thrownBy(() => listSources(dir, { dir: '..' })).format()).toBe("error[E012]: path escapes skill root: '..'");
    expect(thrownBy(() => listSources(dir, { dir: join(base, 'outside') })).code).toBe('E012');
    expect(thrownBy(() => listSources(dir, { dir: 'ext' })).code).toBe('E012');
  });

  it('--dir that does not exist, or is a file, is E022', () => {
    const dir = makeSkill(tempDir(), 's', { 'SKILL.md': '#', 'docs/a.md': 'a' });
    expect(thrownBy(() => listSources(dir, { dir: 'nope' })).format()).toBe("error[E022]: directory not found: 'nope'");
    expect(thrownBy(() => listSources(dir, { dir: 'docs/a.md' })).code).toBe('E022');
  });

  it('never lists a symlink that leaves the root, nor hidden entries', () => {
    const base = tempDir();
    writeFileSync(join(base, 'secret.txt'), 'secret');
    const dir = makeSkill(base, 's', { 'SKILL.md': '#', '.git/config': 'x' });
    symlinkSync(join(base, 'secret.txt'), join(dir, 'leak.txt'));
    symlinkSync(base, join(dir, 'up'));
    expect(formatSources(listSources(dir))).toBe('s/\n└── SKILL.md');
  });

  it('--pattern matches the path relative to the skill root or the basename, and keeps only directories with matches', () => {
    const dir = makeSkill(tempDir(), 's', { 'SKILL.md': '#', 'notes.txt': 'n', 'docs/a.md': 'a', 'docs/b.txt': 'b', 'img/logo.png': 'p' });
    expect(formatSources(listSources(dir, { pattern: '*.md' }))).toBe(['s/', '├── docs/', '│   └── a.md', '└── SKILL.md'].join('\n'));
    expect(listSources(dir, { pattern: 'docs/*' }).entries.map((e) => e.path)).toEqual(['docs', 'docs/a.md', 'docs/b.txt']);
    expect(listSources(dir, { pattern: '*.md', depth: 1 }).entries).toEqual([
      { path: 'docs', name: 'docs', type: 'dir', depth: 1, last: false, files: 1 },
      { path: 'SKILL.md', name: 'SKILL.md', type: 'file', depth: 1, last: true },
    ]);
  });

  it('shows empty directories when no pattern is given', () => {
    const dir = makeSkill(tempDir(), 's', { 'SKILL.md': '#' });
    mkdirSync(join(dir, 'empty'));
    expect(formatSources(listSources(dir))).toBe('s/\n├── empty/\n└── SKILL.md');
  });

  it('has a JSON form with the entries, totals and the cut', () => {
    const dir = makeSkill(tempDir(), 's', { 'SKILL.md': '#', 'docs/a.md': 'a' });
    expect(JSON.parse(JSON.stringify(listSources(dir, { limit: 2 })))).toEqual({
      skill: 's',
      root: 's/',
      dir: null,
      pattern: null,
      entries: [
        { path: 'docs', name: 'docs', type: 'dir', depth: 1, last: false },
        { path: 'docs/a.md', name: 'a.md', type: 'file', depth: 2, last: true },
      ],
      total: 3,
      more: 1,
      more_depth: 1,
      files_cap: null,
    });
  });

  it('--depth and --limit below 1 are E100', () => {
    const dir = makeSkill(tempDir(), 's', { 'SKILL.md': '#' });
    expect(thrownBy(() => listSources(dir, { depth: 0 })).code).toBe('E100');
    expect(thrownBy(() => listSources(dir, { limit: 0 })).code).toBe('E100');
  });

  it('a skill of more files than a walk reads says so: the JSON names the cap, the tree ends with a line, never a bare "more: 0"', () => {
    const files: Record<string, string> = { 'SKILL.md': '#' };
    for (let i = 0; i <= MAX_SKILL_FILES; i++) files[`pages/p-${String(i).padStart(5, '0')}.md`] = '';
    const dir = makeSkill(tempDir(), 'huge', files);
    const result = listSources(dir, { dir: 'pages', limit: 20_000 });
    expect(result).toMatchObject({ more: 0, files_cap: MAX_SKILL_FILES });
    expect(result.total).toBeLessThan(MAX_SKILL_FILES + 1);
    expect(formatSources(result).split('\n').at(-1)).toBe('... and more files not listed: the skill holds over 10,000, the most a walk reads');
    expect(listSources(makeSkill(tempDir(), 'small', { 'SKILL.md': '#' })).files_cap).toBeNull();
  });
});
