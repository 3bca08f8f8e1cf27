/**
 * Searching at 1,000 and 10,000 skills: one skill in the app (the watcher vouches for its index),
 * one skill in a CLI process (stat fingerprint checked), and every skill through the catalog, each
 * against the same FTS5 query run raw on the same index.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SkilltrayCore } from '../src-main/core/api.js';
import { resolveConfig } from '../src-main/core/config.js';
import { locateIndex } from '../src-main/core/search/skill-index.js';
import { catalogPath } from '../src-main/core/search/catalog.js';
import { runtimeDir } from '../src-main/core/gateway/runtime-dir.js';
import type { BenchFixtures } from './fixtures.js';
import { paired, type Figure } from './measure.js';
import { cliEnv, pairedProcesses, RAW_BASELINES, SKILLTRAY_BIN, timedOk } from './processes.js';

const RAW_ONE =
  "SELECT file, section, snippet(sections, 2, '[MATCH]', '[/MATCH]', '...', 32) AS snippet, -bm25(sections) AS score FROM sections WHERE sections MATCH ? ORDER BY bm25(sections) LIMIT 10";
const count = (n: number) => n.toLocaleString('en-US');

export async function searchBench(dir: string, fixtures: BenchFixtures): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const n of fixtures.sizes) {
    const { root } = await fixtures.skills(n);
    const base = join(dir, `s${n}`);
    const env = cliEnv(base, root);
    const config = resolveConfig({ env, bundledDir: join(base, 'none') });

    // The CLI's own build, so the index and its fingerprint are what a user's `skilltray build` leaves.
    await timedOk([SKILLTRAY_BIN, 'build', 'skill-7'], env);
    const core = new SkilltrayCore(config, { autoBuild: true });
    try {
      await core.startWatching();
      // Timed once the first catalog sync is done: before, a search reads a catalog still filling (this row once timed "no results").
      await core.library.catalogCurrent();
      const indexPath = locateIndex(core.library.getSkill('skill-7').dir, runtimeDir(config.home, 'skill-7')).path;
      const index = new Database(indexPath, { readonly: true });
      const raw = index.prepare(RAW_ONE);
      const match = '{section content} : ("configure" "retry")';
      if (core.gateway.search('skill-7', 'configure retry', {}, base).results.length === 0) throw new Error('the app found nothing to time in skill-7');
      if (raw.all(match).length === 0) throw new Error('the raw query found nothing to time in skill-7');
      const app = await paired(
        () => core.gateway.search('skill-7', 'configure retry', {}, base),
        () => raw.all(match),
        51,
        5,
      );
      figures.push({
        name: `search one skill in the app, ${count(n)} skills`,
        ...app,
        baseline: 'raw FTS5 query on its index',
        goal: 2,
        note: 'freshness vouched for by the watcher',
      });
      index.close();

      const cli = await pairedProcesses(
        () => timedOk([SKILLTRAY_BIN, 'search', 'skill-7', 'configure retry'], env),
        () => timedOk([RAW_BASELINES, 'query', indexPath, match], env),
        7,
      );
      figures.push({
        name: `search one skill from the CLI, ${count(n)} skills`,
        ...cli,
        baseline: 'node + raw FTS5 query (a process)',
        goal: 1.5,
        note: 'stat fingerprint checked',
      });

      core.gateway.searchAll('warm');
      const catalog = new Database(catalogPath(config.home), { readonly: true });
      const table = (
        catalog.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%fts5%' ORDER BY name LIMIT 1").get() as { name: string }
      ).name;
      const rawAll = catalog.prepare(`SELECT rowid, bm25(${table}) FROM ${table} WHERE ${table} MATCH ? ORDER BY bm25(${table}) LIMIT 10`);
      // Words every skill's first section holds, so both sides rank rows that hold both ("deploy review" held by no row
      // once timed an empty raw query against the app's fallback to rows holding either).
      const bothWords = '"configure" "retry"';
      if (core.gateway.searchAll('configure retry').results.length === 0 || rawAll.all(bothWords).length === 0) throw new Error('nothing to time in --all');
      if (core.gateway.searchAll('configure ret', { prefix: true }).results.length === 0) throw new Error('nothing to time as typed');
      const all = await paired(
        () => core.gateway.searchAll('configure retry'),
        () => rawAll.all(bothWords),
        51,
        5,
      );
      figures.push({ name: `search --all over ${count(n)} skills`, ...all, baseline: `raw FTS5 query on the catalog (${table})` });
      const typing = await paired(
        () => core.gateway.searchAll('configure ret', { prefix: true }),
        () => rawAll.all(bothWords),
        51,
        5,
      );
      figures.push({ name: `search-as-you-type (prefix) over ${count(n)} skills`, ...typing, baseline: `raw FTS5 query on the catalog (${table})` });
      catalog.close();
    } finally {
      await core.close();
    }
  }
  return figures;
}
