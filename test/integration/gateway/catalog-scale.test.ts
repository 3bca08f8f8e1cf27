import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { catalogPath, SkillCatalog, type CatalogSkill } from '../../../src-main/core/search/catalog.js';
import { catalogMarkExpression, catalogMarkSql, catalogMatch, catalogSearchParams, catalogSearchSql } from '../../../src-main/core/search/catalog-sql.js';
import { manifestHash, walkSkill } from '../../../src-main/core/skills/walk.js';
import { makeSkill, tempDir } from '../../fixtures/gateway/skill-fixture.js';

const SKILLS = 1000;
const WORDS = (
  'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango ' +
  'uniform victor whiskey xray yankee zulu configure authentication token request response cache deploy build merge rebase ' +
  'commit branch install upgrade render template parameter approve deny timeout output stream buffer parse format convert'
).split(' ');

/** Deterministic pseudo-random words (a linear congruential generator), so runs are comparable. */
function words(seed: number, count: number): string {
  let state = seed;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    out.push(WORDS[state % WORDS.length] as string);
  }
  return out.join(' ');
}

function skillFiles(n: number): Record<string, string> {
  const sections = Array.from({ length: 8 }, (_, s) => `## Part ${s} of skill ${n}\n\n${words(n * 100 + s, 80)}\n`).join('\n');
  return {
    'SKILL.md': `---\nname: skill-${n}\ndescription: ${words(n, 12)}\n---\n# Skill ${n}\n\n${words(n + 7, 40)}\n\n${sections}`,
    'references/notes.md': `# Notes ${n}\n\n${words(n + 13, 120)}\n`,
  };
}

// How fast sync and search-as-you-type are is measured by `npm run bench` (bench/catalog.bench.ts, bench/search.bench.ts).
describe('catalog at 1,000 skills', () => {
  it('syncs incrementally (only the changed skill) and answers every keystroke of a typed query', { timeout: 120_000 }, () => {
    const roots = tempDir();
    const home = tempDir();
    const skills: CatalogSkill[] = [];
    for (let n = 0; n < SKILLS; n++) {
      const dir = makeSkill(roots, `skill-${String(n).padStart(4, '0')}`, skillFiles(n));
      skills.push({ name: `skill-${String(n).padStart(4, '0')}`, dir, hash: manifestHash(walkSkill(dir).files) });
    }
    const catalog = SkillCatalog.open(home);

    const first = catalog.sync(skills);
    expect(first.added).toHaveLength(SKILLS);

    const noop = catalog.sync(skills);
    expect(noop.unchanged).toBe(SKILLS);

    const changed = skills[500] as CatalogSkill;
    appendFileSync(join(changed.dir, 'SKILL.md'), '\n## Zanzibar\n\nquixotic marker text\n');
    skills[500] = { ...changed, hash: manifestHash(walkSkill(changed.dir).files) };
    const incremental = catalog.sync(skills);
    expect(incremental).toMatchObject({ updated: [changed.name], unchanged: SKILLS - 1 });
    // The new section and the skill's H1 that holds it are one hit.
    expect(catalog.search('quixotic').results.map((r) => [r.skill, r.section])).toEqual([[changed.name, 'Zanzibar']]);

    const typed = 'configure authentication token';
    for (let i = 1; i <= typed.length; i++) {
      const soFar = typed.slice(0, i);
      if (soFar.trim() === '') continue;
      const result = catalog.search(soFar, { prefix: true, limit: 20 });
      expect(result.results.length).toBeGreaterThan(0);
      expect(result.results.every((hit) => hit.skill.startsWith('skill-'))).toBe(true);
    }
    catalog.close();
  });

  it('removing a skill deletes its rows through the skill index, not by scanning the table', () => {
    const home = tempDir();
    const catalog = SkillCatalog.open(home);
    catalog.sync([]);
    catalog.close();
    const db = new Database(catalogPath(home), { readonly: true });
    const plan = db.prepare('EXPLAIN QUERY PLAN DELETE FROM catalog_rows WHERE skill_id = ?').all(1) as { detail: string }[];
    db.close();
    expect(plan.map((p) => p.detail).join('\n')).toMatch(/SEARCH catalog_rows USING (COVERING )?INDEX idx_catalog_rows_skill/);
  });

  it('a typed query ranks a pool from the stemmed MATCH filtered by the typed-word list, and marks only the kept rows in one pass', () => {
    const home = tempDir();
    SkillCatalog.open(home).close();
    const db = new Database(catalogPath(home), { readonly: true });
    const match = catalogMatch('configure auth', true);
    const rank = (db.prepare(`EXPLAIN QUERY PLAN ${catalogSearchSql(match)}`).all(catalogSearchParams(match, 20)) as { detail: string }[]).map((p) => p.detail);
    const mark = (
      db.prepare(`EXPLAIN QUERY PLAN ${catalogMarkSql(match)}`).all({ mark: catalogMarkExpression(match), ids: '[1]' }) as { detail: string }[]
    ).map((p) => p.detail);
    db.close();
    expect(rank).toEqual([
      'CO-ROUTINE top',
      'MATERIALIZE pool',
      'SCAN catalog VIRTUAL TABLE INDEX 0:M3',
      'LIST SUBQUERY 2',
      'MATERIALIZE typed',
      'SCAN catalog_words VIRTUAL TABLE INDEX 0:M3',
      'SCAN typed',
      'CREATE BLOOM FILTER',
      'USE TEMP B-TREE FOR ORDER BY',
      'SCAN catalog_words VIRTUAL TABLE INDEX 0:M3',
      'LIST SUBQUERY 4',
      'SCAN pool',
      'CREATE BLOOM FILTER',
      'BLOOM FILTER ON pool (id=?)',
      'SEARCH pool USING AUTOMATIC COVERING INDEX (id=?)',
      'USE TEMP B-TREE FOR ORDER BY',
      'SCAN top',
      'SEARCH r USING INTEGER PRIMARY KEY (rowid=?)',
    ]);
    expect(mark).toEqual(['SCAN catalog_words VIRTUAL TABLE INDEX 0:M3', 'LIST SUBQUERY 1', 'SCAN json_each VIRTUAL TABLE INDEX 1:', 'CREATE BLOOM FILTER']);
  });
});
