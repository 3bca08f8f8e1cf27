/** The walk every feature shares, with and without stats: the same files, links and limits. */
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listSkillFiles, walkListed, walkSkill } from '../../../src-main/core/skills/walk.js';
import { treeFingerprint, treeOf, walkFingerprint } from '../../../src-main/core/skills/fingerprint.js';
import { tempDir } from '../../support/temp.js';

describe('listSkillFiles', () => {
  it('finds what walkSkill finds, in the same order, without the stats', () => {
    const base = tempDir();
    const dir = join(base, 'skill');
    mkdirSync(join(dir, 'references', 'deep'), { recursive: true });
    mkdirSync(join(dir, '.git'));
    writeFileSync(join(base, 'outside.md'), '# Outside\n');
    for (const rel of ['SKILL.md', 'b.md', 'a.md', 'é.md', 'references/z.md', 'references/deep/x.txt', '.hidden.md', '.git/config']) writeFileSync(join(dir, rel), 'x\n');
    symlinkSync(join(dir, 'a.md'), join(dir, 'inside-link.md'));
    symlinkSync(join(base, 'outside.md'), join(dir, 'escape.md'));
    symlinkSync(join(dir, 'missing.md'), join(dir, 'dangling.md'));

    const statted = walkSkill(dir);
    const listed = listSkillFiles(dir);
    expect(listed.files).toEqual(statted.files.map(({ rel, abs }) => ({ rel, abs })));
    expect(listed.files.map((file) => file.rel)).toEqual(['SKILL.md', 'a.md', 'b.md', 'inside-link.md', 'references/deep/x.txt', 'references/z.md', 'é.md']);
    expect({ dirs: listed.dirs, escaped: listed.escaped, dangling: listed.dangling, truncated: listed.truncated }).toEqual({
      dirs: ['references', 'references/deep'],
      escaped: ['escape.md'],
      dangling: ['dangling.md'],
      truncated: false,
    });
    expect(statted.files[0]).toMatchObject({ rel: 'SKILL.md', size: 2 });
  });
});

describe('walkListed', () => {
  it("is walkSkill of a folder whose own listing holds something named SKILL.md, of any kind, and null for one that holds none", () => {
    const base = tempDir();
    const folder = (name: string, files: Record<string, string>): string => {
      const dir = join(base, name);
      mkdirSync(dir);
      for (const [rel, text] of Object.entries(files)) writeFileSync(join(dir, rel), text);
      return dir;
    };
    const skill = folder('skill', { 'SKILL.md': '---\n---\n', 'notes.md': 'x\n' });
    symlinkSync(join(skill, 'notes.md'), join(skill, 'inside.md'));
    const plain = walkSkill(skill);
    expect(plain.dirStats?.has('')).toBe(true);
    for (const canonical of [null, realpathSync(skill)]) expect(walkListed(skill, canonical)).toEqual(plain);
    const named = folder('dir-named', {});
    mkdirSync(join(named, 'SKILL.md'));
    const dangling = folder('dangling', {});
    symlinkSync(join(base, 'nowhere'), join(dangling, 'SKILL.md'));
    // SKILL.md in other capitals is walked too: the parse reports the misnamed file (E422) rather than nothing being said.
    const lower = folder('lower', { 'skill.md': 'x\n' });
    for (const dir of [named, dangling, lower]) expect(walkListed(dir, null), dir).not.toBeNull();
    for (const dir of [folder('readme', { 'README.md': 'x\n' }), folder('empty', {})]) {
      expect(walkListed(dir, null), dir).toBeNull();
      expect(walkListed(dir, realpathSync(dir)), dir).toBeNull();
    }
    // A folder gone since it was listed: its listing fails, which the walk says (the caller finds out what that means).
    expect(walkListed(join(base, 'gone'), join(realpathSync(base), 'gone'))?.unreadable).toEqual([{ rel: '', why: expect.stringMatching(/^ENOENT/) as unknown }]);
    expect(() => walkListed(join(base, 'gone'), null)).toThrow(/ENOENT/);
  });
});

describe('walkFingerprint', () => {
  it("is the fingerprint of the walk's tree stat'ed again, from the stats the walk took (folders, files, links it skipped)", () => {
    const base = tempDir();
    const dir = join(base, 'skill');
    mkdirSync(join(dir, 'references', 'deep'), { recursive: true });
    writeFileSync(join(base, 'outside.md'), '# Outside\n');
    for (const rel of ['SKILL.md', 'a.md', 'references/z.md', 'references/deep/x.txt']) writeFileSync(join(dir, rel), 'x\n');
    symlinkSync(join(dir, 'references'), join(dir, 'linked-folder'));
    symlinkSync(join(base, 'outside.md'), join(dir, 'escape.md'));
    symlinkSync(join(dir, 'missing.md'), join(dir, 'dangling.md'));
    const link = join(base, 'link-to-skill');
    symlinkSync(dir, link);

    for (const path of [dir, link]) {
      const walk = walkSkill(path);
      expect(walk.dirStats === undefined ? [] : [...walk.dirStats.keys()].sort()).toEqual(['', ...walk.dirs].sort());
      expect(walk.dirs.length).toBe(2);
      expect(walkFingerprint(path, walk)).toEqual(treeFingerprint(path, treeOf(walk)));
    }
    // Once anything the walk saw changes, the fingerprint taken then no longer matches.
    const walk = walkSkill(dir);
    writeFileSync(join(dir, 'references', 'deep', 'new.md'), 'new\n');
    expect(treeFingerprint(dir, treeOf(walk)).fingerprint).not.toBe(walkFingerprint(dir, walk).fingerprint);
  });
});
