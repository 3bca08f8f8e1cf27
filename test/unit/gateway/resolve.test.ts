import { mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveSkillSource, runtimeDir } from '../../../src-main/core/gateway/resolve.js';
import { makeSkill, tempDir } from '../../fixtures/gateway/skill-fixture.js';
import { thrownBy } from '../../support/errors.js';

const noLoader = (): string | null => null;

describe('RFC-0007:C-RESOLUTION', () => {
  it('a cwd-relative path to a directory with SKILL.md resolves to its canonical dir and basename', () => {
    const base = tempDir();
    makeSkill(base, 'alpha', { 'SKILL.md': '# Alpha\n' });
    const resolved = resolveSkillSource('alpha', { cwd: base, findByName: noLoader, rootPaths: [] });
    expect(resolved).toEqual({ dir: realpathSync(join(base, 'alpha')), name: 'alpha' });
  });

  it('an absolute path through a symlink is canonicalised, and the name is the real basename', () => {
    const base = tempDir();
    const dir = makeSkill(base, 'real-name', { 'SKILL.md': '# R\n' });
    symlinkSync(dir, join(base, 'link'));
    const resolved = resolveSkillSource(join(base, 'link'), { cwd: '/', findByName: noLoader, rootPaths: [] });
    expect(resolved).toEqual({ dir: realpathSync(dir), name: 'real-name' });
  });

  it('a local path takes precedence over a loaded skill of the same name', () => {
    const base = tempDir();
    const local = makeSkill(join(base, 'cwd'), 'pdf', { 'SKILL.md': '# local\n' });
    const loaded = makeSkill(join(base, 'root'), 'pdf', { 'SKILL.md': '# loaded\n' });
    const resolved = resolveSkillSource('pdf', { cwd: join(base, 'cwd'), findByName: () => loaded, rootPaths: [] });
    expect(resolved.dir).toBe(realpathSync(local));
  });

  it('a name resolves through the loader', () => {
    const base = tempDir();
    const loaded = makeSkill(base, 'pdf', { 'SKILL.md': '# loaded\n' });
    const asked: string[] = [];
    const resolved = resolveSkillSource('pdf', {
      cwd: tempDir(),
      findByName: (name) => {
        asked.push(name);
        return loaded;
      },
      rootPaths: [],
    });
    expect(asked).toEqual(['pdf']);
    expect(resolved).toEqual({ dir: realpathSync(loaded), name: 'pdf' });
  });

  it('a skill directory in a root the loader did not report is still found, first root first', () => {
    const base = tempDir();
    const first = makeSkill(join(base, 'one'), 'x', { 'SKILL.md': '# one\n' });
    makeSkill(join(base, 'two'), 'x', { 'SKILL.md': '# two\n' });
    const resolved = resolveSkillSource('x', { cwd: tempDir(), findByName: noLoader, rootPaths: [join(base, 'one'), join(base, 'two')] });
    expect(resolved.dir).toBe(realpathSync(first));
  });

  it('E010 when the path is a directory without SKILL.md', () => {
    const base = tempDir();
    mkdirSync(join(base, 'empty'));
    const error = thrownBy(() => resolveSkillSource('empty', { cwd: base, findByName: noLoader, rootPaths: [] }));
    expect(error.code).toBe('E010');
    expect(error.format()).toBe("error[E010]: not a valid skill: 'empty' (missing SKILL.md)");
  });

  it('E010 when <root>/<name> is a directory without SKILL.md', () => {
    const root = tempDir();
    mkdirSync(join(root, 'draft'));
    const error = thrownBy(() => resolveSkillSource('draft', { cwd: tempDir(), findByName: noLoader, rootPaths: [root] }));
    expect(error.code).toBe('E010');
    expect(error.message).toBe(`not a valid skill: '${join(root, 'draft')}' (missing SKILL.md)`);
  });

  it('E001 when no directory is found anywhere', () => {
    const error = thrownBy(() => resolveSkillSource('nope', { cwd: tempDir(), findByName: noLoader, rootPaths: [tempDir()] }));
    expect(error.code).toBe('E001');
    expect(error.format()).toBe("error[E001]: skill 'nope' not found");
  });

  it('E001, not E010, for a path-like argument that names nothing; roots are only consulted for plain names', () => {
    const root = tempDir();
    mkdirSync(join(root, 'a', 'b'), { recursive: true });
    const error = thrownBy(() => resolveSkillSource('a/b', { cwd: tempDir(), findByName: noLoader, rootPaths: [root] }));
    expect(error.code).toBe('E001');
  });

  it('runtime dir is <home>/runtime/<name>', () => {
    expect(runtimeDir('/home/u/.local/share/skilltray', 'pdf')).toBe('/home/u/.local/share/skilltray/runtime/pdf');
  });
});
