/**
 * The two-link skill (`up -> ..`, `self -> .`) and a loop two levels deep in a root of 200 skills:
 * serve listens as it does without them, and a signal or a closed stdin ends serve and mcp even
 * while they start.
 */
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { peakResidentMb, figure } from '../../support/process-memory.js';
import { skillMd, testHome, writeSkill, type TestHome } from '../../support/temp.js';
import { BIN, NODE, serve, waitFor } from '../server/helpers.js';

/** `n` plain skills, and with `links` one skill holding up -> .. and self -> . and another a loop two levels down. */
function root(t: TestHome, n: number, links: boolean): void {
  for (let i = 0; i < n; i++) {
    writeSkill(
      t.skills,
      `skill-${i}`,
      skillMd({ name: `skill-${i}`, description: `Skill number ${i}. Use when testing.`, version: '1.0.0' }, `# Skill ${i}\n\n## Usage\n\nNothing.\n`),
      {
        'docs/guide.md': '# Guide\n',
      },
    );
  }
  const hostile = writeSkill(t.skills, 'two-links', skillMd({ name: 'two-links', description: 'Links up and to itself. Use when testing.', version: '1.0.0' }));
  const looped = writeSkill(t.skills, 'deep-loop', skillMd({ name: 'deep-loop', description: 'A loop two levels down. Use when testing.', version: '1.0.0' }));
  mkdirSync(join(looped, 'a', 'b'), { recursive: true });
  if (!links) return;
  symlinkSync('..', join(hostile, 'up'));
  symlinkSync('.', join(hostile, 'self'));
  symlinkSync('../..', join(looped, 'a', 'b', 'loop'));
}

/** Starts serve on `t` and says how long it took to listen and its peak memory by then. */
async function listening(t: TestHome): Promise<{ ms: number; peakMb: number; stop: () => Promise<void> }> {
  const started = performance.now();
  const serving = await serve(t);
  const ms = performance.now() - started;
  const peakMb = peakResidentMb(serving.child.pid as number);
  return {
    ms,
    peakMb,
    stop: async () => {
      serving.child.kill('SIGTERM');
      await serving.child;
    },
  };
}

describe('soak: the two-link watcher', () => {
  it('serve listens over a root with the two-link skill and a deep loop as it does without them', { timeout: 240_000 }, async () => {
    const clean = testHome();
    const hostile = testHome();
    root(clean, 200, false);
    root(hostile, 200, true);
    const without = await listening(clean);
    await without.stop();
    const withLinks = await listening(hostile);
    await withLinks.stop();
    figure(
      'two-link watcher, 200 skills',
      `listening after ${withLinks.ms.toFixed(0)} ms vs ${without.ms.toFixed(0)} ms without the links (${(withLinks.ms / without.ms).toFixed(2)}×); peak RSS ${withLinks.peakMb.toFixed(0)} MiB vs ${without.peakMb.toFixed(0)} MiB (${(withLinks.peakMb - without.peakMb).toFixed(1)} MiB)`,
    );
    expect(withLinks.peakMb - without.peakMb).toBeLessThan(10);
  });

  it('SIGTERM during start-up ends serve there, before it listens', { timeout: 120_000 }, async () => {
    const t = testHome();
    root(t, 800, true);
    const child = execa(NODE, [BIN, 'serve', '--port', '0'], { env: t.env, extendEnv: false, stdin: 'ignore', reject: false });
    // The home's own skills folder is made as the watcher starts its first scan of the roots.
    await waitFor(() => (existsSync(join(t.home, 'skills')) ? true : undefined), 60_000);
    const signalled = performance.now();
    child.kill('SIGTERM');
    const result = await child;
    figure('SIGTERM during start-up', `serve exited ${(performance.now() - signalled).toFixed(0)} ms after the signal`);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain('SIGTERM: stopping during start-up');
    expect(result.stdout).not.toContain('Skilltray API on');
  });

  it('a client that closes stdin while mcp starts ends it there, before it serves', { timeout: 120_000 }, async () => {
    const t = testHome();
    root(t, 800, true);
    const child = execa(NODE, [BIN, 'mcp'], { env: t.env, extendEnv: false, stdin: 'pipe', reject: false });
    await waitFor(() => (existsSync(join(t.home, 'skills')) ? true : undefined), 60_000);
    const closed = performance.now();
    child.stdin.end();
    const result = await child;
    figure('stdin closed during mcp start-up', `mcp exited ${(performance.now() - closed).toFixed(0)} ms after its client left`);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).not.toContain('on stdio');
  });
});
