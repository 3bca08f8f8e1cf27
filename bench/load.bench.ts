/** Loading 1,000 skills (parse, validate, hash every file) against reading the same files raw. */
import { readFileSync } from 'node:fs';
import { SkillRegistry } from '../src-main/core/skills/registry.js';
import { writeCorpus } from './corpus.js';
import { median, type Figure } from './measure.js';

export async function loadBench(dir: string): Promise<Figure[]> {
  const files = writeCorpus(dir, 1000);
  const roots = [{ path: dir, kind: 'env' as const, trust: 'user' as const, syntax: 'angle' as const }];
  const loaded = new SkillRegistry(roots).load().list();
  const broken = loaded.filter((s) => s.state === 'error');
  if (loaded.length !== 1000 || broken.length > 0) throw new Error(`corpus did not load cleanly: ${loaded.length} skills, ${broken.length} broken`);
  const raw = await median(() => {
    for (const file of files) readFileSync(file, 'utf8');
  });
  const load = await median(() => new SkillRegistry(roots).load(), 5);
  return [{ name: 'load 1,000 skills (parse, validate, hash)', ms: load, baseline: 'raw read of the same 2,000 files', baselineMs: raw }];
}
