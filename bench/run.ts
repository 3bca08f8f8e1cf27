/**
 * `npm run bench`: every figure is measured against its raw baseline in the same run (raw file
 * read, raw FTS5, raw spawn, a bare node process), so the ratios mean something on any machine.
 *
 * `npm run bench -- --only=search,cli` (or SKILLTRAY_BENCH=search,cli) runs some sub-benches, and
 * `--sizes=1000` (SKILLTRAY_BENCH_SIZES) narrows the skill counts the scale benches use (default
 * 1000,10000). A sub-bench that fails is reported and the others still run; the exit status is
 * then 1. Whatever happens, the temp dir is removed and every process a sub-bench started is killed.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bigSkillBench } from './big-skill.bench.js';
import { catalogBench } from './catalog.bench.js';
import { cliBench } from './cli.bench.js';
import { coldBench } from './cold.bench.js';
import { discoverBench } from './discover.bench.js';
import { fanoutBench } from './fanout.bench.js';
import { BenchFixtures } from './fixtures.js';
import { loadBench } from './load.bench.js';
import { historyBench } from './history.bench.js';
import { formatFigure, type Figure, type Metric } from './measure.js';
import { killAll } from './processes.js';
import { realDevBench } from './real-dev.bench.js';
import { runBench } from './run.bench.js';
import { searchBench } from './search.bench.js';
import { searchQualityBench } from './search-quality.bench.js';
import { serveBench } from './serve.bench.js';
import { sessionBench } from './session.bench.js';
import { uiBench } from './ui.bench.js';
import { voiceBench } from './voice.bench.js';

// Compiled to dist/node/bench: the checkout's skills/ is four levels up.
const bundledDir = fileURLToPath(new URL('../../../skills', import.meta.url));

/** A sub-bench: it gets a fresh dir of its own and the corpora shared by the run. */
type Bench = (dir: string, fixtures: BenchFixtures) => Promise<(Figure | Metric)[]>;

/** Every sub-bench, in the order they run; add a line here to register one. */
const BENCHES: Record<string, Bench> = {
  loader: loadBench,
  search: searchBench,
  catalog: catalogBench,
  'big-skill': bigSkillBench,
  cli: cliBench,
  cold: coldBench,
  serve: serveBench,
  fanout: fanoutBench,
  run: runBench,
  session: (dir) => sessionBench(dir, bundledDir),
  history: historyBench,
  discover: (dir, fixtures) => discoverBench(dir, bundledDir, fixtures),
  'search-quality': (dir) => searchQualityBench(dir, bundledDir),
  'real-dev': (dir) => realDevBench(dir, bundledDir),
  ui: uiBench,
  voice: voiceBench,
};

/** A comma-separated `--name=` flag, else the environment variable, as a list. */
function listOption(name: string, env: string): string[] {
  const value = process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? process.env[env] ?? '';
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function selected(): string[] {
  const names = listOption('only', 'SKILLTRAY_BENCH');
  if (names.length === 0) return Object.keys(BENCHES);
  const unknown = names.filter((name) => !(name in BENCHES));
  if (unknown.length > 0) throw new Error(`unknown sub-bench ${unknown.join(', ')}; there are: ${Object.keys(BENCHES).join(', ')}`);
  return names;
}

function sizes(): number[] {
  const given = listOption('sizes', 'SKILLTRAY_BENCH_SIZES').map(Number);
  if (given.some((n) => !Number.isInteger(n) || n < 10)) throw new Error('--sizes takes skill counts of at least 10, e.g. --sizes=1000,10000');
  return given.length === 0 ? [1000, 10_000] : given;
}

const names = selected();
const base = mkdtempSync(join(tmpdir(), 'skilltray-bench-'));
const fixtures = new BenchFixtures(join(base, 'fixtures'), sizes());
const failed: string[] = [];
try {
  console.log(`Skilltray benchmarks — node ${process.version}, ${process.platform}/${process.arch}; medians, ratio = subject / baseline\n`);
  for (const name of names) {
    const started = Date.now();
    console.log(`## ${name}`);
    try {
      const dir = join(base, name);
      mkdirSync(dir, { recursive: true });
      for (const figure of await (BENCHES[name] as Bench)(dir, fixtures)) console.log(formatFigure(figure));
    } catch (error) {
      failed.push(name);
      console.log(`${name} FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    } finally {
      killAll();
    }
    console.log(`(${name}: ${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
  }
  console.log(`peak RSS of the bench process: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
  if (failed.length > 0) {
    console.log(`failed: ${failed.join(', ')}`);
    process.exitCode = 1;
  }
} finally {
  killAll();
  rmSync(base, { recursive: true, force: true });
}
