/** Syncing the catalog of 1,000 skills (nothing changed, one changed), against the raw SQLite work a sync cannot avoid. */
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { catalogPath, SkillCatalog, type CatalogSkill } from '../src-main/core/search/catalog.js';
import { catalogFunctions } from '../src-main/core/search/catalog-sql.js';
import { manifestHash, walkSkill } from '../src-main/core/skills/walk.js';
import { writeCorpus } from './corpus.js';
import { median, type Figure } from './measure.js';

export async function catalogBench(dir: string): Promise<Figure[]> {
  const files = writeCorpus(join(dir, 'skills'), 1000);
  const skills: CatalogSkill[] = files
    .filter((file) => file.endsWith('SKILL.md'))
    .map((file) => {
      const skillDir = dirname(file);
      return { name: skillDir.slice(skillDir.lastIndexOf('skill-')), dir: skillDir, hash: manifestHash(walkSkill(skillDir).files) };
    });
  const home = join(dir, 'home');
  const catalog = SkillCatalog.open(home);
  const raw = new Database(catalogPath(home));
  // The triggers that fill the pair index call these; a sync cannot avoid them either.
  catalogFunctions(raw);
  try {
    catalog.sync(skills);
    const rawSkills = raw.prepare('SELECT id, name, dir, hash FROM catalog_skills');
    const rawNoop = await median(() => rawSkills.all(), 21, 3);
    const noop = await median(() => catalog.sync(skills), 21, 3);

    // A new hash makes the sync re-read and re-index that one skill, as an edit on disk would.
    let edits = 0;
    const changedSync = await median(
      () => {
        const changed = skills.map((skill, i) => (i === 500 ? { ...skill, hash: `${skill.hash}-edit-${edits++}` } : skill));
        catalog.sync(changed);
      },
      21,
      3,
    );
    const id = (raw.prepare('SELECT id FROM catalog_skills WHERE name = ?').get('skill-500') as { id: number }).id;
    // Every stored column but the row id, so the raw rows are the rows a sync writes.
    const columns = 'skill_id, skill, file, section, content, level, start_line, end_line, trail, tool';
    const rows = raw.prepare(`SELECT ${columns} FROM catalog_rows WHERE skill_id = ?`).raw(true).all(id) as unknown[][];
    const deleteRows = raw.prepare('DELETE FROM catalog_rows WHERE skill_id = ?');
    const insertRow = raw.prepare(
      `INSERT INTO catalog_rows (${columns}) VALUES (${columns
        .split(', ')
        .map(() => '?')
        .join(', ')})`,
    );
    const replaceRows = raw.transaction(() => {
      deleteRows.run(id);
      for (const row of rows) insertRow.run(...row);
    });
    const rawReplace = await median(() => replaceRows(), 21, 3);
    return [
      { name: 'catalog sync, nothing changed (1,000 skills)', ms: noop, baseline: 'raw SELECT of the 1,000 skill rows', baselineMs: rawNoop },
      { name: 'catalog sync, one skill changed (1,000)', ms: changedSync, baseline: 'raw delete + insert of its rows', baselineMs: rawReplace },
    ];
  } finally {
    raw.close();
    catalog.close();
  }
}
