/**
 * Soak: the disk under Skilltray's home fails. A read-only home and a full disk (each a small tmpfs,
 * mounted as root; skipped with the reason otherwise) keep every read command working and give
 * write commands their own codes (E904, E905), and no cache deletes itself; twenty concurrent
 * builds of one skill make one index; two owners starting at once end as one owner and E809.
 * Each prints what it measured.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { cliProcess } from '../../support/cli.js';
import { skillMd, tempDir, testHome, writeSkill, type TestHome } from '../../support/temp.js';

const BIN = join(import.meta.dirname, '..', '..', '..', 'bin', 'skilltray.js');
const asRoot = process.getuid?.() === 0;
const mounted: string[] = [];

afterEach(async () => {
  for (const dir of mounted.splice(0)) await execa('umount', [dir], { reject: false });
});

/** A home on a tmpfs of `size` of its own (mounted as root), with a skill root beside it. */
async function homeOnTmpfs(size: string): Promise<{ t: TestHome; mount: string }> {
  const base = tempDir();
  const mount = join(base, 'mnt');
  mkdirSync(mount);
  await execa('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', mount]);
  mounted.push(mount);
  const t = testHome({ base });
  const env = { ...t.env, SKILLTRAY_HOME: join(mount, 'home') };
  return { t: { ...t, home: env.SKILLTRAY_HOME as string, env }, mount };
}

/** Skills to read, a built index and a catalog, as a home has them after some use. */
async function used(t: TestHome): Promise<void> {
  for (let i = 0; i < 20; i++)
    writeSkill(
      t.skills,
      `skill-${i}`,
      skillMd({ name: `skill-${i}`, description: `Deploy helper ${i}.` }, `# Skill ${i}\n\n## Deploy\n\nHow to deploy ${i}.\n`),
    );
  for (const argv of [['list'], ['build', 'skill-1'], ['search', 'deploy'], ['mode', 'Dev']]) expect((await cliProcess(argv, t.env, t.userHome)).code).toBe(0);
}

/** Files under the home (a cache deleting itself would show here). */
function homeFiles(home: string): string[] {
  return readdirSync(home, { recursive: true, encoding: 'utf8' })
    .filter((f) => !f.endsWith('-shm') && !f.endsWith('-wal'))
    .sort();
}

describe.skipIf(!asRoot)('soak: a failing disk under the home (a tmpfs; needs root to mount)', () => {
  it('a read-only home: read commands work, write commands say E904, nothing is deleted', async () => {
    const { t, mount } = await homeOnTmpfs('32m');
    await used(t);
    const before = homeFiles(t.home);
    await execa('mount', ['-o', 'remount,ro', mount]);
    const reads = [
      ['list', '--json'],
      ['history'],
      ['search', 'deploy'],
      ['search', 'skill-1', 'deploy'],
      ['describe', 'skill-3'],
      ['check', 'skill-2'],
      ['roots'],
    ];
    for (const argv of reads) {
      const result = await cliProcess(argv, t.env, t.userHome);
      expect(result.code, `${argv.join(' ')}: ${result.stderr}`).toBe(0);
    }
    const writes = [['mode', 'Meeting'], ['build', 'skill-2'], ['pause'], ['rules', 'add', 'deny', 'skill:x']];
    const codes: string[] = [];
    for (const argv of writes) {
      const result = await cliProcess(argv, t.env, t.userHome);
      expect(result.code, argv.join(' ')).toBe(1);
      expect(result.stderr, argv.join(' ')).toMatch(/^error\[E904\]: Skilltray's home is read-only: cannot write \S+ \(\w+\); reading works, saving does not/);
      codes.push(`${argv[0]} E904`);
    }
    expect(homeFiles(t.home)).toEqual(before);
    console.log(
      `[soak] read-only home: ${reads.length} read commands exit 0 (${reads.map((a) => a[0]).join(', ')}); ${codes.join(', ')}; no file of the home deleted`,
    );
  }, 120_000);

  it('a full disk: read commands work, write commands say E905 naming where, nothing is deleted', async () => {
    const { t, mount } = await homeOnTmpfs('8m');
    await used(t);
    const before = homeFiles(t.home);
    // Fill what is left: dd stops at ENOSPC.
    await execa('dd', ['if=/dev/zero', `of=${join(mount, 'filler')}`, 'bs=64k'], { reject: false });
    const reads = [['list', '--json'], ['history'], ['search', 'deploy'], ['search', 'skill-1', 'deploy'], ['describe', 'skill-3']];
    for (const argv of reads) {
      const result = await cliProcess(argv, t.env, t.userHome);
      expect(result.code, `${argv.join(' ')}: ${result.stderr}`).toBe(0);
    }
    const writes = [
      ['build', 'skill-2'],
      ['mode', 'Meeting'],
    ];
    for (const argv of writes) {
      const result = await cliProcess(argv, t.env, t.userHome);
      expect(result.code, argv.join(' ')).toBe(1);
      expect(result.stderr, argv.join(' ')).toMatch(/^error\[E905\]: no space left on device at \S+: free some space and try again/);
    }
    expect(before.filter((f) => !homeFiles(t.home).includes(f))).toEqual([]);
    console.log(`[soak] full disk: ${reads.length} read commands exit 0; build and mode E905 "no space left on device at …"; no file of the home deleted`);
  }, 120_000);
});

describe('soak: concurrency', () => {
  it('twenty concurrent builds of one skill make one index; the others wait and use it', async () => {
    const t = testHome();
    const files: Record<string, string> = {};
    for (let i = 0; i < 400; i++) files[`references/part-${i}.md`] = `# Part ${i}\n\n${'Words about deploying and rolling back. '.repeat(120)}\n`;
    writeSkill(t.skills, 'big', skillMd({ name: 'big', description: 'A big skill.' }, '# Big\n'), files);
    const once = performance.now();
    expect((await cliProcess(['build', 'big'], { ...t.env, SKILLTRAY_HOME: join(tempDir(), 'home') })).stdout).toMatch(/^big: created/);
    const oneMs = performance.now() - once;
    const started = performance.now();
    const results = await Promise.all(Array.from({ length: 20 }, () => cliProcess(['build', 'big', '--json'], t.env)));
    const allMs = performance.now() - started;
    const statuses = results.map((r) => (JSON.parse(r.stdout) as { status: string }).status);
    expect(statuses.filter((s) => s === 'created')).toHaveLength(1);
    expect(statuses.filter((s) => s === 'up-to-date')).toHaveLength(19);
    const meta = join(t.home, 'runtime', 'big', '.skillc-meta');
    expect(readdirSync(meta).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    // What twenty processes cost with nothing to build: the floor the shared build sits on.
    const floorStarted = performance.now();
    await Promise.all(Array.from({ length: 20 }, () => cliProcess(['build', 'big', '--json'], t.env)));
    const floorMs = performance.now() - floorStarted;
    console.log(
      `[soak] 20 concurrent builds of one skill (400 files): 1 created, 19 up-to-date in ${allMs.toFixed(0)} ms; 20 processes finding it up to date take ${floorMs.toFixed(0)} ms, ` +
        `one build alone ${oneMs.toFixed(0)} ms: the 20 cost ${((allMs - floorMs) / oneMs).toFixed(1)} builds beyond their start-up`,
    );
  }, 180_000);

  it('two owners starting at once on one home: one owns runs, the other says E809, never "database is locked"', async () => {
    const rounds = 6;
    let owners = 0;
    for (let round = 0; round < rounds; round++) {
      const t = testHome();
      // Each runs until both have either listened or exited, so the two starts overlap however fast each is.
      const children = [0, 1].map(() => spawn(process.execPath, [BIN, 'serve', '--port', '0'], { env: t.env, stdio: ['ignore', 'pipe', 'pipe'] }));
      const settled = children.map(
        (child) =>
          new Promise<{ out: string }>((resolve) => {
            let out = '';
            child.stdout.on('data', (chunk: Buffer) => {
              out += chunk.toString();
              if (out.includes('Skilltray API on')) resolve({ out });
            });
            child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
            child.once('exit', () => resolve({ out }));
          }),
      );
      const [a, b] = await Promise.all(settled);
      await Promise.all(
        children.map((child) =>
          child.exitCode !== null || child.signalCode !== null
            ? undefined
            : new Promise((resolve) => {
                child.once('exit', resolve);
                child.kill('SIGTERM');
              }),
        ),
      );
      const outs = [a, b].map((r) => r?.out ?? '');
      const listened = outs.filter((out) => out.includes('Skilltray API on'));
      const refused = outs.filter((out) => out.includes('error[E809]'));
      expect(outs.join('\n')).not.toMatch(/E999|database is locked/);
      expect(listened.length + refused.length, outs.join('\n---\n')).toBe(2);
      owners += listened.length === 1 && refused.length === 1 ? 1 : 0;
      expect(existsSync(join(t.home, 'state.db'))).toBe(true);
      writeFileSync(join(t.home, 'round'), String(round));
    }
    expect(owners).toBe(rounds);
    console.log(`[soak] two owners starting at once, ${rounds} rounds: one owner and E809 in each; no "database is locked"`);
  }, 120_000);
});
