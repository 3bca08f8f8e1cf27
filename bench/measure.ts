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
  /** The most `ms / baselineMs` may be (issue 12's goals); the line says whether it is met. */
  goal?: number;
  /** Peak resident memory of the subject's process, in MiB, when it ran in a process of its own. */
  rssMb?: number;
}

/** A figure that is not a time: precision, a count, a size. */
export interface Metric {
  name: string;
  text: string;
}

async function timeOnce(fn: () => unknown): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

function medianOf(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** Median wall time in ms of `fn` over `runs` runs after `warmup` unmeasured ones. */
export async function median(fn: () => unknown, runs = 7, warmup = 1): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) samples.push(await timeOnce(fn));
  return medianOf(samples);
}

/**
 * Medians of a subject and its baseline measured in alternation, so a machine that gets busier or
 * quieter during the run (other work on a shared box) weighs on both alike.
 */
export async function paired(subject: () => unknown, baseline: () => unknown, runs = 7, warmup = 1): Promise<{ ms: number; baselineMs: number }> {
  for (let i = 0; i < warmup; i++) {
    await baseline();
    await subject();
  }
  const ours: number[] = [];
  const raw: number[] = [];
  for (let i = 0; i < runs; i++) {
    raw.push(await timeOnce(baseline));
    ours.push(await timeOnce(subject));
  }
  return { ms: medianOf(ours), baselineMs: medianOf(raw) };
}

const mib = (bytes: number): number => bytes / 2 ** 20;

/** This process's resident memory now, in MiB. */
export function rssNowMb(): number {
  return mib(process.memoryUsage().rss);
}

/** One line per figure: subject time, baseline time, their ratio against the goal, and peak RSS (or the metric's value). */
export function formatFigure(f: Figure | Metric): string {
  if ('text' in f) return `${f.name.padEnd(52)} ${f.text}`;
  const ms = (n: number) => (n >= 100 ? n.toFixed(0) : n >= 1 ? n.toFixed(2) : n.toFixed(3));
  const ratio = f.baselineMs > 0 ? f.ms / f.baselineMs : Number.NaN;
  const goal = f.goal === undefined ? '' : `   goal ≤ ${f.goal}× ${ratio <= f.goal ? 'met' : 'MISSED'}`;
  const rss = f.rssMb === undefined ? '' : `   peak RSS ${f.rssMb.toFixed(0)} MiB`;
  return `${f.name.padEnd(52)} ${ms(f.ms).padStart(9)} ms   vs ${f.baseline.padEnd(36)} ${ms(f.baselineMs).padStart(9)} ms   ratio ${Number.isNaN(ratio) ? 'n/a' : `${ratio.toFixed(2)}×`}${goal}${rss}${f.note ? `   (${f.note})` : ''}`;
}
