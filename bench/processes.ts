/**
 * Processes the bench starts: the CLI and raw baselines timed from spawn to exit with their peak
 * RSS, and `skilltray serve`. Every child is tracked by pid and killed when the bench ends, however
 * it ends (a failed sub-bench, an exception, Ctrl-C), so nothing it started outlives it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { randomBytes } from 'node:crypto';

/** The checkout (this file runs from dist/node/bench). */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const SKILLTRAY_BIN = join(ROOT, 'bin', 'skilltray.js');
const PROBE = new URL('./rss-probe.js', import.meta.url).href;
/** The raw baseline scripts (query, read) as a command line. */
export const RAW_BASELINES = fileURLToPath(new URL('./raw-baselines.js', import.meta.url));

const live = new Set<ChildProcess>();

/** Kills every child still running (SIGKILL by pid: the bench is ending, nothing should linger). */
export function killAll(): void {
  for (const child of live) {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  live.clear();
}

process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    killAll();
    process.exit(130);
  });
}

function track(child: ChildProcess): ChildProcess {
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

export interface Timed {
  ms: number;
  /** Peak resident memory in MiB. */
  rssMb: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node [args]` with the RSS probe, timed from spawn to exit; stdout kept unless `discardStdout`. */
export function timedNode(args: readonly string[], env: NodeJS.ProcessEnv, options: { discardStdout?: boolean } = {}): Promise<Timed> {
  const rssFile = join(tmpdir(), `skilltray-bench-rss-${process.pid}-${randomBytes(4).toString('hex')}`);
  return new Promise<Timed>((resolve, reject) => {
    const start = performance.now();
    const child = track(
      spawn(process.execPath, ['--import', PROBE, ...args], {
        env: { ...env, SKILLTRAY_BENCH_RSS: rssFile },
        stdio: ['ignore', options.discardStdout ? 'ignore' : 'pipe', 'pipe'],
      }),
    );
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      const ms = performance.now() - start;
      let rssKb = Number.NaN;
      try {
        rssKb = Number(readFileSync(rssFile, 'utf8'));
      } catch {
        // the process died before its exit handler ran
      }
      rmSync(rssFile, { force: true });
      resolve({ ms, rssMb: rssKb / 1024, code, stdout, stderr });
    });
  });
}

/** Like timedNode, but fails unless the process exits 0. */
export async function timedOk(args: readonly string[], env: NodeJS.ProcessEnv, options: { discardStdout?: boolean } = {}): Promise<Timed> {
  const result = await timedNode(args, env, options);
  if (result.code !== 0) throw new Error(`node ${args.join(' ')} exited with ${result.code}:\n${result.stderr}`);
  return result;
}

/** Medians of `runs` alternating runs of a subject process and its baseline process, with the subject's peak RSS (max over runs). */
export async function pairedProcesses(
  subject: () => Promise<Timed>,
  baseline: () => Promise<Timed>,
  runs = 5,
): Promise<{ ms: number; baselineMs: number; rssMb: number }> {
  await baseline();
  await subject();
  const ours: number[] = [];
  const raw: number[] = [];
  let rssMb = 0;
  for (let i = 0; i < runs; i++) {
    raw.push((await baseline()).ms);
    const run = await subject();
    ours.push(run.ms);
    rssMb = Math.max(rssMb, run.rssMb);
  }
  const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  return { ms: mid(ours), baselineMs: mid(raw), rssMb };
}

/** An environment for the CLI over `home`, with skills from `skills` and nothing from the real user's dirs. */
export function cliEnv(base: string, skills: string): NodeJS.ProcessEnv {
  const user = join(base, 'user');
  mkdirSync(user, { recursive: true });
  return {
    PATH: process.env.PATH,
    HOME: user,
    SKILLTRAY_HOME: join(base, 'home'),
    SKILLTRAY_SKILLS_PATH: skills,
    XDG_DATA_HOME: join(user, '.local', 'share'),
  };
}

export interface Serve {
  child: ChildProcess;
  url: string;
  token: string;
  /** From spawn until the API was listening (all startup work done). */
  startMs: number;
}

/** Starts `skilltray serve --port 0` and waits until it prints its address (after loading and the catalog sync). */
export async function startServe(env: NodeJS.ProcessEnv, options: { web?: boolean; timeoutMs?: number } = {}): Promise<Serve> {
  const start = performance.now();
  const child = track(
    spawn(process.execPath, [SKILLTRAY_BIN, 'serve', '--port', '0', ...(options.web ? ['--web'] : [])], { env, stdio: ['ignore', 'pipe', 'pipe'] }),
  );
  let printed = '';
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timeoutMs = options.timeoutMs ?? 180_000;
      const timer = setTimeout(() => reject(new Error(`serve did not start in ${timeoutMs / 1000} s:\n${printed}`)), timeoutMs);
      child.stdout?.on('data', (chunk: Buffer) => {
        printed += chunk.toString();
        const match = printed.match(/Skilltray API on (http:\/\/127\.0\.0\.1:\d+)/);
        if (match) {
          clearTimeout(timer);
          resolve(match[1] as string);
        }
      });
      child.stderr?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`serve exited with ${code}:\n${printed}`));
      });
    });
    return { child, url, token: readFileSync(join(env.SKILLTRAY_HOME as string, 'token'), 'utf8').trim(), startMs: performance.now() - start };
  } catch (error) {
    await stopServe(child);
    throw error;
  }
}

/** Stops a serve started by startServe: SIGTERM, then SIGKILL if it has not exited in 10 s. */
export async function stopServe(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** A memory field of process `pid`'s status in MiB (Linux /proc; null elsewhere). */
function statusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  const status = `/proc/${pid}/status`;
  if (!existsSync(status)) return null;
  const match = readFileSync(status, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
  return match ? Number(match[1]) / 1024 : null;
}

/** Resident memory of process `pid` in MiB (Linux /proc; null elsewhere). */
export function residentMb(pid: number): number | null {
  return statusMb(pid, 'VmRSS');
}

/** The most resident memory process `pid` has had so far, in MiB (Linux /proc; null elsewhere). */
export function peakResidentMb(pid: number): number | null {
  return statusMb(pid, 'VmHWM');
}
