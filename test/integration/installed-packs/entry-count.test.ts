/**
 * A bomb by count is any kind of entry: folders (listed or implied by a path) and links count
 * against the one entry limit as files do, in an archive's headers, in the extraction and in a git
 * listing, and an archive over it is refused before anything reaches staging.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inspectArchive } from '../../../src-main/core/packs/archive.js';
import { EntryBudget } from '../../../src-main/core/packs/entry-budget.js';
import { extractEntries, type EntryWalk } from '../../../src-main/core/packs/extraction.js';
import { MAX_PACK_ENTRIES, MAX_TARGET_BYTES } from '../../../src-main/core/packs/findings.js';
import { listCommit } from '../../../src-main/core/packs/git.js';
import { fetchSource } from '../../../src-main/core/packs/source.js';
import { repoOfEntries, tar, tarGz, zip, type ArchiveEntry } from '../../support/pack-sources.js';
import { tempDir } from '../../support/temp.js';

/** Entries of every kind: `dirs` listed folders, `links` links, `files` files, a third of them in folders no entry lists. */
function mixed(dirs: number, links: number, files: number): ArchiveEntry[] {
  const entries: ArchiveEntry[] = [{ name: 'p/SKILL.md', data: 'x' }];
  for (let i = 0; i < dirs; i++) entries.push({ name: `p/d/${i}`, type: 'directory' });
  for (let i = 0; i < links; i++) entries.push({ name: `p/l/${i}`, type: 'symlink', target: '../SKILL.md' });
  for (let i = 0; i < files; i++) entries.push({ name: i % 3 === 0 ? `p/implied/${i}/f` : `p/f/${i}` });
  return entries;
}

/** How many entries the pack holds, counted plainly: every distinct path and every folder above one. */
function entriesIn(entries: readonly ArchiveEntry[]): number {
  const paths = new Set<string>();
  for (const { name } of entries) {
    const segments = name.split('/').filter((s) => s !== '');
    for (let i = 1; i <= segments.length; i++) paths.add(segments.slice(0, i).join('/'));
  }
  return paths.size;
}

describe('every entry counts against the one entry limit', () => {
  it('any archive (tar or zip) over the entry limit, whatever its mix of files, folders and links, is refused (S309) before anything is written to staging', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('tar' as const, 'zip' as const),
        fc.integer({ min: MAX_PACK_ENTRIES - 40, max: MAX_PACK_ENTRIES + 40 }),
        fc.integer({ min: 0, max: 600 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        async (kind, total, files, share) => {
          // Files stay few (they are slow to write and have their own limit); folders and links make up the rest.
          const rest = total - files - Math.ceil(files / 3) - 6;
          const dirs = Math.round(rest * share);
          const entries = mixed(dirs, rest - dirs, files);
          const over = entriesIn(entries) > MAX_PACK_ENTRIES;
          const base = tempDir();
          const source = kind === 'tar' ? tar(join(base, 'p.tar'), entries) : zip(join(base, 'p.zip'), entries);
          // Under the limit the headers pass (extracting ~20,000 entries each run would only cost time).
          if (!over) {
            expect((await inspectArchive(kind, source)).findings).toEqual([]);
            return;
          }
          // The headers alone refuse it, so the extraction never starts.
          expect((await inspectArchive(kind, source)).findings.map((f) => f.code)).toEqual(['S309']);
          const work = join(base, 'work');
          mkdirSync(work);
          const written: string[] = [];
          const fetched = await fetchSource({ source }, { home: base, env: process.env, cwd: base, work, onFile: (rel) => written.push(rel) });
          expect(fetched.findings).toEqual([
            expect.objectContaining({
              code: 'S309',
              severity: 'high',
              message: expect.stringContaining(`more than ${MAX_PACK_ENTRIES.toLocaleString('en')} entries`),
            }),
          ]);
          expect(fetched.tree).toBeNull();
          expect(written).toEqual([]);
          expect(existsSync(join(work, 'fetched'))).toBe(false);
        },
      ),
      { numRuns: 8 },
    );
  }, 240_000);

  it('the reviewer’s archive — 30,000 folders and 30,000 links in a few hundred KB of .tar.gz — is refused from its headers', async () => {
    const source = tarGz(join(tempDir(), 'dirs.tar.gz'), mixed(30_000, 30_000, 0));
    expect((await inspectArchive('tar', source)).findings.map((f) => f.code)).toEqual(['S309']);
  });

  it('the extraction counts every entry too, whatever walks it (a folder or a source not inspected first): links past the limit stop it and leave nothing', async () => {
    const base = tempDir();
    const walk: EntryWalk = async (visit) => {
      for (let i = 0; i <= MAX_PACK_ENTRIES; i++)
        if (!(await visit({ raw: `l/${i}`, type: 'symlink', mode: 0o777, size: 0, open: async () => Readable.from([Buffer.from('../x')]) }))) return;
    };
    const dest = join(base, 'out');
    const findings = await extractEntries(walk, dest, 'test', () => undefined);
    expect(findings.map((f) => f.code)).toEqual(['S309']);
    expect(existsSync(dest)).toBe(false);
  });
});

describe('a git listing counts links, and holds a link to a target’s size before its blob is read', () => {
  /** A repository whose one commit holds SKILL.md and, under `l/`, `count` links whose blob is `target`; returns its git dir and commit. */
  async function linkRepo(count: number, target: string): Promise<{ dir: string; commit: string; base: string }> {
    const base = tempDir();
    const { gitDir, commit } = await repoOfEntries(base, [
      { mode: '100644', content: 'x', path: 'SKILL.md' },
      ...Array.from({ length: count }, (_, i) => ({ mode: '120000' as const, content: target, path: `l/${i}` })),
    ]);
    return { dir: gitDir, commit, base };
  }

  it(`${MAX_PACK_ENTRIES.toLocaleString('en')} links (no file limit reached) are S309 from the listing`, async () => {
    const { dir, commit, base } = await linkRepo(MAX_PACK_ENTRIES, '../SKILL.md');
    const budget = new EntryBudget();
    const items = await listCommit(dir, commit, { env: process.env, home: base }, budget);
    expect(budget.findings).toEqual([expect.objectContaining({ code: 'S309', message: expect.stringContaining('entries') })]);
    expect(budget.files).toBe(1);
    expect(items.length).toBeLessThan(MAX_PACK_ENTRIES);
  });

  it('a link whose blob is over the longest target is S313 from its ls-tree size, before cat-file reads it', async () => {
    const { dir, commit, base } = await linkRepo(1, 'a/'.repeat(MAX_TARGET_BYTES));
    const budget = new EntryBudget();
    const items = await listCommit(dir, commit, { env: process.env, home: base }, budget);
    expect(budget.findings).toEqual([expect.objectContaining({ code: 'S313', file: 'l/0' })]);
    expect(items.map((i) => i.path)).toEqual(['SKILL.md']);
  });
});
