/** discover() over the bundled packs: precision@1 and @3 on the labelled intents, and its time against a raw FTS5 query. */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SkilltrayCore } from '../src-main/core/api.js';
import { resolveConfig } from '../src-main/core/config.js';
import { LABELLED_INTENTS } from './discovery-intents.js';
import { median, type Figure, type Metric } from './measure.js';

export async function discoverBench(dir: string, bundledDir: string): Promise<(Figure | Metric)[]> {
  const core = new SkilltrayCore(resolveConfig({ env: { HOME: dir, SKILLTRAY_HOME: join(dir, 'home'), PATH: process.env.PATH }, bundledDir }));
  try {
    let at1 = 0;
    let at3 = 0;
    const misses: string[] = [];
    for (const labelled of LABELLED_INTENTS) {
      const ranked = core.discover(labelled.intent, labelled.roleFilter ? { roleFilter: labelled.roleFilter } : {}).map((r) => r.skill_id);
      if (ranked[0] === labelled.skill) at1++;
      else misses.push(`"${labelled.intent}" → ${ranked.slice(0, 3).join(', ') || '(nothing)'} (want ${labelled.skill})`);
      if (ranked.slice(0, 3).includes(labelled.skill)) at3++;
    }
    const n = LABELLED_INTENTS.length;
    const intent = 'which processes use the most cpu';
    const raw = new Database(':memory:');
    raw.exec("CREATE VIRTUAL TABLE t USING fts5(name, body, tokenize='porter unicode61')");
    const insert = raw.prepare('INSERT INTO t VALUES (?, ?)');
    for (const s of core.registry.list()) insert.run(s.name, `${s.description} ${s.tools.map((t) => t.description).join(' ')}`);
    const rawQuery = raw.prepare('SELECT name, bm25(t) FROM t WHERE t MATCH ? ORDER BY bm25(t) LIMIT 10');
    const baseline = await median(() => rawQuery.all('"processes" OR "cpu" OR "most" OR "use"'), 51, 5);
    const ms = await median(() => core.discover(intent), 51, 5);
    raw.close();
    return [
      { name: `discover precision@1 (${n} labelled intents)`, text: `${(at1 / n).toFixed(3)} (${at1}/${n})` },
      { name: `discover precision@3 (${n} labelled intents)`, text: `${(at3 / n).toFixed(3)} (${at3}/${n})` },
      ...misses.map((m) => ({ name: '  miss@1', text: m })),
      { name: 'discover one intent (bundled packs)', ms, baseline: 'raw FTS5 bm25 query, same skills', baselineMs: baseline },
    ];
  } finally {
    await core.close();
  }
}
