/**
 * The content hash is what every approval is pinned to, so it must depend on every byte: an edit
 * that keeps each file's size (and even its timestamps) must change it.
 */
import { readFileSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide } from '../../../src-main/core/policy/decide.js';
import { identify } from '../../../src-main/core/skills/identity.js';
import { MAX_SKILL_BYTES, MAX_SKILL_FILES, manifestHash, walkSkill } from '../../../src-main/core/skills/walk.js';
import { parseSkill } from '../../../src-main/core/skills/parse-skill.js';
import { snapshotSkill } from '../../../src-main/core/process/skill-snapshot.js';
import type { SkillRoot } from '../../../src-main/shared/model.js';
import { skillMd, tempDir, writeSkill } from '../../support/temp.js';

const root = (path: string): SkillRoot => ({ path, kind: 'env', trust: 'user', syntax: 'angle' });
const GOOD = { name: 'demo', description: 'Does a demo. Use when asked for a demo.', version: '1.0.0' };

/** Rewrites a file with new bytes of the same length, and puts its timestamps back. */
function sameLengthEdit(file: string, edit: (bytes: Buffer) => Buffer): void {
  const before = statSync(file);
  const bytes = edit(readFileSync(file));
  expect(bytes.length).toBe(before.size);
  writeFileSync(file, bytes);
  utimesSync(file, before.atime, before.mtime);
}

describe('content hash', () => {
  it('changes on a same-length edit of a script, timestamps kept', () => {
    const base = tempDir();
    const dir = writeSkill(base, 'demo', skillMd(GOOD), { 'scripts/run.sh': '#!/bin/sh\necho v1\n' });
    const before = parseSkill(dir, root(base)).hash;
    sameLengthEdit(join(dir, 'scripts', 'run.sh'), (bytes) => Buffer.from(bytes.toString().replace('v1', 'v2')));
    expect(parseSkill(dir, root(base)).hash).not.toBe(before);
    expect(manifestHash(walkSkill(dir).files)).not.toBe(before);
  });

  it('changes on a same-length edit of SKILL.md, and hashes the bytes it parsed', () => {
    const base = tempDir();
    const dir = writeSkill(base, 'demo', skillMd(GOOD, 'Body A\n'));
    const first = parseSkill(dir, root(base));
    sameLengthEdit(join(dir, 'SKILL.md'), (bytes) => Buffer.from(bytes.toString().replace('Body A', 'Body B')));
    const second = parseSkill(dir, root(base));
    expect(second.body).toBe('Body B\n');
    expect(second.hash).not.toBe(first.hash);
    // The hash of what was parsed is the hash of the files as they are: the same bytes.
    expect(second.hash).toBe(manifestHash(walkSkill(dir).files));
  });

  it('any single-byte flip in any file changes it', () => {
    const base = tempDir();
    let n = 0;
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 256 }),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        fc.constantFrom('SKILL.md', 'scripts/tool.py', 'references/notes.md'),
        (content, at, xor, file) => {
          const dir = writeSkill(base, `s${n++}`, skillMd(GOOD), { 'scripts/tool.py': 'print(1)\n', 'references/notes.md': '# Notes\n' });
          writeFileSync(join(dir, file), content);
          const before = manifestHash(walkSkill(dir).files);
          sameLengthEdit(join(dir, file), (bytes) => {
            const flipped = Buffer.from(bytes);
            const i = at % flipped.length;
            flipped[i] = (flipped[i] as number) ^ xor;
            return flipped;
          });
          expect(manifestHash(walkSkill(dir).files)).not.toBe(before);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('a run snapshot', () => {
  it('hashes like the loader when nothing changed, and differently after a same-length edit', () => {
    const base = tempDir();
    const dir = writeSkill(base, 'demo', skillMd(GOOD), { 'scripts/run.sh': '#!/bin/sh\necho v1\n' });
    const loaded = parseSkill(dir, root(base)).hash;
    expect(snapshotSkill(dir, join(tempDir(), 'copy'))).toBe(loaded);
    sameLengthEdit(join(dir, 'scripts', 'run.sh'), (bytes) => Buffer.from(bytes.toString().replace('v1', 'v2')));
    const copy = join(tempDir(), 'copy');
    expect(snapshotSkill(dir, copy)).not.toBe(loaded);
    // The copy holds the bytes it was hashed from, read-only, execute bits kept.
    expect(readFileSync(join(copy, 'scripts', 'run.sh'), 'utf8')).toContain('echo v2');
    expect(statSync(join(copy, 'scripts', 'run.sh')).mode & 0o777).toBe(statSync(join(dir, 'scripts', 'run.sh')).mode & 0o555);
  });
});

describe('a skill too big to hash whole', () => {
  const bundledRoot = (path: string): SkillRoot => ({ path, kind: 'bundled', trust: 'bundled', syntax: 'angle' });
  const tool = '\n### run\n\nRuns it.\n\n#### Command\n\n```\ngit status\n```\n';

  it('is never trusted to run unasked, and says why: past 10,000 files', () => {
    const base = tempDir();
    const files: Record<string, string> = {};
    for (let i = 0; i < MAX_SKILL_FILES + 50; i++) files[`data/f${String(i).padStart(5, '0')}.txt`] = `${i}\n`;
    const dir = writeSkill(base, 'demo', skillMd({ ...GOOD, read_only: true }, tool), files);
    const skill = parseSkill(dir, root(base));
    expect(skill.diagnostics.find((d) => d.code === 'W413')?.message).toMatch(/too big to hash whole \(more than 10,000 files or 1 GiB in all\)/);
    expect(skill.identity.unverified).toMatch(/too big to hash whole.*never runs unasked/);
    // Not by an allow rule, nor as a bundled read-only tool: it asks, saying why.
    const rule = { id: 1, pattern: 'skill:*', effect: 'allow' as const, createdAt: 0, pins: [{ skill: 'demo', rootKind: 'env' as const, path: dir, trust: 'user' as const, profile: { name: 'read-only' as const, network: false, hosts: [] } }] };
    const call = { tool: skill.tools[0]!, mode: 'Global' as const, paused: false, remembered: null, cwd: base, programPath: '/usr/bin/git', resolveBin: () => '/usr/bin/git', env: {}, enabled: true };
    const sandbox = { name: 'read-only' as const, network: false, hosts: [], contained: true, mechanism: 'bubblewrap' as const, why: null };
    expect(decide({ ...call, skill, rules: [rule], sandbox })).toMatchObject({ outcome: 'ask', reason: expect.stringMatching(/too big to hash whole/) });
    const bundled = identify(parseSkill(dir, bundledRoot(base)), { version: 1, skills: { demo: { hash: skill.hash, files: {} } } });
    expect(bundled.trust).toBe('bundled');
    expect(decide({ ...call, skill: bundled, rules: [], sandbox })).toMatchObject({ outcome: 'ask', reason: expect.stringMatching(/too big to hash whole/) });
  });

  it('past 1 GiB in all: the walk stops before reading the file that passes it', () => {
    const base = tempDir();
    const dir = writeSkill(base, 'demo', skillMd(GOOD), { 'small.txt': 'x' });
    // Sparse: its size counts, not its (absent) blocks; the walk never reads it.
    writeFileSync(join(dir, 'model.bin'), '');
    truncateSync(join(dir, 'model.bin'), MAX_SKILL_BYTES + 1);
    const skill = parseSkill(dir, root(base));
    expect(skill.diagnostics.map((d) => d.code)).toContain('W413');
    expect(skill.identity.unverified).toMatch(/too big to hash whole/);
  });

  it('covers every file of a skill within the bounds: an edit of any one of 10,000 moves the hash', () => {
    const base = tempDir();
    const files: Record<string, string> = {};
    for (let i = 0; i < MAX_SKILL_FILES - 1; i++) files[`data/f${String(i).padStart(5, '0')}.txt`] = `${i}\n`;
    const dir = writeSkill(base, 'demo', skillMd(GOOD), files);
    const before = parseSkill(dir, root(base));
    expect(before.diagnostics.map((d) => d.code)).not.toContain('W413');
    for (const i of [0, MAX_SKILL_FILES - 2]) {
      const file = join(dir, 'data', `f${String(i).padStart(5, '0')}.txt`);
      const was = readFileSync(file);
      writeFileSync(file, 'edited\n');
      expect(parseSkill(dir, root(base)).hash, file).not.toBe(before.hash);
      writeFileSync(file, was);
    }
  });
});
