/**
 * discover(): precision@1 and @3 on the labelled intents over the bundled packs (and their held-out
 * twin, never tuned on), the same on the development corpus of real skills when it is on this
 * machine, and its time (a first call that builds the index, then a warm one) against raw FTS5 over
 * the same skills, on the development corpus and on the largest generated corpus, and a pasted page's.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { DiscoverOptions } from '../src-main/core/agent/discover.js';
import { Discovery } from '../src-main/core/agent/discover.js';
import { SkilltrayCore } from '../src-main/core/api.js';
import { resolveConfig } from '../src-main/core/config.js';
import type { Skill } from '../src-main/shared/model.js';
import { HELD_OUT_INTENTS } from './discovery-heldout.js';
import { LABELLED_INTENTS } from './discovery-intents.js';
import type { BenchFixtures } from './fixtures.js';
import { median, paired, type Figure, type Metric } from './measure.js';
import { devCorpusRoots, devCorpusSource } from './real-dev-corpus.js';
import { DEV_HELD_OUT, DEV_INTENTS } from './real-dev-intents.js';

/** An intent and the skills that answer it (the first is the label, the rest fit as well). */
interface Labelled {
  intent: string;
  skills: string[];
  options: DiscoverOptions;
}

interface Precision {
  at1: number;
  at3: number;
  n: number;
  misses: string[];
}

function precision(discover: (intent: string, options: DiscoverOptions) => string[], intents: readonly Labelled[]): Precision {
  const out: Precision = { at1: 0, at3: 0, n: intents.length, misses: [] };
  for (const { intent, skills, options } of intents) {
    const ranked = discover(intent, options);
    if (skills.includes(ranked[0] as string)) out.at1++;
    else out.misses.push(`"${intent}" → ${ranked.slice(0, 3).join(', ') || '(nothing)'} (want ${skills.join(' or ')})`);
    if (ranked.slice(0, 3).some((id) => skills.includes(id))) out.at3++;
  }
  return out;
}

const ratio = (hits: number, n: number): string => `${(hits / n).toFixed(3)} (${hits}/${n})`;

/** Precision rows; a held-out set's misses are counted, not listed: reading them is the first step to tuning on them. */
function rows(label: string, p: Precision, listMisses: boolean): Metric[] {
  return [
    { name: `discover precision@1 (${p.n} ${label})`, text: ratio(p.at1, p.n) },
    { name: `discover precision@3 (${p.n} ${label})`, text: ratio(p.at3, p.n) },
    ...(listMisses ? p.misses.map((m) => ({ name: '  miss@1', text: m })) : []),
  ];
}

function coreFor(dir: string, bundledDir: string, roots: readonly string[] = []): SkilltrayCore {
  const env = { HOME: dir, SKILLTRAY_HOME: join(dir, 'home'), PATH: process.env.PATH, SKILLTRAY_SKILLS_PATH: roots.join(':') };
  return new SkilltrayCore(resolveConfig({ env, bundledDir }));
}

const INTENT = 'which processes use the most cpu';

/** An intent's distinct words, each quoted for an FTS5 query. */
function quotedWords(intent: string): string[] {
  return [...new Set(intent.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].map((w) => `"${w}"`);
}

/** The most an intent pasted as a page holds here: about two screens of a guide. */
const PAGE_CHARS = 8000;

/**
 * Warm discovers of pasted pages (the first PAGE_CHARS of each skill body that long, a different one
 * each call, as a person pastes a document and asks what fits it) against a raw FTS5 query OR-ing
 * the same page's distinct words.
 */
async function pageTiming(label: string, skills: readonly Skill[]): Promise<Figure[]> {
  const pages = skills.filter((s) => s.body.length >= PAGE_CHARS).map((s) => s.body.slice(0, PAGE_CHARS));
  if (pages.length === 0) return [];
  const raw = new Database(':memory:');
  raw.exec("CREATE VIRTUAL TABLE t USING fts5(name, description, body, tokenize='porter unicode61')");
  const insert = raw.prepare('INSERT INTO t VALUES (?, ?, ?)');
  raw.transaction(() => {
    for (const s of skills) insert.run(s.name, s.description, s.body);
  })();
  const query = raw.prepare('SELECT name, bm25(t) FROM t WHERE t MATCH ? ORDER BY bm25(t) LIMIT 10');
  const discovery = new Discovery();
  let ours = 0;
  let theirs = 0;
  try {
    const figure = await paired(
      () => discovery.discover(pages[ours++ % pages.length] as string, skills, 'Global'),
      () => query.all(quotedWords(pages[theirs++ % pages.length] as string).join(' OR ')),
      21,
      2,
    );
    return [
      {
        name: `discover, pasted pages of ${PAGE_CHARS} chars (${pages.length}), warm (${label})`,
        ...figure,
        baseline: "raw FTS5 bm25 query OR-ing the page's words",
      },
    ];
  } finally {
    discovery.close();
    raw.close();
  }
}

/**
 * A first discover (the index built) and a warm one over `skills`, each against raw FTS5 over the same
 * text: a porter table filled with every skill's name, description and body and queried once, then
 * the query alone.
 */
async function timing(label: string, skills: readonly Skill[], intent: string): Promise<Figure[]> {
  const words = intent.split(' ').map((w) => `"${w}"`);
  const rawBuild = (): Database.Database => {
    const raw = new Database(':memory:');
    raw.exec("CREATE VIRTUAL TABLE t USING fts5(name, description, body, tokenize='porter unicode61')");
    const insert = raw.prepare('INSERT INTO t VALUES (?, ?, ?)');
    raw.transaction(() => {
      for (const s of skills) insert.run(s.name, s.description, s.body);
    })();
    return raw;
  };
  const query = (raw: Database.Database): unknown =>
    raw.prepare('SELECT name, bm25(t) FROM t WHERE t MATCH ? ORDER BY bm25(t) LIMIT 10').all(words.join(' OR '));
  const cold = await paired(
    () => {
      const discovery = new Discovery();
      discovery.discover(intent, skills, 'Global');
      discovery.close();
    },
    () => {
      const raw = rawBuild();
      query(raw);
      raw.close();
    },
    3,
    1,
  );
  const discovery = new Discovery();
  const raw = rawBuild();
  try {
    const warm = await paired(
      () => discovery.discover(intent, skills, 'Global'),
      () => query(raw),
      51,
      5,
    );
    return [
      { name: `discover, first call (${label})`, ...cold, baseline: 'raw FTS5 table filled + one query' },
      { name: `discover, warm (${label})`, ...warm, baseline: 'raw FTS5 bm25 query, same skills' },
    ];
  } finally {
    discovery.close();
    raw.close();
  }
}

async function bundledRows(dir: string, bundledDir: string): Promise<(Figure | Metric)[]> {
  const core = coreFor(join(dir, 'bundled'), bundledDir);
  try {
    const discover = (intent: string, options: DiscoverOptions): string[] => core.agent.discover(intent, options).results.map((r) => r.skill_id);
    const labelled = (list: typeof LABELLED_INTENTS): Labelled[] =>
      list.map((l) => ({ intent: l.intent, skills: [l.skill], options: l.roleFilter ? { roleFilter: l.roleFilter } : {} }));
    const ms = await median(() => core.agent.discover(INTENT), 51, 5);
    const raw = new Database(':memory:');
    raw.exec("CREATE VIRTUAL TABLE t USING fts5(name, body, tokenize='porter unicode61')");
    const insert = raw.prepare('INSERT INTO t VALUES (?, ?)');
    for (const s of core.registry.list()) insert.run(s.name, `${s.description} ${s.tools.map((t) => t.description).join(' ')}`);
    const rawQuery = raw.prepare('SELECT name, bm25(t) FROM t WHERE t MATCH ? ORDER BY bm25(t) LIMIT 10');
    const baseline = await median(() => rawQuery.all('"processes" OR "cpu" OR "most" OR "use"'), 51, 5);
    raw.close();
    return [
      ...rows('labelled intents, bundled packs', precision(discover, labelled(LABELLED_INTENTS)), true),
      ...rows('held-out intents, bundled packs', precision(discover, labelled(HELD_OUT_INTENTS)), false),
      { name: 'discover one intent (bundled packs)', ms, baseline: 'raw FTS5 bm25 query, same skills', baselineMs: baseline },
    ];
  } finally {
    await core.close();
  }
}

async function devCorpusRows(dir: string, bundledDir: string): Promise<(Figure | Metric)[]> {
  const source = devCorpusSource();
  if ('missing' in source) return [{ name: 'discover on the development corpus', text: `skipped: ${source.missing}` }];
  const roots = await devCorpusRoots(source.path, join(dir, 'real-dev'));
  const core = coreFor(join(dir, 'dev'), bundledDir, roots);
  try {
    const skills = core.registry.list();
    const discover = (intent: string, options: DiscoverOptions): string[] => core.agent.discover(intent, options).results.map((r) => r.skill_id);
    const labelled = (list: typeof DEV_INTENTS): Labelled[] => list.map((l) => ({ intent: l.intent, skills: [l.skill, ...(l.also ?? [])], options: {} }));
    return [
      ...rows(`labelled intents, development corpus of ${skills.length} skills`, precision(discover, labelled(DEV_INTENTS)), true),
      ...rows('held-out intents, development corpus', precision(discover, labelled(DEV_HELD_OUT)), false),
      ...(await timing(`development corpus, ${skills.length} skills`, skills, (DEV_INTENTS[0] as { intent: string }).intent)),
      ...(await pageTiming(`development corpus, ${skills.length} skills`, skills)),
    ];
  } finally {
    await core.close();
  }
}

async function scaleRows(dir: string, bundledDir: string, fixtures: BenchFixtures): Promise<Figure[]> {
  const n = Math.max(...fixtures.sizes);
  const { root } = await fixtures.skills(n);
  const core = coreFor(join(dir, `scale-${n}`), bundledDir, [root]);
  try {
    return await timing(`${n} generated skills`, core.registry.list(), 'schedule a backup and monitor the release');
  } finally {
    await core.close();
  }
}

export async function discoverBench(dir: string, bundledDir: string, fixtures: BenchFixtures): Promise<(Figure | Metric)[]> {
  return [...(await bundledRows(dir, bundledDir)), ...(await devCorpusRows(dir, bundledDir)), ...(await scaleRows(dir, bundledDir, fixtures))];
}
