/**
 * `npm run bench`: every figure is measured against its raw baseline in the same run (raw file
 * read, raw FTS5, raw spawn), so the ratios mean something on any machine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadBench } from './load.bench.js';
import { formatFigure, type Figure } from './measure.js';

const benches: [string, (dir: string) => Promise<Figure[]>][] = [['loader', loadBench]];

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
