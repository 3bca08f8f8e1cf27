/**
 * `skilltray serve` at 1,000 and 10,000 skills: how long until it listens, the first time (every
 * skill parsed, the catalog built) and the next (parse cache and catalog reused), and its resident
 * memory once idle.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BenchFixtures } from './fixtures.js';
import type { Metric } from './measure.js';
import { cliEnv, residentMb, startServe, stopServe } from './processes.js';

/** How long serve is left alone before its memory is read. */
const IDLE_MS = 3000;

export async function serveBench(dir: string, fixtures: BenchFixtures): Promise<Metric[]> {
  const metrics: Metric[] = [];
  for (const n of fixtures.sizes) {
    const { root } = await fixtures.skills(n);
    const env = cliEnv(join(dir, `serve-${n}`), root);
    const cold = await startServe(env, { timeoutMs: 600_000 });
    await stopServe(cold.child);
    const warm = await startServe(env, { timeoutMs: 600_000 });
    try {
      await sleep(IDLE_MS);
      const rss = residentMb(warm.child.pid as number);
      metrics.push({
        name: `serve at idle, ${n.toLocaleString('en-US')} skills`,
        text: `${rss === null ? 'RSS n/a (no /proc)' : `RSS ${rss.toFixed(0)} MiB`}; listening after ${(cold.startMs / 1000).toFixed(1)} s the first time, ${(warm.startMs / 1000).toFixed(1)} s the next`,
      });
    } finally {
      await stopServe(warm.child);
    }
  }
  return metrics;
}
