/**
 * Cold scale (issue 22): `skilltray list --json` and a first `skilltray search` over every skill on
 * a fresh home (no parse cache, no catalog), at 1,000 and 10,000 skills, each a process of its own
 * with its peak RSS, against a raw read of the same files; and the same list with the hostile set
 * (hostile.ts) in a second root. Goals at 10,000: list ≤ 4 s and ≤ 300 MiB, search ≤ 8 s, the
 * hostile set ≤ 30 % more.
 */
import { mkdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { BenchFixtures } from './fixtures.js';
import type { Figure } from './measure.js';
import { writeHostileSet } from './hostile.js';
import { cliEnv, pairedProcesses, RAW_BASELINES, SKILLTRAY_BIN, timedOk } from './processes.js';

const count = (n: number) => n.toLocaleString('en-US');
const goal = (ms: number, rssMb: number, limitMs: number, limitMb: number | null) =>
  `goal ≤ ${limitMs / 1000} s${limitMb === null ? '' : ` and ≤ ${limitMb} MiB`} ${ms <= limitMs && (limitMb === null || rssMb <= limitMb) ? 'met' : 'MISSED'}`;

export async function coldBench(dir: string, fixtures: BenchFixtures): Promise<Figure[]> {
  const figures: Figure[] = [];
  const hostile = join(dir, 'hostile');
  mkdirSync(hostile, { recursive: true });
  writeHostileSet(hostile);
  for (const n of fixtures.sizes) {
    const { root } = await fixtures.skills(n);
    let fresh = 0;
    // Every run gets a home of its own: nothing parsed, indexed or cached before it.
    const freshEnv = (skills: string) => cliEnv(join(dir, `home-${n}-${fresh++}`), skills);
    const raw = () => timedOk([RAW_BASELINES, 'read', root], cliEnv(join(dir, 'raw'), root), { discardStdout: true });
    // Three runs even at 10,000 (about three minutes): on shared cores one run can land in a slow minute, and the median is what is quoted.
    const runs = 3;
    const large = n >= 10_000;
    const list = await pairedProcesses(() => timedOk([SKILLTRAY_BIN, 'list', '--json'], freshEnv(root), { discardStdout: true }), raw, runs);
    figures.push({
      name: `cold list --json, ${count(n)} skills`,
      ...list,
      baseline: `raw read of the same ${count(2 * n)} files`,
      ...(large ? { note: goal(list.ms, list.rssMb, 4000, 300) } : {}),
    });
    const search = await pairedProcesses(() => timedOk([SKILLTRAY_BIN, 'search', 'deploy'], freshEnv(root), { discardStdout: true }), raw, runs);
    figures.push({
      name: `cold search over all, ${count(n)} skills`,
      ...search,
      baseline: `raw read of the same ${count(2 * n)} files`,
      ...(large ? { note: goal(search.ms, search.rssMb, 8000, null) } : {}),
    });
    const withHostile = await pairedProcesses(
      () => timedOk([SKILLTRAY_BIN, 'list', '--json'], freshEnv(`${root}${delimiter}${hostile}`), { discardStdout: true }),
      () => timedOk([SKILLTRAY_BIN, 'list', '--json'], freshEnv(root), { discardStdout: true }),
      runs,
    );
    figures.push({ name: `cold list --json, ${count(n)} skills + hostile set`, ...withHostile, baseline: 'the same list without it', goal: 1.3 });
  }
  return figures;
}
