/**
 * Killing `skilltray install` at random points: the real CLI (the build under test) is SIGKILLed
 * when it reports its n-th step, and whatever it reached — copying files, scanning, the journal,
 * the lock, the swap — the installed pack is one version whole (never a mix, never gone), and once
 * the next process recovers, the lock says exactly what is on disk and nothing is left staged.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { execa } from 'execa';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SkilltrayCore } from '../../../src-main/core/api.js';
import { hashFile } from '../../../src-main/core/files/hash.js';
import { listTree } from '../../../src-main/core/packs/tree.js';
import { ROOT } from '../../support/fresh-build.js';
import { toolSkill } from '../../support/pack-sources.js';
import { tempDir, testHome, writeFiles, type TestHome } from '../../support/temp.js';

const BIN = join(ROOT, 'bin', 'skilltray.js');

/** A pack `kit` of two skills and `files` reference files each, its text marked with `version`. */
function kit(base: string, version: string, files: number): string {
  const dir = join(base, version, 'kit');
  const content: Record<string, string> = {};
  for (const skill of ['alpha', 'beta']) {
    content[`${skill}/SKILL.md`] = toolSkill(skill, `echo ${version} <<what>>`);
    for (let i = 0; i < files; i++) content[`${skill}/references/${i}.md`] = `# ${skill} ${i}\n\nVersion ${version}.\n`;
  }
  writeFiles(dir, content);
  return dir;
}

/** Every file of a tree by path with its sha256. */
function digests(dir: string): Record<string, string> {
  return Object.fromEntries(
    listTree(dir)
      .filter((e) => e.type === 'file')
      .map((e) => [e.rel, hashFile(e.abs)]),
  );
}

/** Runs `skilltray install SOURCE --yes --verbose`, SIGKILLed when it reports step `killAt` (1-based); returns whether it finished. */
async function installKilledAt(t: TestHome, source: string, killAt: number): Promise<{ finished: boolean; steps: string[] }> {
  const child = execa(process.execPath, [BIN, 'install', source, '--yes', '--verbose'], {
    env: t.env,
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    stdout: 'ignore',
    buffer: false,
  });
  const steps: string[] = [];
  const lines = createInterface({ input: child.stderr as NodeJS.ReadableStream });
  lines.on('line', (line) => {
    if (!line.startsWith('progress: ')) return;
    steps.push(line.slice('progress: '.length));
    if (steps.length === killAt) child.kill('SIGKILL');
  });
  const result = await child;
  return { finished: result.exitCode === 0, steps };
}

function stagingLeft(t: TestHome): string[] {
  const staging = join(t.home, 'packs', '.staging');
  return existsSync(staging) ? readdirSync(staging) : [];
}

describe('an install killed at any point', () => {
  it('leaves one whole version of the pack, never a mix and never none, and the lock matches it once recovered', { timeout: 180_000 }, async () => {
    const t = testHome();
    const base = tempDir();
    const sources = { a: kit(base, 'a', 60), b: kit(base, 'b', 60) };
    const versions = { a: digests(sources.a), b: digests(sources.b) };
    const installed = join(t.home, 'packs', 'kit');
    const which = (): 'a' | 'b' | null => {
      const now = digests(installed);
      return JSON.stringify(now) === JSON.stringify(versions.a) ? 'a' : JSON.stringify(now) === JSON.stringify(versions.b) ? 'b' : null;
    };

    // How many steps a whole install reports: the kill points to choose from.
    const full = await installKilledAt(t, sources.a, 0);
    expect(full.finished).toBe(true);
    const total = full.steps.length;
    expect(full.steps.slice(-6)).toEqual(['confirmed', 'journal', 'lock', 'aside', 'swap', 'done']);
    let current: 'a' | 'b' = 'a';

    await fc.assert(
      fc.asyncProperty(
        // Half the kills anywhere, half among the last steps, where the commit is.
        fc.oneof(fc.integer({ min: 1, max: total }), fc.integer({ min: total - 7, max: total })),
        async (killAt) => {
          const next = current === 'a' ? 'b' : 'a';
          const { finished } = await installKilledAt(t, sources[next], killAt);
          // Before anyone recovers: the pack is one version whole, or mid-swap with the decision journaled.
          if (existsSync(installed)) expect([current, next]).toContain(which());
          else expect(stagingLeft(t)).toContain('txn-kit.json');

          // The next process to open the home finishes or undoes what was left.
          const core = new SkilltrayCore(t.config());
          try {
            const now = which();
            expect(now === current || now === next).toBe(true);
            if (finished) expect(now).toBe(next);
            const [pack] = await (await core.packs()).list();
            expect(pack?.modified).toEqual([]);
            const lock = JSON.parse(readFileSync(join(t.home, 'packs.lock.json'), 'utf8'));
            expect(lock.packs.kit.files).toEqual(versions[now as 'a' | 'b']);
            expect(core.library.getSkill('alpha').diagnostics).toEqual([]);
            expect(stagingLeft(t)).toEqual([]);
            current = now as 'a' | 'b';
          } finally {
            await core.close();
          }
        },
      ),
      { numRuns: 14 },
    );
  });
});
