/**
 * The loader at 1,000 and 10,000 skills against reading the same files raw: a first load (every
 * skill parsed, validated and hashed), a load from the parse cache as a new process makes it, and
 * the reload of one changed skill (what the watcher does) against parsing that skill alone.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SkillRoot } from '../src-main/shared/model.js';
import { ParseCache } from '../src-main/core/skills/parse-cache.js';
import { parseSkill } from '../src-main/core/skills/parse-skill.js';
import { SkillRegistry } from '../src-main/core/skills/registry.js';
import type { BenchFixtures } from './fixtures.js';
import { paired, type Figure } from './measure.js';

const count = (n: number) => n.toLocaleString('en-US');

export async function loadBench(dir: string, fixtures: BenchFixtures): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const n of fixtures.sizes) {
    const { root, files } = await fixtures.skills(n);
    const roots: SkillRoot[] = [{ path: root, kind: 'env', trust: 'user', syntax: 'angle' }];
    const loaded = new SkillRegistry(roots).load().list();
    const broken = loaded.filter((s) => s.state === 'error');
    if (loaded.length !== n || broken.length > 0) throw new Error(`corpus did not load cleanly: ${loaded.length} skills, ${broken.length} broken`);
    const raw = () => {
      for (const file of files) readFileSync(file, 'utf8');
    };
    const baseline = `raw read of the same ${count(files.length)} files`;

    const cold = await paired(() => new SkillRegistry(roots).load(), raw, n > 1000 ? 1 : 3);
    figures.push({ name: `load ${count(n)} skills, first time (parse, validate, hash)`, ...cold, baseline, note: 'no parse cache yet' });

    const cacheFile = join(dir, `loader-${n}.db`);
    const fromCache = () => {
      const cache = ParseCache.file(cacheFile);
      new SkillRegistry(roots, { cache }).load();
      cache.close();
    };
    fromCache();
    const warm = await paired(fromCache, raw, n > 1000 ? 3 : 5);
    figures.push({
      name: `load ${count(n)} skills (parse cache, a new process)`,
      ...warm,
      baseline,
      goal: 5,
      note: "the stats of every skill's files and directories compared, none listed or read",
    });

    const registry = new SkillRegistry(roots).load();
    const one = registry.get('skill-7');
    if (one === undefined) throw new Error('skill-7 is missing');
    let edit = 0;
    const change = () => writeFileSync(join(one.dir, 'references', 'guide.md'), `# Guide 7\n\nEdit ${edit++}.\n`);
    const reload = await paired(
      () => {
        change();
        if (registry.reload('skill-7')?.kind !== 'changed') throw new Error('the edit was not seen');
      },
      () => {
        change();
        parseSkill(one.dir, roots[0] as SkillRoot);
      },
      11,
    );
    figures.push({
      name: `reload one changed skill of ${count(n)}`,
      ...reload,
      baseline: 'parse that one skill alone',
      note: 'each side writes the edit first',
    });
  }
  return figures;
}
