import { realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SkilltrayCore } from '../../../src-main/core/api.js';
import { locateIndex } from '../../../src-main/core/search/skill-index.js';
import { runtimeDir } from '../../../src-main/core/gateway/runtime-dir.js';
import { walkSkill } from '../../../src-main/core/skills/walk.js';
import type * as Files from '../../../src-main/core/skills/walk.js';
import { skillMd, testHome, writeSkill, type TestHome } from '../../support/temp.js';

// Every walk of a skill's files is counted: a source check is a walk, so no walk means no check.
vi.mock('../../../src-main/core/skills/walk.js', async (importOriginal) => {
  const actual = await importOriginal<typeof Files>();
  return { ...actual, walkSkill: vi.fn(actual.walkSkill) };
});

const cores: SkilltrayCore[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
});

const md = (name: string, body: string) => skillMd({ name, description: `${name} skill`, version: '1.0.0' }, `# ${name}\n\n${body}\n`);

async function app(): Promise<{ t: TestHome; core: SkilltrayCore }> {
  const t = testHome();
  for (const name of ['alpha', 'beta']) writeSkill(t.skills, name, md(name, 'Original words.'));
  const core = new SkilltrayCore(t.config(), { autoBuild: true });
  cores.push(core);
  await core.startWatching();
  // The catalog is built in the background after start-up; these tests begin once it is.
  await core.library.catalogCurrent();
  return { t, core };
}

/** Rows of a skill's index that match `word`, read straight from the file (no search, so no rebuild). */
function indexedRows(t: TestHome, core: SkilltrayCore, name: string, word: string): number {
  const db = new Database(locateIndex(core.library.getSkill(name).dir, runtimeDir(t.home, name)).path, { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM sections WHERE sections MATCH ?').get(`"${word}"`) as { n: number }).n;
  } finally {
    db.close();
  }
}

/** Walks of `dir` since the counter was last cleared. */
function walksOf(dir: string): number {
  return vi.mocked(walkSkill).mock.calls.filter(([walked]) => realpathSync(walked) === realpathSync(dir)).length;
}

describe('the app keeps search indexes current by itself', () => {
  it('builds an index on first use, and rebuilds it after a watched change before anyone searches', async () => {
    const { t, core } = await app();
    expect(core.gateway.search('alpha', 'original', {}, t.home).results).toHaveLength(1);
    const changed = new Promise((resolve) => core.registry.once('change', resolve));
    writeFileSync(join(t.skills, 'alpha', 'SKILL.md'), md('alpha', 'Freshly edited words.'));
    await changed;
    // Read from the index file itself: a search would rebuild it on its own and hide a missing rebuild.
    expect(indexedRows(t, core, 'alpha', 'freshly')).toBe(1);
    expect(core.gateway.search('alpha', 'freshly', {}, t.home).results).toHaveLength(1);
    expect(core.gateway.searchAll('freshly').results.map((r) => r.skill)).toEqual(['alpha']);
  });

  it('while the first catalog sync is still reading, a search of one skill finds it and a search of all says the catalog is filling', async () => {
    const t = testHome();
    for (const name of ['alpha', 'beta']) writeSkill(t.skills, name, md(name, 'Original words.'));
    const core = new SkilltrayCore(t.config(), { autoBuild: true });
    cores.push(core);
    await core.startWatching();
    // Started (or joined) here; it reads with the event loop free and writes only when done, so the search below comes first.
    const syncing = core.library.catalogCurrent();
    // Every skill at once cannot be answered yet: the answer says why it is empty instead of "no results".
    const early = core.gateway.searchAll('original');
    expect(early.results).toEqual([]);
    expect(early.message).toMatch(/^no results for "original" yet: the search catalog is still being filled/);
    expect(core.gateway.search('alpha', 'original', {}, t.home).results.map((hit) => hit.skill)).toEqual(['alpha']);
    await syncing;
    const all = core.gateway.searchAll('original');
    expect(all.results.map((hit) => hit.skill)).toEqual(['alpha', 'beta']);
    expect(core.gateway.searchAll('xyzzy').message).toBe('no results for "xyzzy"');
  });

  it('reads a skill the watcher vouches for without checking its sources, and checks again as soon as the watcher reports a change', async () => {
    const { t, core } = await app();
    const alpha = core.library.getSkill('alpha').dir;
    core.gateway.search('alpha', 'original', {}, t.home);
    core.gateway.show('alpha', { section: 'alpha' }, t.home);
    vi.mocked(walkSkill).mockClear();
    expect(core.gateway.search('alpha', 'original', {}, t.home).results).toHaveLength(1);
    expect(core.gateway.show('alpha', { section: 'alpha' }, t.home).content).toContain('Original words.');
    expect(walksOf(alpha)).toBe(0);

    const touched = new Promise((resolve) => core.registry.once('touched', resolve));
    writeFileSync(join(t.skills, 'alpha', 'SKILL.md'), md('alpha', 'Edited under the watcher.'));
    expect(await touched).toBe('alpha');
    // Before the reload's debounce has passed: the search and the section read must see the edit.
    expect(core.gateway.search('alpha', 'edited', {}, t.home).results).toHaveLength(1);
    expect(core.gateway.show('alpha', { section: 'alpha' }, t.home).content).toContain('Edited under the watcher.');
    expect(walksOf(alpha)).toBeGreaterThan(0);
  });

  it('rebuilds an index deleted behind its back instead of failing', async () => {
    const { t, core } = await app();
    core.gateway.show('beta', { section: 'beta' }, t.home);
    const { path } = locateIndex(core.library.getSkill('beta').dir, runtimeDir(t.home, 'beta'));
    writeFileSync(path, 'garbage');
    expect(core.gateway.show('beta', { section: 'beta' }, t.home).content).toContain('Original words.');
    expect(core.gateway.searchIndex('beta', 'original', {}, t.home).results).toHaveLength(1);
  });

  it('a command line builds a missing index as it reads; strict (RFC-0004 as written) answers E002 instead', () => {
    const t = testHome();
    writeSkill(t.skills, 'alpha', md('alpha', 'Words.'));
    const strict = new SkilltrayCore(t.config(), { strict: true });
    cores.push(strict);
    expect(() => strict.gateway.show('alpha', { section: 'alpha' }, t.home)).toThrow(
      expect.objectContaining({ code: 'E002', details: { skill: 'alpha', reason: 'missing' } }),
    );
    expect(() => strict.gateway.searchIndex('alpha', 'words', {}, t.home)).toThrow(expect.objectContaining({ code: 'E002' }));
    const reading = new SkilltrayCore(t.config());
    cores.push(reading);
    expect(reading.gateway.show('alpha', { section: 'alpha' }, t.home).content).toContain('Words.');
    expect(strict.gateway.searchIndex('alpha', 'words', {}, t.home).results).toHaveLength(1);
  });
});
