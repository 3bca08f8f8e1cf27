/**
 * Git bombs: a small repository whose tree checks out to 100,000 paths (one blob, trees repeated
 * ten-fold five times), or nests past the depth limit, is refused from its tree listing — nothing
 * is checked out, nothing is extracted — and the test prints how long it took and how much was written.
 */
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import type { PackProgress } from '../../../src-main/core/packs/service.js';
import { git, toolSkill } from '../../support/pack-sources.js';
import { tempDir, testHome } from '../../support/temp.js';
import { rejectionOf } from '../../support/errors.js';
import { coresClosedAfterEach } from '../../support/cores.js';

const open = coresClosedAfterEach();

/** Bytes this process and the children it has reaped wrote, by write(2) and the like (/proc/self/io `wchar`): an upper bound on what reached the disk. */
function bytesWritten(): number {
  return Number(/^wchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))?.[1] ?? Number.NaN);
}

/** Bytes under `dir` (files only). */
function sizeOf(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  return total;
}

/** A repository at `dir` whose one commit holds SKILL.md and `payload`, a tree `levels` deep with `fanout` entries per tree (fanout^levels files). */
async function treeBomb(dir: string, base: string, fanout: number, levels: number): Promise<void> {
  mkdirSync(dir);
  await git(dir, base, 'init', '-q', '-b', 'main');
  const run = async (args: string[], input: string): Promise<string> => (await execa('git', args, { cwd: dir, input })).stdout.trim();
  let object = await run(['hash-object', '-w', '--stdin'], 'boom\n');
  let mode = '100644 blob';
  for (let level = 0; level < levels; level++) {
    object = await run(['mktree'], Array.from({ length: fanout }, (_, i) => `${mode} ${object}\t${level === 0 ? 'f' : 'd'}${i}\n`).join(''));
    mode = '040000 tree';
  }
  const skill = await run(['hash-object', '-w', '--stdin'], toolSkill('bomb', 'echo <<what>>'));
  const top = await run(['mktree'], `100644 blob ${skill}\tSKILL.md\n040000 tree ${object}\tpayload\n`);
  const commit = await run(['-c', 'user.email=a@example.com', '-c', 'user.name=A', 'commit-tree', top, '-m', 'bomb'], '');
  await git(dir, base, 'update-ref', 'refs/heads/main', commit);
}

describe('git bombs are counted before anything is checked out', () => {
  it('a 100,000-path tree is refused (S309) from its listing: no file extracted, under 50 MB written', async () => {
    const base = tempDir();
    const t = testHome({ base });
    const repo = join(base, 'bomb');
    await treeBomb(repo, base, 10, 5);
    const repoBytes = sizeOf(join(repo, '.git'));
    const core = open(t);
    const steps: PackProgress[] = [];
    let staged = 0;
    const before = bytesWritten();
    const started = performance.now();
    const report = await (
      await core.packs()
    ).preview({ source: `file://${repo}` }, t.home, (p) => {
      steps.push(p);
      // The moment the scan begins, the fetch is over: what staging holds now is what it cost on disk.
      if (p.step === 'scan') staged = sizeOf(join(t.home, 'packs', '.staging'));
    });
    const seconds = (performance.now() - started) / 1000;
    const written = bytesWritten() - before;
    console.log(
      `git bomb (100,000 paths, repository ${(repoBytes / 1024).toFixed(0)} KiB): refused in ${seconds.toFixed(2)} s; ` +
        `${(written / 1024 / 1024).toFixed(2)} MiB written by this process and git (wchar), ${(staged / 1024).toFixed(0)} KiB in staging at refusal`,
    );
    expect(report.extracted).toBe(false);
    expect(report.findings).toEqual([expect.objectContaining({ code: 'S309', message: expect.stringContaining('more than 10,000 files') })]);
    expect(steps.filter((s) => s.step === 'file')).toEqual([]);
    expect(written).toBeLessThan(50 * 1024 * 1024);
    expect((await rejectionOf((await core.packs()).install({ source: `file://${repo}` }, t.home, { confirm: 'yes', force: true }))).code).toBe('E303');
    expect(readdirSync(join(t.home, 'packs')).filter((n) => n !== '.staging')).toEqual([]);
  });

  it('a tree nested past 32 folders is refused (S309) from its listing too', async () => {
    const base = tempDir();
    const t = testHome({ base });
    const repo = join(base, 'deep');
    await treeBomb(repo, base, 1, 40);
    const core = open(t);
    const report = await (await core.packs()).preview({ source: repo }, t.home);
    expect(report.extracted).toBe(false);
    expect(report.findings).toEqual([expect.objectContaining({ code: 'S309', message: expect.stringContaining('folders deep') })]);
  });
});
