import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveBundledProgram, resolveProgram } from '../../../src-main/core/process/resolve-program.js';

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'skilltray-')));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function file(path: string, mode: number): string {
  const abs = join(dir, path);
  mkdirSync(join(abs, '..'), { recursive: true });
  writeFileSync(abs, '#!/bin/sh\n');
  chmodSync(abs, mode);
  return abs;
}

describe.skipIf(process.platform === 'win32')('resolveProgram', () => {
  it('searches PATH in order for a bare name', () => {
    const first = file('a/tool', 0o755);
    file('b/tool', 0o755);
    const env = { PATH: [join(dir, 'empty'), join(dir, 'a'), join(dir, 'b')].join(':') };
    expect(resolveProgram('tool', env, '/', 'linux')).toBe(first);
  });

  it('skips PATH entries that are not executable files', () => {
    file('a/tool', 0o644);
    mkdirSync(join(dir, 'b/tool'), { recursive: true });
    const found = file('c/tool', 0o700);
    expect(resolveProgram('tool', { PATH: ['a', 'b', 'c'].map((d) => join(dir, d)).join(':') }, '/', 'linux')).toBe(found);
  });

  it('never searches the cwd for a bare name, even through empty or relative PATH entries', () => {
    file('tool', 0o755);
    expect(resolveProgram('tool', { PATH: ':.:bin' }, dir, 'linux')).toBeNull();
    expect(resolveProgram('tool', {}, dir, 'linux')).toBeNull();
  });

  it('resolves a relative path against the cwd', () => {
    const tool = file('bin/tool', 0o755);
    expect(resolveProgram('./bin/tool', { PATH: '' }, dir, 'linux')).toBe(tool);
    expect(resolveProgram('bin/tool', { PATH: '' }, dir, 'linux')).toBe(tool);
    expect(resolveProgram('../bin/tool', { PATH: '' }, join(dir, 'bin'), 'linux')).toBe(tool);
  });

  it('accepts an absolute path as it is', () => {
    const tool = file('bin/tool', 0o755);
    expect(resolveProgram(tool, { PATH: '' }, '/', 'linux')).toBe(tool);
  });

  it('returns null for a non-executable file, a directory or a missing name', () => {
    file('plain', 0o644);
    mkdirSync(join(dir, 'folder'));
    expect(resolveProgram('./plain', {}, dir, 'linux')).toBeNull();
    expect(resolveProgram('./folder', {}, dir, 'linux')).toBeNull();
    expect(resolveProgram('./missing', {}, dir, 'linux')).toBeNull();
    expect(resolveProgram('missing', { PATH: dir }, dir, 'linux')).toBeNull();
    expect(resolveProgram('', { PATH: dir }, dir, 'linux')).toBeNull();
  });

  it('returns the real path of a symlinked binary', () => {
    const real = file('store/tool-1.2.3', 0o755);
    mkdirSync(join(dir, 'bin'));
    symlinkSync(real, join(dir, 'bin/tool'));
    symlinkSync(join(dir, 'bin/tool'), join(dir, 'bin/tool-alias'));
    expect(resolveProgram('tool', { PATH: join(dir, 'bin') }, '/', 'linux')).toBe(real);
    expect(resolveProgram('./bin/tool-alias', {}, dir, 'linux')).toBe(real);
  });

  it('returns null for a dangling symlink', () => {
    mkdirSync(join(dir, 'bin'));
    symlinkSync(join(dir, 'nowhere'), join(dir, 'bin/tool'));
    expect(resolveProgram('tool', { PATH: join(dir, 'bin') }, '/', 'linux')).toBeNull();
  });

  it('finds a real system binary', () => {
    const sh = resolveProgram('sh', process.env, '/', process.platform);
    expect(sh).toBe(realpathSync('/bin/sh'));
  });

  it("looks for a bundled skill's program in the system's folders first: a planted one earlier on PATH never stands in", () => {
    const planted = file('home/.local/bin/sh', 0o755);
    const env = { PATH: [join(dir, 'home/.local/bin'), '/usr/bin', '/bin'].join(':') };
    expect(resolveProgram('sh', env, '/', 'linux')).toBe(planted);
    expect(resolveBundledProgram('sh', env, '/', 'linux')).toBe(realpathSync('/bin/sh'));
    // Nowhere in the system's folders: found where PATH has it, and policy asks (decide.ts).
    const only = file('home/.local/bin/only-mine', 0o755);
    expect(resolveBundledProgram('only-mine', env, '/', 'linux')).toBe(only);
    // A program named by its path is that file, whoever runs it.
    expect(resolveBundledProgram(planted, env, '/', 'linux')).toBe(planted);
  });
});
