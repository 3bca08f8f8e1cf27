import { execFileSync } from 'node:child_process';
import { appendFileSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildIndex, locateIndex, openIndexForSearch, type Freshness } from '../../../src-main/core/search/skill-index.js';
import { searchSkill } from '../../support/index-reads.js';
import { SETTLE_MS, statFingerprint } from '../../../src-main/core/skills/fingerprint.js';
import { walkSkill } from '../../../src-main/core/skills/walk.js';
import { makeSkill, tempDir } from '../../fixtures/gateway/skill-fixture.js';
import { thrownBy } from '../../support/errors.js';
import { SkilltrayError } from '../../../src-main/shared/skilltray-error.js';
import { touchMtime, waitForFsTick } from '../../support/fs-clock.js';

const FILES = {
  'SKILL.md': '---\nname: skill\ndescription: A skill.\n---\n# Skill\n\nThe original words.\n',
  'references/guide.md': '# Guide\n\nConfigure the widget.\n',
  'notes.txt': 'plain notes\n',
};

/** Moves Date forward so the files just written count as settled, as files an hour old would. */
function settle(): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + SETTLE_MS + 60_000);
}

afterEach(() => {
  vi.useRealTimers();
});

function setup(): { base: string; dir: string; runtime: string; path: string } {
  const base = tempDir();
  const dir = makeSkill(base, 'skill', FILES);
  const runtime = join(base, 'runtime', 'skill');
  return { base, dir, runtime, path: locateIndex(dir, runtime).path };
}

function meta(path: string): Record<string, string> {
  const db = new Database(path, { readonly: true });
  try {
    return Object.fromEntries((db.prepare('SELECT key, value FROM index_meta').all() as { key: string; value: string }[]).map((r) => [r.key, r.value]));
  } finally {
    db.close();
  }
}

/** How a search-time check finds the index current, or the error code and reason when it is not. */
function check(dir: string, runtime: string): Freshness | string {
  try {
    const index = openIndexForSearch(dir, runtime, 'skill');
    index.db.close();
    return index.freshBy;
  } catch (error) {
    if (!(error instanceof SkilltrayError)) throw error;
    return `${error.code} ${String(error.details?.reason)}`;
  }
}

/** A built index whose sources have settled, and the next write guaranteed a later ctime. */
function settledIndex(): ReturnType<typeof setup> {
  const t = setup();
  settle();
  buildIndex(t.dir, t.runtime);
  waitForFsTick(
    t.base,
    walkSkill(t.dir).files.map((f) => f.abs),
  );
  return t;
}

describe('index freshness: a stat fingerprint first, the manifest hash when it moved', () => {
  it('records the fingerprint of settled sources and then answers by it without hashing', () => {
    const t = settledIndex();
    expect(meta(t.path).source_fingerprint).toBe(statFingerprint(walkSkill(t.dir).files));
    expect(check(t.dir, t.runtime)).toBe('fingerprint');
    expect(buildIndex(t.dir, t.runtime)).toMatchObject({ status: 'up-to-date' });
  });

  it('catches an edit that keeps the size and sets the mtime back (touch -d): only the ctime moved', () => {
    const t = settledIndex();
    const file = join(t.dir, 'references', 'guide.md');
    const before = statSync(file, { bigint: true });
    writeFileSync(file, readFileSync(file, 'utf8').replace('widget', 'gadget'));
    touchMtime(file, before.mtimeNs);
    const after = statSync(file, { bigint: true });
    expect([after.size, after.mtimeNs, after.ino]).toEqual([before.size, before.mtimeNs, before.ino]);
    expect(after.ctimeNs).not.toBe(before.ctimeNs);
    expect(check(t.dir, t.runtime)).toBe('E002 stale');
    expect(thrownBy(() => searchSkill(t.dir, t.runtime, 'gadget', { skill: 'skill' })).code).toBe('E002');
  });

  it.each([
    ['a new file', (dir: string) => writeFileSync(join(dir, 'references', 'extra.md'), '# Extra\n')],
    ['a removed file', (dir: string) => rmSync(join(dir, 'notes.txt'))],
    ['a renamed file', (dir: string) => renameSync(join(dir, 'notes.txt'), join(dir, 'notes-2.txt'))],
    ['an appended line', (dir: string) => appendFileSync(join(dir, 'SKILL.md'), 'More.\n')],
  ])('catches %s', (_label, change) => {
    const t = settledIndex();
    change(t.dir);
    expect(check(t.dir, t.runtime)).toBe('E002 stale');
    expect(buildIndex(t.dir, t.runtime)).toMatchObject({ status: 'rebuilt', reason: 'stale' });
    expect(check(t.dir, t.runtime)).toBe('fingerprint');
  });

  it('a touch that leaves the bytes alone is current by hash, and the next build records the new fingerprint', () => {
    const t = settledIndex();
    execFileSync('touch', [join(t.dir, 'SKILL.md')]);
    expect(check(t.dir, t.runtime)).toBe('hash');
    expect(buildIndex(t.dir, t.runtime)).toMatchObject({ status: 'up-to-date' });
    expect(check(t.dir, t.runtime)).toBe('fingerprint');
  });

  it('does not record a fingerprint for sources that changed just before the build (a later same-tick write could hide behind it)', () => {
    const t = setup();
    buildIndex(t.dir, t.runtime);
    expect(meta(t.path).source_fingerprint).toBeUndefined();
    expect(check(t.dir, t.runtime)).toBe('hash');
  });

  it('a fingerprint never outvotes the settings: another schema version or tokenizer is stale', () => {
    const t = settledIndex();
    const db = new Database(t.path);
    db.exec("UPDATE index_meta SET value = 'unicode61' WHERE key = 'tokenizer'");
    db.close();
    expect(check(t.dir, t.runtime)).toBe('E002 stale');
  });

  it('trustSources skips the sources entirely (the app, when the watcher vouches for them)', () => {
    const t = settledIndex();
    appendFileSync(join(t.dir, 'SKILL.md'), 'Unseen.\n');
    const index = openIndexForSearch(t.dir, t.runtime, 'skill', { trustSources: true });
    index.db.close();
    expect(index.freshBy).toBe('trusted');
  });
});
