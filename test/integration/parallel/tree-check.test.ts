/**
 * A big skill's tree checked on a helper thread (core/skills/tree-check.ts), with the helper both
 * builds ship: its fingerprint is the one this thread takes, whatever the tree holds; a helper that
 * cannot answer costs only time; the hint starts one only for a skill found big; and a search made
 * while the check runs answers as one made after it, never for files that changed.
 */
import { appendFileSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MessageChannel, Worker } from 'node:worker_threads';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SkillLibrary } from '../../../src-main/core/library.js';
import { SETTLE_MS } from '../../../src-main/core/skills/fingerprint.js';
import { BIG_TREE, bigTreesFile, TreeChecks, type TreeCheckData, type TreeCheckWork } from '../../../src-main/core/skills/tree-check.js';
import { hashStats, treeFingerprint, treeStats, type SkillTree } from '../../../src-main/core/skills/tree-fingerprint.js';
import { waitAsync } from '../../support/atomics.js';
import { skillMd, tempDir, testHome, writeSkill } from '../../support/temp.js';

const DIST = join(import.meta.dirname, '..', '..', '..', 'dist');
const BUILDS = {
  'dist/node': join(DIST, 'node', 'src-main', 'core', 'skills', 'tree-check-worker.js'),
  'the CLI bundle': join(DIST, 'cli', 'tree-check-worker.cjs'),
};
const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'tree-check');

afterEach(() => {
  vi.useRealTimers();
});

/** A home whose hint names `name` as a big skill, so a command about it starts a helper. */
function hintedHome(name: string): string {
  const home = tempDir();
  mkdirSync(dirname(bigTreesFile(home)), { recursive: true });
  writeFileSync(bigTreesFile(home), `${name}\n`);
  return home;
}

/** The paths a tree may name: nested, spaced, non-ASCII; some are written, some not (a file removed since the walk). */
const segment = fc.constantFrom('a', 'b c', 'é', '日本', 'notes.md', 'x'.repeat(40));
const relPath = fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/'));
const treeSpec = fc.record({
  written: fc.uniqueArray(relPath, { maxLength: 12 }),
  missing: fc.uniqueArray(
    relPath.map((rel) => `gone/${rel}`),
    { maxLength: 3 },
  ),
  links: fc.uniqueArray(fc.constantFrom('inside', 'outside', 'dangling'), { maxLength: 3 }),
});

/** Writes `spec` under a fresh folder and returns it with the tree a walk of it would record (links and missing paths too). */
function writtenTree(spec: { written: string[]; missing: string[]; links: string[] }): { dir: string; tree: SkillTree } {
  const base = tempDir();
  const dir = join(base, 'skill');
  mkdirSync(dir);
  const files: string[] = [];
  const dirs = new Set<string>();
  for (const rel of spec.written) {
    // A path that is a prefix of another is kept as a folder, as a walk would find it.
    if (spec.written.some((other) => other.startsWith(`${rel}/`))) continue;
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), rel);
    files.push(rel);
    for (let at = rel.indexOf('/'); at !== -1; at = rel.indexOf('/', at + 1)) dirs.add(rel.slice(0, at));
  }
  writeFileSync(join(base, 'outside.md'), 'outside');
  const targets: Record<string, string> = { inside: join(dir, 'SKILL.md'), outside: join(base, 'outside.md'), dangling: join(base, 'nowhere') };
  writeFileSync(join(dir, 'SKILL.md'), 'skill');
  for (const link of spec.links) symlinkSync(targets[link] as string, join(dir, `link-${link}`));
  return { dir, tree: { dirs: [...dirs].sort(), files: [...files, ...spec.missing, 'SKILL.md'], links: spec.links.map((link) => `link-${link}`) } };
}

describe.each(Object.entries(BUILDS))('the helper of %s', (_, script) => {
  it('takes every stat of any tree, alone, as this thread would: folders, files, links in and out, paths gone', async () => {
    await fc.assert(
      fc.asyncProperty(treeSpec, async (spec) => {
        const { dir, tree } = writtenTree(spec);
        const { port1, port2 } = new MessageChannel();
        const data: TreeCheckData = { port: port2 };
        const helper = new Worker(script, { workerData: data, transferList: [port2] });
        try {
          const stats = treeStats(tree, true);
          const work: TreeCheckWork = { dir, tree, stats, hashing: new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT)) };
          port1.postMessage(work);
          const paths = stats.stats.length / 4;
          for (let done = Atomics.load(stats.progress, 1); done < paths; done = Atomics.load(stats.progress, 1)) await waitAsync(stats.progress, 1, done);
          expect(hashStats(tree, stats.stats)).toEqual(treeFingerprint(dir, tree));
        } finally {
          port1.close();
          await helper.terminate();
        }
      }),
      { numRuns: 25 },
    );
  });

  it('with this thread, gives the fingerprint this thread alone takes, whoever took which stats', () => {
    fc.assert(
      fc.property(treeSpec, (spec) => {
        const { dir, tree } = writtenTree(spec);
        const checks = TreeChecks.forSkill(hintedHome('any'), 'any', 2, script);
        expect(checks.post(dir, tree)).toBe(true);
        expect(checks.fingerprint(dir, tree)).toBe(treeFingerprint(dir, tree).fingerprint);
        expect(checks.helped).toBe(false);
      }),
      { numRuns: 25 },
    );
  });

  it('is left the tree it was given: another is fingerprinted by this thread alone', () => {
    const { dir, tree } = writtenTree({ written: ['a/notes.md'], missing: [], links: [] });
    const checks = TreeChecks.forSkill(hintedHome('one'), 'one', 2, script);
    expect(checks.post(dir, tree)).toBe(true);
    // A second post is refused: the helper takes one tree.
    expect(checks.post(dir, { ...tree })).toBe(false);
    expect(checks.fingerprint(dir, { ...tree })).toBe(treeFingerprint(dir, tree).fingerprint);
    expect(checks.helped).toBe(true);
    checks.close();
  });
});

describe('a helper that cannot help', () => {
  it.each([
    ['fails as it starts', 'fails.cjs'],
    ['has not started when the answer is wanted', 'never-starts.cjs'],
    ['is not there (running from sources)', 'absent.cjs'],
  ])('%s: this thread takes every stat, without waiting for it', (_, file) => {
    const { dir, tree } = writtenTree({ written: ['notes.md', 'a/b.md'], missing: ['gone.md'], links: ['outside'] });
    const checks = TreeChecks.forSkill(hintedHome('one'), 'one', 2, join(FIXTURES, file));
    checks.post(dir, tree);
    expect(checks.fingerprint(dir, tree)).toBe(treeFingerprint(dir, tree).fingerprint);
  });
});

describe('the hint', () => {
  it('starts a helper only for a name it lists, on a second thread, and lists a skill while its tree is big', () => {
    const home = tempDir();
    const quiet = TreeChecks.forSkill(home, 'atlas', 2, BUILDS['the CLI bundle']);
    expect(quiet.helped).toBe(false);
    quiet.note('/roots/one/atlas', BIG_TREE);
    quiet.note('/roots/one/small', BIG_TREE - 1);
    expect(readFileSync(bigTreesFile(home), 'utf8')).toBe('atlas\n');
    const helped = TreeChecks.forSkill(home, 'atlas', 2, BUILDS['the CLI bundle']);
    expect(helped.helped).toBe(true);
    expect(TreeChecks.forSkill(home, 'small', 2, BUILDS['the CLI bundle']).helped).toBe(false);
    // One thread to run on (SKILLTRAY_THREADS=1, one core): a helper would only take turns with the command.
    expect(TreeChecks.forSkill(home, 'atlas', 1, BUILDS['the CLI bundle']).helped).toBe(false);
    // Shrunk below the mark: the next command about it starts none.
    helped.note('/roots/one/atlas', BIG_TREE - 1);
    helped.close();
    expect(readFileSync(bigTreesFile(home), 'utf8')).toBe('');
    expect(TreeChecks.forSkill(home, 'atlas', 2, BUILDS['the CLI bundle']).helped).toBe(false);
  });
});

describe('a search of a big skill made while its tree is checked', () => {
  it('answers as a search after the check does, and never for files changed since the parse cache recorded them', { timeout: 120_000 }, async () => {
    const h = testHome();
    const files: Record<string, string> = {};
    for (let i = 0; i < BIG_TREE; i++) files[`references/part-${String(i).padStart(4, '0')}.md`] = `# Part ${i}\n\nThe harbour log, entry ${i}.\n`;
    writeSkill(h.skills, 'atlas', skillMd({ name: 'atlas', description: 'A harbour atlas of many parts.' }, '# Atlas\n\nSee the parts.\n'), files);
    // The files count as settled, as files an hour old would (a parse of unsettled files is not recorded).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + SETTLE_MS + 60_000);
    /** A command's search: `helped` when it had a helper and posted it the tree it then fingerprinted (which lets the helper go). */
    const search = async (words: string): Promise<{ helped: boolean; hits: string[] }> => {
      const checks = TreeChecks.forSkill(h.home, 'atlas', 2, BUILDS['the CLI bundle']);
      const helper = checks.helped;
      const library = new SkillLibrary(h.config(), { treeChecks: checks });
      try {
        const result = library.gateway.search('atlas', words, { limit: 3 }, h.work);
        return { helped: helper && !checks.helped, hits: result.results.map((hit) => `${hit.file}:${hit.section}`) };
      } finally {
        await library.close();
      }
    };

    // The first search parses the skill, records it and its catalog rows, and lists it as big.
    const first = await search('harbour entry 17');
    expect(first.helped).toBe(false);
    expect(readFileSync(bigTreesFile(h.home), 'utf8')).toBe('atlas\n');
    // The next one checks the tree on the helper while it searches: the same answer.
    expect(await search('harbour entry 17')).toEqual({ ...first, helped: true });

    // A word written since the parse was recorded is found: the search made ahead of the check does not stand.
    appendFileSync(join(h.skills, 'atlas', 'references', 'part-0042.md'), '\nA zebra crossing.\n');
    const changed = await search('zebra');
    expect(changed.helped).toBe(true);
    expect(changed.hits).toEqual(['references/part-0042.md:Part 42']);
    // And a file removed is gone from the answer.
    rmSync(join(h.skills, 'atlas', 'references', 'part-0042.md'));
    expect((await search('zebra')).hits).toEqual([]);
  });
});
