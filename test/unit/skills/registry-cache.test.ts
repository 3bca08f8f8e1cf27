import { mkdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SkillRoot } from '../../../src-main/shared/model.js';
import { SETTLE_MS } from '../../../src-main/core/skills/fingerprint.js';
import { walkSkill } from '../../../src-main/core/skills/walk.js';
import { ParseCache } from '../../../src-main/core/skills/parse-cache.js';
import { parseSkill } from '../../../src-main/core/skills/parse-skill.js';
import { SkillRegistry, type ParseSkill, type SkillChange } from '../../../src-main/core/skills/registry.js';
import { touchMtime, waitForFsTick } from '../../support/fs-clock.js';
import { skillMd, tempDir, writeSkill } from '../../support/temp.js';

const SKILLS = 1000;

afterEach(() => {
  vi.useRealTimers();
});

/** Moves Date forward so the files just written count as settled, as files an hour old would. */
function settle(): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + SETTLE_MS + 60_000);
}

/** parseSkill with a record of every directory it parsed. */
function countingParse(): { parse: ParseSkill; parsed: string[] } {
  const parsed: string[] = [];
  return {
    parsed,
    parse: (dir, root, walk) => {
      parsed.push(dir);
      return parseSkill(dir, root, walk ?? undefined);
    },
  };
}

function corpus(count: number): { base: string; roots: SkillRoot[]; dirs: string[] } {
  const base = tempDir();
  const path = join(base, 'skills');
  const dirs: string[] = [];
  for (let i = 0; i < count; i++) {
    const name = `skill-${String(i).padStart(4, '0')}`;
    dirs.push(writeSkill(path, name, skillMd({ name, description: `Skill number ${i}.`, version: '1.0.0' }, `# ${name}\n\nWords.\n`), { 'references/notes.md': `# Notes ${i}\n` }));
  }
  return { base, roots: [{ path, kind: 'env', trust: 'user', syntax: 'angle' }], dirs };
}

function nextChange(registry: SkillRegistry): Promise<SkillChange> {
  return new Promise((resolve) => registry.once('change', resolve));
}

describe('incremental loading', () => {
  it('a watched change to one of 1,000 skills re-parses that skill and no other', { timeout: 120_000 }, async () => {
    const { roots, dirs } = corpus(SKILLS);
    const { parse, parsed } = countingParse();
    const registry = new SkillRegistry(roots, { parse });
    await registry.watch();
    try {
      expect(parsed).toHaveLength(SKILLS);
      expect(registry.list()).toHaveLength(SKILLS);
      parsed.length = 0;
      const target = dirs[500] as string;
      const changed = nextChange(registry);
      writeFileSync(join(target, 'SKILL.md'), skillMd({ name: 'skill-0500', description: 'Edited.', version: '1.0.1' }, '# skill-0500\n'));
      expect(await changed).toMatchObject({ kind: 'changed', name: 'skill-0500' });
      expect(parsed).toEqual([target]);
      expect(registry.get('skill-0500')?.description).toBe('Edited.');
    } finally {
      await registry.close();
    }
  });

  it('a full reload takes unchanged skills from the cache and parses only the one that changed', { timeout: 60_000 }, () => {
    const { base, roots, dirs } = corpus(200);
    const { parse, parsed } = countingParse();
    settle();
    const cache = ParseCache.memory();
    const first = new SkillRegistry(roots, { cache, parse }).load();
    expect(parsed).toHaveLength(200);
    parsed.length = 0;
    const again = new SkillRegistry(roots, { cache, parse }).load();
    expect(parsed).toEqual([]);
    expect(again.list()).toEqual(first.list());

    waitForFsTick(base, dirs.map((dir) => join(dir, 'references', 'notes.md')));
    writeFileSync(join(dirs[7] as string, 'references', 'notes.md'), '# Notes 7, edited\n');
    const third = new SkillRegistry(roots, { cache, parse }).load();
    expect(parsed).toEqual([dirs[7]]);
    expect(third.get('skill-0007')?.hash).not.toBe(first.get('skill-0007')?.hash);
  });

  it('identifying a cached skill (W421 added, then dropped) leaves the parse the cache and earlier loads share as it was', () => {
    const base = tempDir();
    const mine: SkillRoot = { path: join(base, 'mine'), kind: 'env', trust: 'user', syntax: 'angle' };
    const theirs: SkillRoot = { path: join(base, 'theirs'), kind: 'kode', trust: 'user', syntax: 'angle' };
    for (const root of [mine, theirs]) writeSkill(root.path, 'git', skillMd({ name: 'git', description: `Git of ${root.kind}.`, version: '1.0.0' }));
    settle();
    const cache = ParseCache.memory();
    const hiding = new SkillRegistry([mine, theirs], { cache }).load().get('git');
    expect(hiding).toMatchObject({ state: 'warnings', diagnostics: [expect.objectContaining({ code: 'W421' })] });
    const alone = new SkillRegistry([mine], { cache }).load().get('git');
    expect(alone).toMatchObject({ state: 'ok', diagnostics: [] });
    // Both came from one cached parse: the first still says what it hides.
    expect(hiding?.diagnostics.map((d) => d.code)).toEqual(['W421']);
  });

  it('a same-size edit with its mtime set back (touch -d) is re-parsed (the ctime moved)', () => {
    const { base, roots, dirs } = corpus(2);
    const { parse, parsed } = countingParse();
    settle();
    const cache = ParseCache.memory();
    const before = new SkillRegistry(roots, { cache, parse }).load().get('skill-0001');
    const file = join(dirs[1] as string, 'SKILL.md');
    const mtimeNs = statSync(file, { bigint: true }).mtimeNs;
    waitForFsTick(base, [file]);
    writeFileSync(file, readFileSync(file, 'utf8').replace('number 1', 'number 9'));
    touchMtime(file, mtimeNs);
    expect(statSync(file, { bigint: true }).mtimeNs).toBe(mtimeNs);
    parsed.length = 0;
    const after = new SkillRegistry(roots, { cache, parse }).load().get('skill-0001');
    expect(parsed).toEqual([dirs[1]]);
    expect(after?.description).toBe('Skill number 9.');
    expect(after?.hash).not.toBe(before?.hash);
  });

  it.each([
    ['a file added to a subdirectory', (dir: string) => writeFileSync(join(dir, 'references', 'more.md'), '# More\n')],
    ['a file removed', (dir: string) => rmSync(join(dir, 'references', 'notes.md'))],
    ['a file renamed', (dir: string) => renameSync(join(dir, 'references', 'notes.md'), join(dir, 'references', 'renamed.md'))],
    // The target is in a hidden directory the walk never lists: only the link's own stat can tell.
    ['a dangling link whose target appears', (dir: string) => writeFileSync(join(dir, '.hidden', 'target.md'), '# Target\n')],
  ])('without listing a directory, the cache still sees %s', (_label, change) => {
    const { base, roots, dirs } = corpus(2);
    const dir = dirs[1] as string;
    mkdirSync(join(dir, '.hidden'));
    symlinkSync(join('..', '.hidden', 'target.md'), join(dir, 'references', 'link.md'));
    const { parse, parsed } = countingParse();
    settle();
    const cache = ParseCache.memory();
    const before = new SkillRegistry(roots, { cache, parse }).load().get('skill-0001');
    waitForFsTick(base, [join(dir, 'references', 'notes.md'), join(dir, 'references')]);
    change(dir);
    parsed.length = 0;
    const after = new SkillRegistry(roots, { cache, parse }).load().get('skill-0001');
    expect(parsed).toEqual([dir]);
    expect(after?.hash).not.toBe(before?.hash);
  });

  it('skills parsed just after they changed are not cached (their stat cannot vouch for them yet)', () => {
    const { roots } = corpus(3);
    const { parse, parsed } = countingParse();
    const cache = ParseCache.memory();
    new SkillRegistry(roots, { cache, parse }).load();
    new SkillRegistry(roots, { cache, parse }).load();
    expect(parsed).toHaveLength(6);
  });

  it('keeps parsed skills in a file for the next process, and not for another root', () => {
    const { base, roots } = corpus(20);
    const file = join(base, 'home', 'runtime', '.loader', 'skills.db');
    settle();
    const first = countingParse();
    const writer = ParseCache.file(file);
    const loaded = new SkillRegistry(roots, { cache: writer, parse: first.parse }).load().list();
    writer.close();
    expect(first.parsed).toHaveLength(20);

    const second = countingParse();
    const reader = ParseCache.file(file);
    expect(new SkillRegistry(roots, { cache: reader, parse: second.parse }).load().list()).toEqual(loaded);
    reader.close();
    expect(second.parsed).toEqual([]);

    const bundled = roots.map((root) => ({ ...root, trust: 'bundled' as const }));
    const third = countingParse();
    const other = ParseCache.file(file);
    expect(new SkillRegistry(bundled, { cache: other, parse: third.parse }).load().get('skill-0003')?.root.trust).toBe('bundled');
    other.close();
    expect(third.parsed).toHaveLength(20);
  });

  it('gives back from the file exactly what was parsed, also values JSON cannot hold (.inf, .nan, -0 in frontmatter)', () => {
    const base = tempDir();
    const path = join(base, 'skills');
    writeSkill(path, 'plain', skillMd({ name: 'plain', description: 'Plain.', metadata: { note: 'x' } }, '# Plain\n'));
    writeFileSync(
      join(writeSkill(path, 'odd', skillMd({ name: 'odd', description: 'Odd.' }, '# Odd\n')), 'SKILL.md'),
      '---\nname: odd\ndescription: Odd.\nmetadata:\n  big: .inf\n  none: .nan\n  zero: -0.0\n---\n# Odd\n',
    );
    const roots: SkillRoot[] = [{ path, kind: 'env', trust: 'user', syntax: 'angle' }];
    const file = join(base, 'skills.db');
    settle();
    const writer = ParseCache.file(file);
    const loaded = new SkillRegistry(roots, { cache: writer }).load().list();
    writer.close();
    const metadata = loaded.find((skill) => skill.name === 'odd')?.frontmatter.metadata as Record<string, number>;
    expect([metadata.big, metadata.none, Object.is(metadata.zero, -0)]).toEqual([Infinity, NaN, true]);

    const again = countingParse();
    const reader = ParseCache.file(file);
    expect(new SkillRegistry(roots, { cache: reader, parse: again.parse }).load().list()).toEqual(loaded);
    reader.close();
    expect(again.parsed).toEqual([]);
  });

  it('a fresh load lists a skill whose SKILL.md is missing for a moment (renamed over) from its last good parse, and drops it once that outlasts the rewrite', () => {
    const { base, roots, dirs } = corpus(3);
    const file = join(base, 'skills.db');
    settle();
    const writer = ParseCache.file(file);
    const before = new SkillRegistry(roots, { cache: writer }).load().list();
    writer.close();
    vi.useRealTimers();
    rmSync(join(dirs[1] as string, 'SKILL.md'));

    const reader = ParseCache.file(file);
    const during = new SkillRegistry(roots, { cache: reader }).load().list();
    reader.close();
    expect(during.map((skill) => skill.name)).toEqual(['skill-0000', 'skill-0001', 'skill-0002']);
    expect(during[1]).toEqual(before[1]);

    // Still missing once the rewrite has had its time: gone.
    settle();
    const after = ParseCache.file(file);
    expect(new SkillRegistry(roots, { cache: after }).load().list().map((skill) => skill.name)).toEqual(['skill-0000', 'skill-0002']);
    after.close();
  });

  it("hands the search catalog the files each skill it parsed was walked with, and none for a skill the cache gave back", () => {
    const { base, roots, dirs } = corpus(2);
    const file = join(base, 'skills.db');
    settle();
    const writer = ParseCache.file(file);
    const parsed = new SkillRegistry(roots, { cache: writer }).load();
    writer.close();
    for (const [i, skill] of parsed.list().entries()) expect(parsed.walkedFiles(skill)).toEqual(walkSkill(dirs[i] as string).files);

    const reader = ParseCache.file(file);
    const cached = new SkillRegistry(roots, { cache: reader }).load();
    reader.close();
    expect(cached.list().map((skill) => cached.walkedFiles(skill))).toEqual([undefined, undefined]);
  });

  it('a damaged cache file is replaced, never an error', () => {
    const { base, roots } = corpus(2);
    const file = join(base, 'skills.db');
    writeFileSync(file, 'not a database at all, not even close');
    const cache = ParseCache.file(file);
    expect(new SkillRegistry(roots, { cache }).load().list()).toHaveLength(2);
    cache.close();
  });

  it('before a full load, asking for one skill parses only that one, and finding its directory parses nothing', () => {
    const { roots, dirs } = corpus(50);
    const { parse, parsed } = countingParse();
    const registry = new SkillRegistry(roots, { parse });
    expect(registry.dirOf('skill-0042')).toBe(dirs[42]);
    expect(registry.dirOf('../skills/skill-0042')).toBeNull();
    expect(parsed).toEqual([]);
    expect(registry.get('skill-0042')?.name).toBe('skill-0042');
    expect(registry.get('.hidden')).toBeUndefined();
    expect(parsed).toEqual([dirs[42]]);
    expect(registry.list()).toHaveLength(50);
  });
});
