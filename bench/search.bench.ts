/** Searching one skill and all 1,000 skills, against the same FTS5 query run raw on the same index. */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SkilltrayCore } from '../src-main/core/api.js';
import { resolveConfig } from '../src-main/core/config.js';
import { locateIndex } from '../src-main/core/search/index.js';
import { catalogPath } from '../src-main/core/search/catalog.js';
import { runtimeDir } from '../src-main/core/gateway/runtime-dir.js';
import { writeCorpus } from './corpus.js';
import { median, type Figure } from './measure.js';

export async function searchBench(dir: string): Promise<Figure[]> {
  const skills = join(dir, 'skills');
  writeCorpus(skills, 1000);
  const core = new SkilltrayCore(resolveConfig({ env: { HOME: dir, SKILLTRAY_HOME: join(dir, 'home'), SKILLTRAY_SKILLS_PATH: skills, PATH: process.env.PATH }, bundledDir: join(dir, 'none') }), { autoBuild: true });
  try {
    const one = core.getSkill('skill-7');
    core.build(one.dir, dir);
    const index = new Database(locateIndex(one.dir, runtimeDir(core.config.home, one.name)).path, { readonly: true });
    const raw = index.prepare("SELECT file, section, snippet(sections, 2, '[MATCH]', '[/MATCH]', '...', 32) AS snippet, -bm25(sections) AS score FROM sections WHERE sections MATCH ? ORDER BY bm25(sections) LIMIT 10");
    const rawOne = await median(() => raw.all('"configure" "retry"'), 51, 5);
    const skillSearch = await median(() => core.search('skill-7', 'configure retry', {}, dir), 51, 5);
    index.close();

    core.searchAll('warm');
    const catalog = new Database(catalogPath(core.config.home), { readonly: true });
    const table = (catalog.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%fts5%' ORDER BY name LIMIT 1").get() as { name: string }).name;
    const rawAll = catalog.prepare(`SELECT rowid, bm25(${table}) FROM ${table} WHERE ${table} MATCH ? ORDER BY bm25(${table}) LIMIT 10`);
    const rawCatalog = await median(() => rawAll.all('"deploy" "review"'), 51, 5);
    const all = await median(() => core.searchAll('deploy review'), 51, 5);
    const typing = await median(() => core.searchAll('deploy rev', { prefix: true }), 51, 5);
    catalog.close();
    return [
      { name: 'search one skill (checks index freshness)', ms: skillSearch, baseline: 'raw FTS5 query on its index', baselineMs: rawOne },
      { name: 'search --all over 1,000 skills', ms: all, baseline: `raw FTS5 query on the catalog (${table})`, baselineMs: rawCatalog },
      { name: 'search-as-you-type (prefix) over 1,000 skills', ms: typing, baseline: `raw FTS5 query on the catalog (${table})`, baselineMs: rawCatalog },
    ];
  } finally {
    await core.close();
  }
}
