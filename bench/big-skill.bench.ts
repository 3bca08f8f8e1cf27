/**
 * One 79 MB skill (5,000 files, ~105,000 sections): building its index against a bare FTS5 insert
 * of the same sections, searching it and outlining it from the CLI against node doing the same raw,
 * with each CLI process's peak RSS. Builds and inserts each run in a process of their own, in
 * alternation, so neither pays for the other's heap (or for this bench's).
 */
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { locateIndex } from '../src-main/core/search/skill-index.js';
import { skillDocuments } from '../src-main/core/search/documents.js';
import { walkSkill } from '../src-main/core/skills/walk.js';
import { runtimeDir } from '../src-main/core/gateway/runtime-dir.js';
import type { BenchFixtures } from './fixtures.js';
import type { Figure, Metric } from './measure.js';
import { cliEnv, pairedProcesses, RAW_BASELINES, SKILLTRAY_BIN, timedOk, type Timed } from './processes.js';

const BUILD_PROBE = fileURLToPath(new URL('./build-probe.js', import.meta.url));

/** The time a probe process measured inside itself (it prints `{"ms": …}`). */
const innerMs = (run: Timed): Timed => ({ ...run, ms: (JSON.parse(run.stdout) as { ms: number }).ms });

/** Writes the skill's sections as the raw insert reads them (a JSON array of `[file, section, content]`), a file at a time; returns how many. */
function writeRows(skillDir: string, file: string): number {
  const fd = openSync(file, 'w');
  let count = 0;
  try {
    writeSync(fd, '[');
    for (const source of walkSkill(skillDir).files) {
      const rows = skillDocuments([source]).sections.map((row) => `${count++ === 0 ? '' : ','}${JSON.stringify([row.file, row.section, row.content])}`);
      writeSync(fd, rows.join(''));
    }
    writeSync(fd, ']');
  } finally {
    closeSync(fd);
  }
  return count;
}

export async function bigSkillBench(dir: string, fixtures: BenchFixtures): Promise<(Figure | Metric)[]> {
  const big = await fixtures.bigSkill();
  const rowsFile = join(dir, 'rows.json');
  const sectionCount = writeRows(big.dir, rowsFile);
  const bare = { PATH: process.env.PATH };
  // Its own time for the insert, after reading the rows: what `build` is held to, run in process or from the CLI.
  const rawInsert = async () => innerMs(await timedOk([RAW_BASELINES, 'insert', rowsFile, join(dir, 'raw.db')], bare));
  let run = 0;
  const build = async () => {
    const runtime = join(dir, 'runtime', String(run++));
    try {
      return await timedOk([BUILD_PROBE, big.dir, runtime], bare);
    } finally {
      rmSync(runtime, { recursive: true, force: true });
    }
  };
  const mb = (big.bytes / 1e6).toFixed(0);
  const shape = `${big.files.toLocaleString('en-US')} files, ${sectionCount.toLocaleString('en-US')} sections`;
  const built = await pairedProcesses(async () => innerMs(await build()), rawInsert, 5);
  const figures: (Figure | Metric)[] = [
    {
      name: `build the ${mb} MB skill, in process`,
      ms: built.ms,
      baselineMs: built.baselineMs,
      baseline: 'bare FTS5 insert of its sections',
      goal: 1.3,
      note: `${shape}; each timed inside a process of its own`,
    },
  ];

  const env = cliEnv(join(dir, 'cli'), big.root);
  const home = env.SKILLTRAY_HOME as string;
  // The first build also parses the skill for the parse cache; the ones measured find it there.
  const first = await timedOk([SKILLTRAY_BIN, 'build', 'big-skill'], env);
  const cliBuild = await pairedProcesses(
    () => {
      rmSync(runtimeDir(home, 'big-skill'), { recursive: true, force: true });
      return timedOk([SKILLTRAY_BIN, 'build', 'big-skill'], env);
    },
    rawInsert,
    3,
  );
  figures.push({
    name: `skilltray build of the ${mb} MB skill`,
    ...cliBuild,
    baseline: 'bare FTS5 insert of its sections',
    goal: 1.3,
    note: `the whole process against the insert alone; the first build took ${first.ms.toFixed(0)} ms, its loader hashing the skill before the parse cache had it`,
  });

  const indexPath = locateIndex(big.dir, runtimeDir(home, 'big-skill')).path;
  const match = '{section content} : ("kernel" "launch")';
  const search = await pairedProcesses(
    () => timedOk([SKILLTRAY_BIN, 'search', 'big-skill', 'kernel launch'], env),
    () => timedOk([RAW_BASELINES, 'query', indexPath, match], env),
    7,
  );
  figures.push({
    name: `search the ${mb} MB skill from the CLI`,
    ...search,
    baseline: 'node + raw FTS5 query (a process)',
    // Issue 40's goal for one skill's search, as for its build.
    goal: 1.3,
    note: 'stat fingerprint of 5,000 files checked',
  });

  const outline = await pairedProcesses(
    () => timedOk([SKILLTRAY_BIN, 'outline', 'big-skill'], env, { discardStdout: true }),
    () => timedOk([RAW_BASELINES, 'read', big.dir], env, { discardStdout: true }),
    3,
  );
  figures.push({
    name: `outline of the ${mb} MB skill from the CLI`,
    ...outline,
    baseline: 'node reading every file (a process)',
    goal: 2,
    note: 'streamed to stdout',
  });
  return figures;
}
