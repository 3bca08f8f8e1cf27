import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { afterEach, describe, expect, it } from 'vitest';
import { SkillRegistry } from '../../../src-main/core/skills/registry.js';
import { nextChange } from '../../support/registry-changes.js';
import { RootWatcher, type WatchFactory } from '../../../src-main/core/skills/root-watcher.js';
import { skillMd, tempDir, testHome, writeSkill, type TestHome } from '../../support/temp.js';

const good = (name: string) => skillMd({ name, description: `The ${name} skill.`, version: '1.0.0' });

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A factory that keeps the chokidar watchers it starts. */
function keeping(made: FSWatcher[]): WatchFactory {
  return (paths, options) => {
    const watcher = watch(paths, options);
    made.push(watcher);
    return watcher;
  };
}

/** Resolves once `check` holds, looking again after each turn of chokidar's work. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Every path a chokidar watcher watches (its directories and their entries). */
function watchedPaths(watcher: FSWatcher): string[] {
  return [...new Set(Object.entries(watcher.getWatched()).flatMap(([dir, names]) => [dir, ...names.map((name) => join(dir, name))]))];
}

/**
 * A root of `n` plain skills, and with `links` the hostile ones: `up -> ..` and `self -> .` in
 * one skill, a loop two levels deep in another, two folders linking to each other in a third.
 */
function root(t: TestHome, n: number, links: boolean): void {
  for (let i = 0; i < n; i++) writeSkill(t.skills, `plain-${i}`, good(`plain-${i}`), { 'docs/guide.md': '# Guide\n' });
  writeSkill(t.skills, 'updown', good('updown'));
  writeSkill(t.skills, 'deep', good('deep'), { 'a/b/notes.md': 'notes\n' });
  writeSkill(t.skills, 'mutual', good('mutual'), { 'a/one.md': '1\n', 'b/two.md': '2\n' });
  if (!links) return;
  symlinkSync('..', join(t.skills, 'updown', 'up'));
  symlinkSync('.', join(t.skills, 'updown', 'self'));
  symlinkSync('../..', join(t.skills, 'deep', 'a', 'b', 'loop'));
  symlinkSync('../b', join(t.skills, 'mutual', 'a', 'to-b'));
  symlinkSync('../a', join(t.skills, 'mutual', 'b', 'to-a'));
}

async function watchedRegistry(t: TestHome, made: FSWatcher[]): Promise<SkillRegistry> {
  const registry = new SkillRegistry(t.config().roots, { watch: keeping(made) }).load();
  closers.push(() => registry.close());
  await registry.watch();
  return registry;
}

describe('the root watcher follows links as the loader does', () => {
  it('watches exactly what a root without the hostile links holds: no link out of a skill or back into it is followed', async () => {
    const clean = testHome();
    const hostile = testHome();
    root(clean, 20, false);
    root(hostile, 20, true);
    const cleanMade: FSWatcher[] = [];
    const hostileMade: FSWatcher[] = [];
    await watchedRegistry(clean, cleanMade);
    const registry = await watchedRegistry(hostile, hostileMade);
    const relative = (t: TestHome, paths: string[]) => paths.map((p) => p.slice(t.skills.length)).sort();
    const cleanWatched = relative(clean, watchedPaths(cleanMade[0] as FSWatcher));
    const hostileWatched = relative(hostile, watchedPaths(hostileMade[0] as FSWatcher));
    expect(hostileWatched).toEqual(cleanWatched);
    expect(registry.watching).toBe(true);
    // The loader reports the link out of the skill, as before.
    expect(registry.get('updown')?.diagnostics.map((d) => d.code)).toContain('W412');
  });

  it('follows a skill folder that is a link, and a link to a file inside the skill, and sees their changes', async () => {
    const t = testHome();
    const elsewhere = tempDir();
    writeSkill(elsewhere, 'linked', good('linked'), { 'notes.md': 'one\n' });
    symlinkSync(join(elsewhere, 'linked'), join(t.skills, 'linked'));
    symlinkSync('notes.md', join(elsewhere, 'linked', 'same-notes.md'));
    // A link out of the skill to a file is not followed either.
    writeFileSync(join(elsewhere, 'outside.md'), 'outside\n');
    symlinkSync(join(elsewhere, 'outside.md'), join(elsewhere, 'linked', 'outside.md'));
    const made: FSWatcher[] = [];
    const registry = await watchedRegistry(t, made);
    const watched = watchedPaths(made[0] as FSWatcher);
    expect(watched).toContain(join(t.skills, 'linked', 'notes.md'));
    expect(watched).toContain(join(t.skills, 'linked', 'same-notes.md'));
    expect(watched).not.toContain(join(t.skills, 'linked', 'outside.md'));
    const changed = nextChange(registry, 'linked');
    writeFileSync(join(elsewhere, 'linked', 'SKILL.md'), skillMd({ name: 'linked', description: 'Changed.', version: '1.0.1' }));
    expect(await changed).toMatchObject({ kind: 'changed', name: 'linked' });
  });

  it('watches at most its budget of paths in one skill, says so for the root, and stops vouching for changes', async () => {
    const t = testHome();
    const files = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`many/file-${i}.md`, `${i}\n`]));
    writeSkill(t.skills, 'huge', good('huge'), files);
    writeSkill(t.skills, 'small', good('small'));
    const made: FSWatcher[] = [];
    const touched: (string | null)[] = [];
    const watcher = new RootWatcher(t.config().roots, { touched: (name) => touched.push(name), settled: () => undefined }, keeping(made), 10);
    closers.push(() => watcher.close());
    await watcher.start();
    const watched = watchedPaths(made[0] as FSWatcher);
    const inHuge = watched.filter((p) => p.startsWith(`${join(t.skills, 'huge')}${sep}`) || p === join(t.skills, 'huge'));
    expect(inHuge.length).toBeLessThanOrEqual(10);
    expect(watched).toContain(join(t.skills, 'small', 'SKILL.md'));
    expect(watcher.status(t.skills)?.problems).toEqual([{ path: join(t.skills, 'huge'), code: 'BUDGET', message: expect.stringContaining('more than 10 paths') }]);
    expect(watcher.reliable).toBe(false);
    expect(touched).toContain(null);
  });

  it('counts a removed path out of the budget, so a skill that shrinks and grows again stays within it', async () => {
    const t = testHome();
    writeSkill(t.skills, 'churn', good('churn'), { 'a.md': 'a\n', 'b.md': 'b\n' });
    const made: FSWatcher[] = [];
    // The skill's folder, SKILL.md, a.md, b.md, then sub-N/ and sub-N/x.md: six, each round.
    const watcher = new RootWatcher(t.config().roots, { touched: () => undefined, settled: () => undefined }, keeping(made), 6);
    closers.push(() => watcher.close());
    await watcher.start();
    const chokidar = made[0] as FSWatcher;
    for (let round = 0; round < 3; round++) {
      const sub = join(t.skills, 'churn', `sub-${round}`);
      mkdirSync(sub);
      writeFileSync(join(sub, 'x.md'), 'x\n');
      await until(() => watchedPaths(chokidar).includes(join(sub, 'x.md')));
      rmSync(sub, { recursive: true });
      await until(() => !watchedPaths(chokidar).some((p) => p.startsWith(sub)));
    }
    expect(watcher.status(t.skills)?.problems).toEqual([]);
    expect(watcher.reliable).toBe(true);
  });
});
