/**
 * discover() over the bundled packs: precision@1 and @3 on the labelled intents, precision@1 on the
 * held-out intents (never tuned on), and its time against a raw FTS5 query.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SkilltrayCore } from '../src-main/core/api.js';
import { resolveConfig } from '../src-main/core/config.js';
import { HELD_OUT_INTENTS } from './discovery-heldout.js';
import { LABELLED_INTENTS, type LabelledIntent } from './discovery-intents.js';
import { median, type Figure, type Metric } from './measure.js';

interface Precision {
  at1: number;
  at3: number;
  n: number;
  misses: string[];
}

function precision(core: SkilltrayCore, intents: readonly LabelledIntent[]): Precision {
  const out: Precision = { at1: 0, at3: 0, n: intents.length, misses: [] };
  for (const labelled of intents) {
    const ranked = core.agent.discover(labelled.intent, labelled.roleFilter ? { roleFilter: labelled.roleFilter } : {}).map((r) => r.skill_id);
    if (ranked[0] === labelled.skill) out.at1++;
    else out.misses.push(`"${labelled.intent}" → ${ranked.slice(0, 3).join(', ') || '(nothing)'} (want ${labelled.skill})`);
    if (ranked.slice(0, 3).includes(labelled.skill)) out.at3++;
  }
  return out;
}

const ratio = (hits: number, n: number): string => `${(hits / n).toFixed(3)} (${hits}/${n})`;

export async function discoverBench(dir: string, bundledDir: string): Promise<(Figure | Metric)[]> {
  const core = new SkilltrayCore(resolveConfig({ env: { HOME: dir, SKILLTRAY_HOME: join(dir, 'home'), PATH: process.env.PATH }, bundledDir }));
  try {
    const labelled = precision(core, LABELLED_INTENTS);
    // Held-out misses are counted, not listed: reading them is the first step to tuning on them.
    const heldOut = precision(core, HELD_OUT_INTENTS);
    const intent = 'which processes use the most cpu';
    const raw = new Database(':memory:');
    raw.exec("CREATE VIRTUAL TABLE t USING fts5(name, body, tokenize='porter unicode61')");
    const insert = raw.prepare('INSERT INTO t VALUES (?, ?)');
    for (const s of core.registry.list()) insert.run(s.name, `${s.description} ${s.tools.map((t) => t.description).join(' ')}`);
    const rawQuery = raw.prepare('SELECT name, bm25(t) FROM t WHERE t MATCH ? ORDER BY bm25(t) LIMIT 10');
    const baseline = await median(() => rawQuery.all('"processes" OR "cpu" OR "most" OR "use"'), 51, 5);
    const ms = await median(() => core.agent.discover(intent), 51, 5);
    raw.close();
    return [
      { name: `discover precision@1 (${labelled.n} labelled intents)`, text: ratio(labelled.at1, labelled.n) },
      { name: `discover precision@3 (${labelled.n} labelled intents)`, text: ratio(labelled.at3, labelled.n) },
      ...labelled.misses.map((m) => ({ name: '  miss@1', text: m })),
      { name: `discover precision@1 (${heldOut.n} held-out intents)`, text: ratio(heldOut.at1, heldOut.n) },
      { name: `discover precision@3 (${heldOut.n} held-out intents)`, text: ratio(heldOut.at3, heldOut.n) },
      { name: 'discover one intent (bundled packs)', ms, baseline: 'raw FTS5 bm25 query, same skills', baselineMs: baseline },
    ];
  } finally {
    await core.close();
  }
}
