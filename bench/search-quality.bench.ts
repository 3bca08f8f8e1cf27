/** The search quality table (search-quality.ts) through the core: hits@1 of twenty queries people type, each miss listed. */
import { join } from 'node:path';
import { SkilltrayCore } from '../src-main/core/api.js';
import { resolveConfig } from '../src-main/core/config.js';
import type { Metric } from './measure.js';
import { hitsAt1, hitsLine } from './search-quality.js';

export async function searchQualityBench(dir: string, bundledDir: string): Promise<Metric[]> {
  const core = new SkilltrayCore(resolveConfig({ env: { HOME: dir, SKILLTRAY_HOME: join(dir, 'home'), PATH: process.env.PATH }, bundledDir }));
  try {
    const result = await hitsAt1(async (query) => core.gateway.searchAll(query).results[0]);
    return [{ name: 'search quality (20 queries, every skill)', text: hitsLine('core', result) }, ...result.misses.map((m) => ({ name: '  miss@1', text: m }))];
  } finally {
    await core.close();
  }
}
