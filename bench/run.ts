/**
 * `npm run bench`: every figure is measured against its raw baseline in the same run (raw file
 * read, raw FTS5, raw spawn), so the ratios mean something on any machine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { catalogBench } from './catalog.bench.js';
import { discoverBench } from './discover.bench.js';
import { loadBench } from './load.bench.js';
import { historyBench } from './history.bench.js';
import { formatFigure, type Figure, type Metric } from './measure.js';
import { runBench } from './run.bench.js';
import { searchBench } from './search.bench.js';
import { sessionBench } from './session.bench.js';
import { uiBench } from './ui.bench.js';

// Compiled to dist/node/bench: the checkout's skills/ is four levels up.
const bundledDir = fileURLToPath(new URL('../../../skills', import.meta.url));

const benches: [string, (dir: string) => Promise<(Figure | Metric)[]>][] = [
  ['loader', loadBench],
  ['search', searchBench],
  ['catalog', catalogBench],
  ['run', runBench],
  ['session', (dir) => sessionBench(dir, bundledDir)],
  ['history', historyBench],
  ['discover', (dir) => discoverBench(dir, bundledDir)],
  ['ui', uiBench],
];

const base = mkdtempSync(join(tmpdir(), 'skilltray-bench-'));
try {
  console.log(`Skilltray benchmarks — node ${process.version}, ${process.platform}/${process.arch}; medians, ratio = subject / baseline\n`);
  for (const [name, bench] of benches) {
    const dir = join(base, name);
    for (const figure of await bench(dir)) console.log(formatFigure(figure));
  }
} finally {
  rmSync(base, { recursive: true, force: true });
}
