/**
 * History's footprint: state.db after 10,000 recorded runs with realistic output (most small, some
 * large, one in a hundred at the 1 MiB-per-stream cap), then after the default retention and vacuum;
 * and what `PRAGMA quick_check` at open costs on it, against opening without it.
 */
import { copyFileSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_RETENTION } from '../src-main/core/store/settings.js';
import { historyUsage, maintainHistory } from '../src-main/core/store/retention.js';
import { thisProcess } from '../src-main/core/process-identity.js';
import { recordDecision, recordRequest, recordResult, recordStart } from '../src-main/core/store/run-records.js';
import { openStateDb, type StateDb } from '../src-main/core/store/state-db.js';
import type { SandboxView } from '../src-main/shared/runs.js';
import { median, type Figure, type Metric } from './measure.js';

const RUNS = 10_000;
const DAY_MS = 24 * 60 * 60 * 1000;
const MIB = 1024 * 1024;

/** Output of run `i`: 2 KiB mostly, 64 KiB one in ten, both streams at the cap one in a hundred. */
function outputOf(i: number): { stdout: string; stderr: string } {
  const line = `line ${i} of a tool's output, as a tool prints it\n`;
  const sized = (bytes: number) => line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
  if (i % 100 === 0) return { stdout: sized(MIB), stderr: sized(MIB) };
  if (i % 10 === 0) return { stdout: sized(64 * 1024), stderr: '' };
  return { stdout: sized(2048), stderr: '' };
}

/** Records RUNS runs spread over the last 90 days; returns the bytes of what was recorded (args, command, output). */
function record(db: StateDb, now: number): number {
  let raw = 0;
  const one = (i: number): void => {
    const command = {
      program: 'git',
      args: ['log', '--oneline', `-n${i % 50}`],
      cwd: '/home/someone/project',
      timeoutMs: 30_000,
      env: [],
      skill: 'git',
      tool: 'git_log',
      skillHash: 'a'.repeat(64),
      supplied: [2],
    };
    const sandbox: SandboxView = { name: 'read-only', network: false, hosts: [], contained: true, mechanism: 'bubblewrap', why: null };
    const args = { count: i % 50, repo: '/home/someone/project' };
    const id = recordRequest(
      db,
      {
        traceId: `trace-${i}`,
        surface: i % 2 === 0 ? 'mcp' : 'cli',
        skill: 'git',
        tool: 'git_log',
        args,
        command,
        programPath: '/usr/bin/git',
        skillHash: 'a'.repeat(64),
        sandbox,
        requestedAt: now - Math.floor(((RUNS - i) / RUNS) * 90 * DAY_MS),
      },
      thisProcess(),
    );
    recordDecision(db, id, { outcome: 'auto', decidedBy: 'policy', reason: 'bundled read-only tool' });
    recordStart(db, id);
    const output = outputOf(i);
    recordResult(db, id, { exitCode: 0, signal: null, timedOut: false, cancelled: false, ...output, droppedBytes: { stdout: 0, stderr: 0 }, durationMs: 12 });
    raw +=
      JSON.stringify(args).length +
      JSON.stringify(command).length +
      JSON.stringify(sandbox).length +
      Buffer.byteLength(output.stdout) +
      Buffer.byteLength(output.stderr);
  };
  for (let i = 0; i < RUNS; i += 500)
    db.transaction(() => {
      for (let j = i; j < i + 500; j++) one(j);
    })();
  return raw;
}

const mib = (bytes: number): string => `${(bytes / MIB).toFixed(1)} MiB`;

export async function historyBench(dir: string): Promise<(Figure | Metric)[]> {
  const path = join(dir, 'state.db');
  const now = Date.now();
  const db = openStateDb(path);
  const raw = record(db, now);
  db.pragma('wal_checkpoint(TRUNCATE)');
  const full = statSync(path).size;
  db.close();

  const readFull = await median(() => readFileSync(path), 3);

  // Maintenance on a copy, so its one pass is measured on the very same file.
  const copy = join(dir, 'maintained.db');
  copyFileSync(path, copy);
  const maintained = openStateDb(copy, { quickCheck: false });
  const started = performance.now();
  const report = await maintainHistory(maintained, now);
  const maintainMs = performance.now() - started;
  const after = historyUsage(maintained);
  maintained.close();
  const kept = statSync(copy).size;
  // What an owner pays at start on a history kept by the default retention.
  const checked = await median(() => openStateDb(copy).close(), 5);
  const unchecked = await median(() => openStateDb(copy, { quickCheck: false }).close(), 5);
  const readKept = await median(() => readFileSync(copy), 5);

  // Only the records: every run's output dropped.
  const records = openStateDb(copy, { quickCheck: false });
  records.prepare('UPDATE settings SET output_max_mb = 1, output_days = 1').run();
  await maintainHistory(records, now + 400 * DAY_MS);
  records.close();
  const bare = statSync(copy).size;

  return [
    {
      name: `state.db after ${RUNS.toLocaleString('en')} runs, no retention`,
      text: `${mib(full)}   vs ${mib(raw)} recorded (args, command, output)   ratio ${(full / raw).toFixed(2)}×`,
    },
    {
      name: `after retention (${DEFAULT_RETENTION.outputDays} d, ${DEFAULT_RETENTION.outputMaxMb} MiB) + vacuum`,
      text: `${mib(kept)}   ${after.runs} records kept, output of ${after.runsWithOutput} (${mib(after.outputBytes)}); dropped ${report.droppedByAge} by age, ${report.droppedBySize} by size; vacuum ${report.vacuum}`,
    },
    { name: 'first retention + vacuum pass', ms: maintainMs, baseline: 'raw read of the whole file', baselineMs: readFull },
    { name: 'open kept state.db with quick_check', ms: checked, baseline: 'raw read of the whole file', baselineMs: readKept },
    { name: 'open kept state.db with quick_check', ms: checked, baseline: 'open without the check', baselineMs: unchecked },
    { name: 'records only (all output dropped)', text: `${mib(bare)}   ${Math.round(bare / RUNS)} bytes per run` },
  ];
}
