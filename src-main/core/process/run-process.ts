/**
 * The one function that spawns: an approved program + argv, never through a shell, with a filtered
 * environment, stdin closed, a timeout that kills the whole process tree, user cancellation, and
 * output capped in memory while it streams.
 */
import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { Readable } from 'node:stream';
import type { SkilltrayError } from '../../shared/skilltray-error.js';
import { runnerErrors } from '../../shared/error-messages/runner.js';
import type { RunResult } from '../../shared/model.js';
import { CappedOutput } from './capped-output.js';
import { groupExists, terminateTree } from './process-tree.js';
import { fdLayout } from './sandbox/bubblewrap.js';
import type { OutputStream } from '../../shared/runs.js';

/** Bytes kept per stream unless the caller asks otherwise: 512 KiB of head and 512 KiB of tail. */
export const DEFAULT_OUTPUT_CAP = 1024 * 1024;

/** Time between SIGTERM and SIGKILL unless the caller asks otherwise. */
export const DEFAULT_KILL_GRACE_MS = 2000;

/**
 * How long the output pipes may stay open once the tree is down. Only a process that escaped both the
 * group and the descendant walk (a double fork whose middle process already exited) can hold them that
 * long; past this the pipes are abandoned so the caller never hangs.
 */
export const PIPE_DRAIN_MS = 500;

/** Longest delay a Node timer honours; beyond it setTimeout fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** An approved request, ready to run. */
export interface ProcessSpec {
  /** Absolute path (see resolveProgram); never looked up in PATH here. */
  program: string;
  args: readonly string[];
  cwd: string;
  /** The complete environment the tool gets (build it with buildToolEnv). */
  env: Record<string, string>;
  timeoutMs: number;
  /** Bytes kept per stream; DEFAULT_OUTPUT_CAP is the usual value. */
  maxOutputBytes: number;
  /** SIGTERM → SIGKILL grace, default DEFAULT_KILL_GRACE_MS. */
  killGraceMs?: number;
  /** User cancellation: kills the tree like a timeout does, with `cancelled: true`. */
  signal?: AbortSignal;
  /**
   * The program ends its whole tree when it exits (bubblewrap with its own PID namespace: when its
   * init dies the kernel kills every process inside), so no sweep of the group is needed afterwards.
   */
  treeEndsWithIt?: boolean;
  /** Data for file descriptors 3, 4, … of the program, each read to its end (bwrap's seccomp filter). */
  inputs?: readonly Uint8Array[];
  /** Open descriptors of this process passed to the program after `inputs`, in order (what bubblewrap binds by descriptor). */
  fds?: readonly number[];
  /**
   * Live output, decoded, called only while the stream's head (the first half of the cap) is filling:
   * at most maxOutputBytes / 2 bytes per stream ever reach it, however much the tool prints. The final
   * result carries head and tail. It must not throw.
   */
  onOutput?: (stream: OutputStream, text: string) => void;
  /** Told the tool's pid (which leads its process group) as soon as it started. It must not throw. */
  onSpawn?: (pid: number) => void;
  /** Given what the program wrote on its report fd (fdLayout), once it ended (the relay's report: SpawnCommand.reports). It must not throw. */
  reported?: (text: string) => void;
  /** Starts the timeout clock and returns its stopper; a real timer unless given (a test fires it on an event). */
  startTimeout?: (onTimeout: () => void, ms: number) => () => void;
}

const realTimeout = (onTimeout: () => void, ms: number): (() => void) => {
  const timer = setTimeout(onTimeout, ms);
  return () => clearTimeout(timer);
};

function checkSpec(spec: ProcessSpec, graceMs: number): void {
  const bad = (message: string): SkilltrayError =>
    runnerErrors.invalidProcessSpec(message, { program: spec.program, timeoutMs: spec.timeoutMs, maxOutputBytes: spec.maxOutputBytes, killGraceMs: graceMs });
  if (!isAbsolute(spec.program)) throw bad(`program must be an absolute path, got '${spec.program}'`);
  // The OS cannot pass a NUL byte in a path, an argument or the environment (Node would throw a bare TypeError).
  const strings = [spec.program, spec.cwd, ...spec.args, ...Object.entries(spec.env).flat()];
  if (strings.some((text) => text.includes('\0'))) throw bad('program, cwd, arguments and environment cannot contain NUL bytes');
  if (!Number.isInteger(spec.timeoutMs) || spec.timeoutMs <= 0 || spec.timeoutMs > MAX_TIMER_MS) {
    throw bad(`timeout must be a whole number of milliseconds between 1 and ${MAX_TIMER_MS}, got ${spec.timeoutMs}`);
  }
  if (!Number.isSafeInteger(spec.maxOutputBytes) || spec.maxOutputBytes < 0) {
    throw bad(`output cap must be a whole number of bytes, got ${spec.maxOutputBytes}`);
  }
  if (!Number.isInteger(graceMs) || graceMs < 0 || graceMs > MAX_TIMER_MS) {
    throw bad(`kill grace must be a whole number of milliseconds between 0 and ${MAX_TIMER_MS}, got ${graceMs}`);
  }
}

function spawnFailure(spec: ProcessSpec, cause: unknown): SkilltrayError {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  let cwdIsDir = false;
  try {
    cwdIsDir = statSync(spec.cwd).isDirectory();
  } catch {
    // reported below as a missing working directory
  }
  const reason = !cwdIsDir
    ? `working directory '${spec.cwd}' does not exist or is not a directory`
    : code === 'ENOENT'
      ? 'no such file'
      : code === 'EACCES'
        ? 'permission denied (is it executable?)'
        : code === 'ENOEXEC'
          ? 'not an executable format'
          : cause instanceof Error
            ? cause.message
            : String(cause);
  return runnerErrors.spawnFailed(spec.program, spec.cwd, reason, code, cause);
}

/** Feeds a stream into its capped capture (and the live callback while the head fills); resolves when it closes. */
function capture(stream: Readable, output: CappedOutput, name: OutputStream, onOutput: ProcessSpec['onOutput']): Promise<void> {
  return new Promise((resolve) => {
    // No encoding is set on the pipes, so chunks arrive as Buffers.
    stream.on('data', (chunk: Buffer) => {
      const text = output.push(chunk);
      if (text !== '' && onOutput !== undefined) onOutput(name, text);
    });
    stream.on('end', () => {
      const rest = output.finishLive();
      if (rest !== '' && onOutput !== undefined) onOutput(name, rest);
    });
    // A read error ends the capture like end-of-stream does; what was read stands, and 'close' follows.
    stream.on('error', () => undefined);
    stream.once('close', () => resolve());
  });
}

/** The child's descriptors: stdin closed; every other one where bubblewrap.ts's fdLayout numbers it. */
function stdioOf(spec: ProcessSpec): { at: ReturnType<typeof fdLayout>; stdio: (Uint8Array | number | 'pipe' | 'ignore')[] } {
  const at = fdLayout({ inputs: spec.inputs?.length ?? 0, bound: spec.fds?.length ?? 0 });
  const stdio: (Uint8Array | number | 'pipe' | 'ignore')[] = ['ignore', 'pipe', 'pipe'];
  (spec.inputs ?? []).forEach((input, i) => (stdio[at.inputs + i] = input));
  (spec.fds ?? []).forEach((fd, i) => (stdio[at.bound + i] = fd));
  if (spec.reported !== undefined) stdio[at.report] = 'pipe';
  return { at, stdio };
}

/** Null once the child is spawned; the OS error when it never started. */
function spawnOutcome(subprocess: { once(event: 'spawn', listener: () => void): unknown } & PromiseLike<{ cause?: unknown }>): Promise<unknown> {
  return new Promise<unknown>((resolve) => {
    subprocess.once('spawn', () => resolve(null));
    // execa settles without 'spawn' only when the process never started; its result holds the OS error.
    subprocess.then(
      (failed) => resolve(failed.cause ?? failed),
      (error: unknown) => resolve(error),
    );
  });
}

/** Runs an approved program bounded; a non-zero exit, a signal, a timeout or a cancellation is a result, a spawn failure is E701. */
export async function runProcess(spec: ProcessSpec): Promise<RunResult> {
  const graceMs = spec.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  checkSpec(spec, graceMs);
  // Loaded here, where a process is spawned: execa is the heaviest module of the core to load.
  const { execa } = await import('execa');
  const stdout = new CappedOutput(spec.maxOutputBytes);
  const stderr = new CappedOutput(spec.maxOutputBytes);
  const result = (exitCode: number | null, signal: string | null, stop: 'timeout' | 'cancel' | null, durationMs: number): RunResult => ({
    exitCode,
    signal,
    timedOut: stop === 'timeout',
    cancelled: stop === 'cancel',
    stdout: stdout.text(),
    stderr: stderr.text(),
    droppedBytes: { stdout: stdout.droppedBytes, stderr: stderr.droppedBytes },
    durationMs,
  });
  // Cancelled while waiting for approval or in a queue: nothing is started.
  if (spec.signal?.aborted) return result(null, null, 'cancel', 0);

  const posix = process.platform !== 'win32';
  const started = performance.now();
  const { at, stdio } = stdioOf(spec);
  const subprocess = execa(spec.program, spec.args, {
    cwd: spec.cwd,
    env: spec.env,
    extendEnv: false,
    shell: false,
    // execa passes a number on as the parent's own descriptor (as child_process does); its types allow that only for fds 0–2.
    stdio: stdio as unknown as ['ignore', 'pipe', 'pipe', ...'pipe'[]],
    reject: false,
    buffer: false,
    windowsHide: true,
    // The tool leads its own process group (and session), so the group is the first handle on its tree.
    detached: posix,
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    subprocess.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const report = spec.reported === undefined ? null : new CappedOutput(4096);
  const closed = Promise.all([
    capture(subprocess.stdout, stdout, 'stdout', spec.onOutput),
    capture(subprocess.stderr, stderr, 'stderr', spec.onOutput),
    ...(report === null ? [] : [capture(subprocess.stdio[at.report] as Readable, report, 'stdout', undefined)]),
  ]);
  const spawnError = await spawnOutcome(subprocess);
  if (spawnError !== null) throw spawnFailure(spec, spawnError);
  const pid = subprocess.pid as number;
  spec.onSpawn?.(pid);

  let stop: 'timeout' | 'cancel' | null = null;
  let termination: Promise<void> | null = null;
  let hasExited = false;
  const halt = (why: 'timeout' | 'cancel'): void => {
    if (stop !== null || hasExited) return;
    stop = why;
    termination = terminateTree(pid, graceMs);
    // Awaited once the tool has exited; until then a failure must not count as an unhandled rejection.
    termination.catch(() => undefined);
  };
  const stopTimeout = (spec.startTimeout ?? realTimeout)(() => halt('timeout'), spec.timeoutMs);
  const onAbort = (): void => halt('cancel');
  spec.signal?.addEventListener('abort', onAbort, { once: true });
  if (spec.signal?.aborted) halt('cancel'); // aborted while the spawn was being confirmed

  const exit = await exited;
  hasExited = true;
  const durationMs = Math.round(performance.now() - started);
  stopTimeout();
  spec.signal?.removeEventListener('abort', onAbort);
  // Whatever the tool left running in its group would otherwise keep the pipes, and the caller, waiting.
  await (termination ?? (posix && !spec.treeEndsWithIt && groupExists(pid) ? terminateTree(pid, graceMs) : Promise.resolve()));

  let drainTimer: NodeJS.Timeout | undefined;
  const drained = await Promise.race([
    closed.then(() => true),
    new Promise<boolean>((resolve) => {
      // Given up only after one more poll for I/O: timers run before it, so an event loop busy past
      // PIPE_DRAIN_MS would otherwise abandon output that has been waiting in the pipe all along.
      drainTimer = setTimeout(() => setImmediate(() => resolve(false)), PIPE_DRAIN_MS);
    }),
  ]);
  clearTimeout(drainTimer);
  if (!drained) {
    subprocess.stdout.destroy();
    subprocess.stderr.destroy();
  }
  if (report !== null) spec.reported?.(report.text());
  return result(exit.code, exit.signal, stop, durationMs);
}
