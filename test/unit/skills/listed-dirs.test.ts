/**
 * A load that parses on helper threads lists its roots without looking into a folder and leaves
 * "is there a SKILL.md here?" to each folder's parse (registry.ts, root-layout.ts listedDirsIn):
 * it must load exactly what a load that asks first does — over folders that hold nothing, hold it
 * in the wrong case, hold it as a folder, a FIFO or a dangling link, a name two roots list where
 * the first holds nothing, a name that is not UTF-8, and a skill caught mid-rewrite.
 */
import { mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Skill, SkillRoot } from '../../../src-main/shared/model.js';
import { SETTLE_MS } from '../../../src-main/core/skills/fingerprint.js';
import { ParseCache } from '../../../src-main/core/skills/parse-cache.js';
import { SkillRegistry } from '../../../src-main/core/skills/registry.js';
import { skillMd, tempDir, writeSkill } from '../../support/temp.js';

afterEach(() => {
  vi.useRealTimers();
});

/** What a load says of each skill, for two loads to be compared. */
function seen(skills: readonly Skill[]): unknown[] {
  return skills.map((skill) => ({
    name: skill.name,
    dir: skill.dir,
    root: skill.root.path,
    hash: skill.hash,
    diagnostics: skill.diagnostics.map((d) => `${d.code} ${d.message}`),
    shadows: skill.shadows.map((loser) => loser.dir),
  }));
}

async function oddRoots(): Promise<{ roots: SkillRoot[]; first: string }> {
  const base = tempDir();
  const first = join(base, 'first');
  const second = join(base, 'second');
  const skill = (root: string, name: string): string => writeSkill(root, name, skillMd({ name, description: `The ${name} skill.` }, `# ${name}\n`));
  const folder = (root: string, name: string, files: Record<string, string> = {}): string => {
    const dir = join(root, name);
    mkdirSync(dir, { recursive: true });
    for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
    return dir;
  };
  skill(first, 'plain');
  folder(first, 'readme-only', { 'README.md': '# Not a skill\n' });
  folder(first, 'lower-case', { 'skill.md': skillMd({ name: 'lower-case', description: 'Wrong case.' }) });
  mkdirSync(join(folder(first, 'folder-named'), 'SKILL.md'));
  await execa('mkfifo', [join(folder(first, 'fifo'), 'SKILL.md')]);
  symlinkSync(join(first, 'nowhere.md'), join(folder(first, 'dangling'), 'SKILL.md'));
  const linked = folder(first, 'linked', { 'real.md': skillMd({ name: 'linked', description: 'Through a link.' }) });
  symlinkSync(join(linked, 'real.md'), join(linked, 'SKILL.md'));
  symlinkSync(skill(base, 'elsewhere'), join(first, 'link-to-skill'));
  folder(first, '.hidden', { 'SKILL.md': skillMd({ name: 'hidden', description: 'Never read.' }) });
  writeFileSync(join(first, 'a-file'), 'not a folder\n');
  mkdirSync(Buffer.concat([Buffer.from(`${first}/bad-`), Buffer.from([0xff]), Buffer.from('-name')]));
  // The first root lists the name and holds nothing there: the second root's skill wins it.
  folder(first, 'falls-through', { 'notes.md': 'nothing\n' });
  skill(second, 'falls-through');
  skill(first, 'in-both');
  skill(second, 'in-both');
  skill(first, 'rewritten');
  return {
    roots: [
      { path: first, kind: 'env', trust: 'user', syntax: 'angle' },
      { path: second, kind: 'home', trust: 'user', syntax: 'angle' },
    ],
    first,
  };
}

describe('a load that leaves the SKILL.md check to each parse', () => {
  it('loads what a load that looks first loads, folder for folder and word for word', async () => {
    const { roots } = await oddRoots();
    const asked = seen(new SkillRegistry(roots, { threads: 1 }).list());
    const listed = seen(new SkillRegistry(roots, { threads: 2 }).list());
    expect(listed).toEqual(asked);
    // And what both load is what the layout says: nothing from the folders that hold nothing named SKILL.md.
    expect(listed.map((skill) => (skill as { name: string }).name)).toEqual(
      expect.arrayContaining(['plain', 'folder-named', 'fifo', 'dangling', 'linked', 'link-to-skill', 'falls-through', 'in-both', 'rewritten', 'lower-case']),
    );
    const names = new Set(listed.map((skill) => (skill as { name: string }).name));
    for (const none of ['readme-only', 'hidden', '.hidden', 'a-file']) expect(names.has(none), none).toBe(false);
    expect([...names].some((name) => name.includes('\\xff'))).toBe(true);
    expect(listed.find((skill) => (skill as { name: string }).name === 'falls-through')).toMatchObject({ root: (roots[1] as SkillRoot).path, shadows: [] });
  });

  it('resolves each skill folder through the root as a load that looks first does, the root reached through a link', () => {
    const base = tempDir();
    const real = join(base, 'real-root');
    const skill = writeSkill(real, 'inward', skillMd({ name: 'inward', description: 'Links into itself.' }, '# inward\n'), { 'docs/guide.md': '# Guide\n' });
    // Links into the skill by its real path, and out of it: the first is followed, the second skipped, only if the skill's own path is known canonical.
    symlinkSync(join(skill, 'docs'), join(skill, 'by-real-path'));
    symlinkSync(join(base, 'outside'), join(skill, 'out'));
    mkdirSync(join(base, 'outside'));
    writeFileSync(join(base, 'outside', 'secret.md'), 'not the skill\'s\n');
    symlinkSync(real, join(base, 'root-link'));
    const roots: SkillRoot[] = [{ path: join(base, 'root-link'), kind: 'env', trust: 'user', syntax: 'angle' }];
    const asked = seen(new SkillRegistry(roots, { threads: 1 }).list());
    const listed = seen(new SkillRegistry(roots, { threads: 2 }).list());
    expect(listed).toEqual(asked);
    // Only the link out is reported (W412): the one in, by the real path, was followed.
    expect((listed.find((s) => (s as { name: string }).name === 'inward') as { diagnostics: string[] }).diagnostics.map((d) => d.split(' ')[0])).toEqual(['W412']);
  });

  it('keeps a skill whose SKILL.md is gone for a moment at its last good parse, as a load that looks first does', async () => {
    const { roots, first } = await oddRoots();
    for (const threads of [1, 2]) {
      const cache = ParseCache.memory();
      const registry = new SkillRegistry(roots, { threads, cache });
      // Settled, so the first load's parses are recorded as last good.
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + SETTLE_MS + 60_000);
      expect(registry.list().some((skill) => skill.name === 'rewritten')).toBe(true);
      vi.useRealTimers();
      // An editor renames the new file over the old one: for a moment there is none.
      renameSync(join(first, 'rewritten', 'SKILL.md'), join(first, 'rewritten', 'SKILL.md.tmp'));
      const during = registry.load().list();
      renameSync(join(first, 'rewritten', 'SKILL.md.tmp'), join(first, 'rewritten', 'SKILL.md'));
      expect(
        during.find((skill) => skill.name === 'rewritten'),
        `threads ${threads}`,
      ).toMatchObject({ name: 'rewritten', diagnostics: [] });
    }
  });
});
