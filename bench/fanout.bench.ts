/**
 * Event fan-out (issue 22, the scenario of event-fanout.ts): serve's peak resident memory while 500
 * subscribers read and 100 stall through ten runs of 1 MiB each, and how long until every reading
 * subscriber heard every run finish, against the same ten programs spawned raw at once, their
 * output read and dropped. Goal: serve peak ≤ 300 MiB.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Figure } from './measure.js';
import { fanOut, LOUD_COMMAND, LOUD_RULE, READING, RUNS, STALLED, writeLoudSkill } from './event-fanout.js';
import { cliEnv, peakResidentMb, residentMb, SKILLTRAY_BIN, startServe, stopServe, timedOk } from './processes.js';

const GOAL_MB = 300;

/** The loud program run once, its output read and dropped. */
function loudRaw(): Promise<void> {
  const [program, ...args] = LOUD_COMMAND;
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.resume();
    child.once('error', reject);
    child.once('close', () => resolve());
  });
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

export async function fanoutBench(dir: string): Promise<Figure[]> {
  const skills = join(dir, 'skills');
  writeLoudSkill(skills);
  const env = cliEnv(join(dir, 'serve'), skills);
  await timedOk([SKILLTRAY_BIN, 'rules', 'add', ...LOUD_RULE], env, { discardStdout: true });
  const baselineMs = await timed(() => Promise.all(Array.from({ length: RUNS }, loudRaw)));
  const serving = await startServe(env);
  try {
    const pid = serving.child.pid as number;
    const idleMb = residentMb(pid);
    let failed = 0;
    const ms = await timed(async () => (failed = (await fanOut(serving.url, serving.token)).filter((answer) => !answer.ok).length));
    if (failed > 0) throw new Error(`${failed} of ${RUNS} runs failed`);
    const peakMb = peakResidentMb(pid);
    const memory =
      peakMb === null ? 'peak n/a (no /proc)' : `serve idle ${idleMb?.toFixed(0)} MiB, goal peak ≤ ${GOAL_MB} MiB ${peakMb <= GOAL_MB ? 'met' : 'MISSED'}`;
    return [
      {
        name: `event fan-out, ${READING} reading + ${STALLED} stalled, ${RUNS} × 1 MiB`,
        ms,
        baseline: `${RUNS} raw spawns of ${LOUD_COMMAND.join(' ')}`,
        baselineMs,
        ...(peakMb === null ? {} : { rssMb: peakMb }),
        note: memory,
      },
    ];
  } finally {
    await stopServe(serving.child);
  }
}
