/**
 * The content hash is what every approval is pinned to, so it must depend on every byte: an edit
 * that keeps each file's size (and even its timestamps) must change it.
 */
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { manifestHash, walkSkill } from '../../../src-main/core/skills/walk.js';
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
