/** Timing for benchmarks: medians over repeated runs, reported as ratios to a raw baseline measured in the same run. */
import { performance } from 'node:perf_hooks';

export interface Figure {
  name: string;
  /** Median milliseconds of the subject. */
  ms: number;
  baseline: string;
  /** Median milliseconds of the raw baseline. */
  baselineMs: number;
  note?: string;
}

/** A figure that is not a time: precision, a count. */
export interface Metric {
  name: string;
  text: string;
}

/** Median wall time in ms of `fn` over `runs` runs after `warmup` unmeasured ones. */
export async function median(fn: () => unknown, runs = 7, warmup = 1): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)] as number;
}

/** One line per figure: subject time, baseline time, and their ratio (or the metric's value). */
export function formatFigure(f: Figure | Metric): string {
  if ('text' in f) return `${f.name.padEnd(44)} ${f.text}`;
  const ms = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 1 ? n.toFixed(2) : n.toFixed(3));
  const ratio = f.baselineMs > 0 ? `${(f.ms / f.baselineMs).toFixed(2)}×` : 'n/a';
  return `${f.name.padEnd(44)} ${ms(f.ms).padStart(9)} ms   vs ${f.baseline.padEnd(30)} ${ms(f.baselineMs).padStart(9)} ms   ratio ${ratio}${f.note ? `   (${f.note})` : ''}`;
}
