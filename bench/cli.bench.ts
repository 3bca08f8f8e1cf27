/**
 * The CLI's start-up against a bare `node -e 0`, each a process of its own: `--version`, `--help`
 * and `roots` (which should load nothing they do not use), and `list` over 1,000 and 10,000 skills
 * (every skill walked, unchanged ones from the parse cache).
 */
import { join } from 'node:path';
import type { BenchFixtures } from './fixtures.js';
import type { Figure } from './measure.js';
import { cliEnv, pairedProcesses, SKILLTRAY_BIN, timedOk } from './processes.js';

export async function cliBench(dir: string, fixtures: BenchFixtures): Promise<Figure[]> {
  const figures: Figure[] = [];
  const small = await fixtures.skills(fixtures.sizes[0] as number);
  const env = cliEnv(join(dir, 'start'), small.root);
  const node = () => timedOk(['-e', '0'], env);
  for (const argv of [['--version'], ['--help'], ['roots']]) {
    const run = await pairedProcesses(() => timedOk([SKILLTRAY_BIN, ...argv], env), node, 11);
    figures.push({ name: `skilltray ${argv.join(' ')}`, ...run, baseline: 'node -e 0', goal: 1.5 });
  }
  for (const n of fixtures.sizes) {
    const { root } = await fixtures.skills(n);
    const listEnv = cliEnv(join(dir, `list-${n}`), root);
    const first = await timedOk([SKILLTRAY_BIN, 'list', '--json'], listEnv, { discardStdout: true });
    const run = await pairedProcesses(() => timedOk([SKILLTRAY_BIN, 'list', '--json'], listEnv, { discardStdout: true }), node, n > 1000 ? 3 : 5);
    figures.push({
      name: `skilltray list --json, ${n.toLocaleString('en-US')} skills`,
      ...run,
      baseline: 'node -e 0',
      note: `the first list, parsing every skill, took ${first.ms.toFixed(0)} ms`,
    });
  }
  return figures;
}
