/**
 * One 79 MB skill (5,000 files, ~105,000 sections): building its index against a bare FTS5 insert
 * of the same sections, searching it and outlining it from the CLI against node doing the same raw,
 * with each CLI process's peak RSS.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { buildIndex, locateIndex } from '../src-main/core/search/index.js';
import { skillDocuments } from '../src-main/core/search/documents.js';
import { walkSkill } from '../src-main/core/skills/files.js';
import { runtimeDir } from '../src-main/core/gateway/runtime-dir.js';
import type { BenchFixtures } from './fixtures.js';
import { paired, type Figure, type Metric } from './measure.js';
import { cliEnv, pairedProcesses, RAW_BASELINES, SKILLTRAY_BIN, timedOk, type Timed } from './processes.js';

export async function bigSkillBench(dir: string, fixtures: BenchFixtures): Promise<(Figure | Metric)[]> {
  const big = await fixtures.bigSkill();
  const rows = skillDocuments(walkSkill(big.dir).files).sections;
  const rawDb = join(dir, 'raw.db');
  const rawInsert = () => {
    rmSync(rawDb, { force: true });
    const db = new Database(rawDb);
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.exec("CREATE VIRTUAL TABLE sections USING fts5(file, section, content, tokenize='porter unicode61')");
    const insert = db.prepare('INSERT INTO sections (file, section, content) VALUES (?, ?, ?)');
    db.transaction(() => {
      for (const row of rows) insert.run(row.file, row.section, row.content);
    })();
    db.close();
  };
  let run = 0;
  const build = () => {
    const runtime = join(dir, 'runtime', String(run++));
    buildIndex(big.dir, runtime);
    rmSync(runtime, { recursive: true, force: true });
  };
  const mb = (big.bytes / 1e6).toFixed(0);
  const shape = `${big.files.toLocaleString('en-US')} files, ${rows.length.toLocaleString('en-US')} sections`;
  const built = await paired(build, rawInsert, 3, 0);
  const figures: (Figure | Metric)[] = [{ name: `build the ${mb} MB skill, in process`, ...built, baseline: 'bare FTS5 insert of its sections', goal: 1.3, note: shape }];

  const env = cliEnv(join(dir, 'cli'), big.root);
  const home = env.SKILLTRAY_HOME as string;
  const cliBuild = [];
  for (let i = 0; i < 2; i++) {
    rmSync(runtimeDir(home, 'big-skill'), { recursive: true, force: true });
    cliBuild.push(await timedOk([SKILLTRAY_BIN, 'build', 'big-skill'], env));
  }
  const [first, second] = cliBuild as [Timed, Timed];
  figures.push({
    name: `skilltray build of the ${mb} MB skill`,
    ms: second.ms,
    baseline: 'bare FTS5 insert of its sections',
    baselineMs: built.baselineMs,
    goal: 1.3,
    rssMb: Math.max(first.rssMb, second.rssMb),
    note: `a process; the first build took ${first.ms.toFixed(0)} ms, its loader hashing the skill before the parse cache had it`,
  });

  const indexPath = locateIndex(big.dir, runtimeDir(home, 'big-skill')).path;
  const match = '{section content} : ("kernel" "launch")';
  const search = await pairedProcesses(() => timedOk([SKILLTRAY_BIN, 'search', 'big-skill', 'kernel launch'], env), () => timedOk([RAW_BASELINES, 'query', indexPath, match], env), 7);
  figures.push({ name: `search the ${mb} MB skill from the CLI`, ...search, baseline: 'node + raw FTS5 query (a process)', goal: 1.5, note: 'stat fingerprint of 5,000 files checked' });

  const outline = await pairedProcesses(
    () => timedOk([SKILLTRAY_BIN, 'outline', 'big-skill'], env, { discardStdout: true }),
    () => timedOk([RAW_BASELINES, 'read', big.dir], env, { discardStdout: true }),
    3,
  );
  figures.push({ name: `outline of the ${mb} MB skill from the CLI`, ...outline, baseline: 'node reading every file (a process)', goal: 2, note: 'streamed to stdout' });
  return figures;
}
