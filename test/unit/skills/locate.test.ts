import { cpSync, mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runtimeDir } from '../../../src-main/core/gateway/runtime-dir.js';
import { locateSkill, skillsToCheck, type LoadedSkills } from '../../../src-main/core/skills/locate.js';
import { parseSkill } from '../../../src-main/core/skills/parse-skill.js';
import { SkillRegistry } from '../../../src-main/core/skills/registry.js';
import type { RootKind, Skill, SkillRoot } from '../../../src-main/shared/model.js';
import { makeSkill, tempDir } from '../../fixtures/gateway/skill-fixture.js';
import { thrownBy } from '../../support/errors.js';
import { testHome } from '../../support/temp.js';

const GIBB_FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'gibberish-skills');

const root = (path: string, kind: RootKind = 'env'): SkillRoot => ({ path, kind, trust: kind === 'bundled' ? 'bundled' : 'user', syntax: kind === 'gibberish' ? 'braces' : 'angle' });

/** Loaded skills: `loaded` by name, over `roots`. */
function source(roots: SkillRoot[] = [], loaded: Skill[] = []): LoadedSkills {
  return { roots, get: (name) => loaded.find((s) => s.name === name), dirOf: (name) => loaded.find((s) => s.name === name)?.dir ?? null };
}

describe('RFC-0007:C-RESOLUTION (skills/locate.ts)', () => {
  it('a cwd-relative path to a directory with SKILL.md resolves to it, canonical too', () => {
    const base = tempDir();
    makeSkill(base, 'alpha', { 'SKILL.md': '# Alpha\n' });
    const at = locateSkill('alpha', base, source());
    expect(at).toMatchObject({ dir: join(base, 'alpha'), canonical: realpathSync(join(base, 'alpha')), loaded: null });
    expect(at.root).toMatchObject({ path: base, kind: 'env', syntax: 'angle' });
  });

  it('a path to the SKILL.md itself names its skill', () => {
    const base = tempDir();
    makeSkill(base, 'alpha', { 'SKILL.md': '# Alpha\n' });
    expect(locateSkill(join(base, 'alpha', 'SKILL.md'), '/', source()).dir).toBe(join(base, 'alpha'));
  });

  it('an absolute path through a symlink is canonicalised; the directory as found is kept too', () => {
    const base = tempDir();
    const dir = makeSkill(base, 'real-name', { 'SKILL.md': '# R\n' });
    symlinkSync(dir, join(base, 'link'));
    expect(locateSkill(join(base, 'link'), '/', source())).toMatchObject({ dir: join(base, 'link'), canonical: realpathSync(dir) });
  });

  it('a local path takes precedence over a loaded skill of the same name', () => {
    const base = tempDir();
    const local = makeSkill(join(base, 'cwd'), 'pdf', { 'SKILL.md': '# local\n' });
    const loadedDir = makeSkill(join(base, 'root'), 'pdf', { 'SKILL.md': '# loaded\n' });
    const loaded = parseSkill(loadedDir, root(join(base, 'root')));
    expect(locateSkill('pdf', join(base, 'cwd'), source([], [loaded])).canonical).toBe(realpathSync(local));
  });

  it('a name resolves through the loader, in the loaded skill\'s root', () => {
    const base = tempDir();
    const loaded = parseSkill(makeSkill(base, 'pdf', { 'SKILL.md': '# loaded\n' }), root(base, 'bundled'));
    const at = locateSkill('pdf', tempDir(), source([], [loaded]));
    expect(at).toMatchObject({ canonical: realpathSync(loaded.dir), loaded });
    expect(at.root.kind).toBe('bundled');
  });

  it('a skill directory in a root the loader did not report is still found, first root first, in that root', () => {
    const base = tempDir();
    const first = makeSkill(join(base, 'one'), 'x', { 'SKILL.md': '# one\n' });
    makeSkill(join(base, 'two'), 'x', { 'SKILL.md': '# two\n' });
    const at = locateSkill('x', tempDir(), source([root(join(base, 'one'), 'home'), root(join(base, 'two'))]));
    expect(at.canonical).toBe(realpathSync(first));
    expect(at.root.kind).toBe('home');
  });

  it('E010 when the path is a directory without SKILL.md', () => {
    const base = tempDir();
    mkdirSync(join(base, 'empty'));
    const error = thrownBy(() => locateSkill('empty', base, source()));
    expect(error.code).toBe('E010');
    expect(error.format()).toBe("error[E010]: not a valid skill: 'empty' (missing SKILL.md)");
  });

  it('E010 when <root>/<name> is a directory without SKILL.md', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'draft'));
    const error = thrownBy(() => locateSkill('draft', tempDir(), source([root(dir)])));
    expect(error.code).toBe('E010');
    expect(error.message).toBe(`not a valid skill: '${join(dir, 'draft')}' (missing SKILL.md)`);
  });

  it('E010 for a directory of skills when one skill is wanted; check reads each of them', () => {
    const base = tempDir();
    makeSkill(base, 'a', { 'SKILL.md': '---\nname: a\ndescription: A.\n---\n' });
    makeSkill(base, 'b', { 'SKILL.md': '---\nname: b\ndescription: B.\n---\n' });
    expect(thrownBy(() => locateSkill(base, '/', source())).code).toBe('E010');
    expect(skillsToCheck(base, '/', source()).map((s) => [s.name, s.state])).toEqual([
      ['a', 'ok'],
      ['b', 'ok'],
    ]);
  });

  it('E001 when no directory is found anywhere', () => {
    const error = thrownBy(() => locateSkill('nope', tempDir(), source([root(tempDir())])));
    expect(error.code).toBe('E001');
    expect(error.format()).toBe("error[E001]: skill 'nope' not found");
  });

  it('E001, not E010, for a path-like argument that names nothing; roots are only consulted for plain names', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'a', 'b'), { recursive: true });
    expect(thrownBy(() => locateSkill('a/b', tempDir(), source([root(dir)]))).code).toBe('E001');
  });

  it('runtime dir is <home>/runtime/<name>', () => {
    expect(runtimeDir('/home/u/.local/share/skilltray', 'pdf')).toBe('/home/u/.local/share/skilltray/runtime/pdf');
  });
});

describe('one resolver, one answer: check <path>, check <name> and list agree', () => {
  it("in gibb.eri.sh's own folder, a skill read by path uses that root's {{…}} placeholders (no W410)", () => {
    const t = testHome();
    const gibbRoot = join(t.userHome, '.local', 'share', 'gibb.eri.sh', 'skills');
    mkdirSync(gibbRoot, { recursive: true });
    cpSync(GIBB_FIXTURES, gibbRoot, { recursive: true });
    const registry = new SkillRegistry(t.config().roots).load();
    for (const name of ['files', 'git', 'summarize']) {
      const listed = registry.get(name) as Skill;
      const byName = skillsToCheck(name, '/', registry);
      const byPath = skillsToCheck(join(gibbRoot, name), '/', registry);
      const bySkillMd = skillsToCheck(join(gibbRoot, name, 'SKILL.md'), '/', registry);
      for (const checked of [byName, byPath, bySkillMd]) {
        expect(checked.map((s) => [s.syntax, s.root.kind, s.diagnostics])).toEqual([[listed.syntax, 'gibberish', listed.diagnostics]]);
      }
      expect(byPath[0]?.diagnostics.map((d) => d.code)).not.toContain('W410');
    }
    const wholeRoot = skillsToCheck(gibbRoot, '/', registry);
    expect(wholeRoot.map((s) => [s.name, s.root.kind, s.diagnostics])).toEqual(['files', 'git', 'summarize'].map((n) => [n, 'gibberish', registry.get(n)?.diagnostics]));
  });

  it('outside every root, gibb.eri.sh placeholders are detected and said (W410), by path as by a root of the environment', () => {
    const t = testHome();
    const registry = new SkillRegistry(t.config({ SKILLTRAY_SKILLS_PATH: GIBB_FIXTURES }).roots).load();
    const elsewhere = tempDir();
    cpSync(join(GIBB_FIXTURES, 'git'), join(elsewhere, 'git'), { recursive: true });
    const byPath = skillsToCheck(join(elsewhere, 'git'), '/', registry);
    expect(byPath.map((s) => s.diagnostics.map((d) => d.code))).toEqual([registry.get('git')?.diagnostics.map((d) => d.code)]);
    expect(byPath[0]?.diagnostics.map((d) => d.code)).toContain('W410');
  });
});
