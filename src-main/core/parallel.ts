/**
 * One job over many inputs, on this thread and on helper threads at once, synchronously: a cold
 * load parses 10,000 skills and a first search reads them all into the catalog, and both are
 * synchronous steps a command waits for anyway. Each thread claims the next input from a shared
 * counter (so a slow input never leaves a thread idle), helpers post their outputs in batches, and
 * this thread hands every output to `take` in input order, the order the same work done here alone
 * would give. A helper that cannot start, fails on an input or stops answering costs only time:
 * this thread does what the helpers did not.
 *
 * Back-pressure: no thread starts an input while the inputs claimed but not yet taken, up to and
 * with it, weigh more than the window (inputOf's `weigh`, e.g. the bytes a skill's files hold), but
 * the one `take` waits for: helpers that read faster than `take` stores wait, so what sits between
 * them stays within the window however fast reading goes.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { MessagePort, Worker } from 'node:worker_threads';

// Taken when helpers are first started: a command that starts none (a search the parse cache answers) does not load worker threads.
const workerThreads = () => process.getBuiltinModule('node:worker_threads');

/** The jobs parallel-worker.ts can run, each a module it imports by name. */
export type JobName = 'skill-parse' | 'catalog-rows';

/** A pure function of plain data (structured-cloneable both ways), run by name on a helper thread. */
export interface ParallelJob<I, O> {
  name: JobName;
  run(input: I): O;
}

/** What a helper is started with (parallel-worker.ts reads it): its job, and the port its work comes by and its outputs go back by. */
export interface HelperData {
  job: JobName;
  port: MessagePort;
}

/** A helper's work, the one message it is sent (it may be started before its inputs are known: EarlyHelpers). */
export interface HelperWork {
  inputs: readonly unknown[];
  /** `[0]`: the next input to claim, shared by every thread. */
  next: Int32Array;
  /** `[0]`: how many outputs helpers have posted (this thread waits on it). */
  posted: Int32Array;
  /** `[0]`: how many outputs this thread has handed to `take` (helpers ahead of the window wait on it). */
  taken?: Int32Array;
  /** `[i]`: the weight of inputs 0 to i − 1, so inputs a to b − 1 weigh `before[b] − before[a]`. */
  before?: Float64Array;
  /** The most the inputs claimed but not taken may weigh (see mayStart). */
  window?: number;
}

/**
 * Whether input `index` may be started: it is the one `take` waits for, or it and every input
 * claimed before it but not yet taken weigh at most the window.
 */
export function mayStart(work: HelperWork, index: number): boolean {
  if (work.taken === undefined || work.before === undefined || work.window === undefined) return true;
  const taken = Atomics.load(work.taken, 0);
  return index <= taken || (work.before[index + 1] as number) - (work.before[taken] as number) <= work.window;
}

/** A helper's batch: input index, output, and whether the job returned (false: it threw, or its output could not be cloned). */
export type HelperBatch = [index: number, output: unknown, ok: boolean][];

/**
 * Fewer inputs than this are not worth a helper: it starts in ~50 ms, but its code then warms up
 * on its own while both cores run JavaScript, leaving V8 no core to compile on. On 2 cores a cold
 * list of 2,500 skills took as long with a helper as without, 5,000 took 0.94× and 10,000 0.83×.
 */
export const MIN_INPUTS = 3000;
/** Helpers at most: past four, the disk and the catalog's single writer are what a cold load waits on. */
const MAX_HELPERS = 3;
/** How long this thread sleeps between looks at helpers that have not answered. */
const WAIT_SLICE_MS = 500;
/** A helper that posts nothing for this long is taken for gone, and this thread does its inputs. */
const STALL_MS = 30_000;

/** The helper's script beside this module (dist/node, and dist/cli where the bundle puts it); absent when running from TypeScript sources. */
const HELPER = fileURLToPath(new URL('./parallel-worker.js', import.meta.url));

/** How many threads a parallel job uses by default: every core, up to this thread and MAX_HELPERS helpers. */
export function defaultThreads(): number {
  return Math.min(availableParallelism(), MAX_HELPERS + 1);
}

export interface ParallelOptions<I, O> {
  /** Threads in all, this one included; 1 runs everything here. */
  threads: number;
  /** How this thread runs an input (the job's own run by default): a caller may answer some inputs without the job. */
  here?: (input: I, index: number) => O;
  /** The helpers' script (parallel-worker.js beside this module by default). */
  helper?: string;
  /** How long helpers may post nothing before this thread does their inputs (STALL_MS by default). */
  stallMs?: number;
  /** Helpers started for this job ahead of it, used instead of starting others (and ended if the inputs are too few for any). */
  early?: EarlyHelpers | null;
  /** What an input weighs towards the window (1 each by default): what its output will hold, roughly. */
  weigh?: (input: I, index: number) => number;
  /** The most the inputs claimed but not yet taken may weigh (DEFAULT_WINDOW inputs by default). */
  window?: number;
}

/** Inputs claimed but not taken at most, when inputs are not weighed: enough to keep every thread busy, few enough to hold. */
export const DEFAULT_WINDOW = 256;

/** A count every thread sees (Atomics on a SharedArrayBuffer). */
function sharedCount(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
}

/** The running weights of `inputs` as HelperWork's `before`, shared with every thread. */
function runningWeights<I>(inputs: readonly I[], weigh: ((input: I, index: number) => number) | undefined): Float64Array {
  const before = new Float64Array(new SharedArrayBuffer(Float64Array.BYTES_PER_ELEMENT * (inputs.length + 1)));
  inputs.forEach((input, i) => (before[i + 1] = (before[i] as number) + (weigh === undefined ? 1 : weigh(input, i))));
  return before;
}

interface Helpers {
  workers: Worker[];
  ports: MessagePort[];
}

function startHelpers(script: string, count: number, job: JobName): Helpers {
  const workers: Worker[] = [];
  const ports: MessagePort[] = [];
  for (let i = 0; i < count; i++) {
    const { MessageChannel, Worker: Helper } = workerThreads();
    const { port1, port2 } = new MessageChannel();
    const data: HelperData = { job, port: port2 };
    const worker = new Helper(script, { workerData: data, transferList: [port2] });
    // A helper that fails to start or dies leaves its inputs to this thread: its error costs only time.
    worker.on('error', () => undefined);
    // One still starting when the work is done must not hold the process open.
    worker.unref();
    workers.push(worker);
    ports.push(port1);
  }
  return { workers, ports };
}

function stopHelpers({ workers, ports }: Helpers): void {
  for (const port of ports) port.close();
  for (const worker of workers) void worker.terminate();
}

/**
 * Helpers started for `job` before its inputs are known, that wait for them: Node takes ~0.2 s to
 * start one, which then passes while the caller gets the inputs ready (a cold load sorting and
 * looking up 10,000 skills) instead of after. runInParallel takes them (`early`); unused, they are
 * ended by release(), which taking them makes a no-op.
 */
export class EarlyHelpers {
  private helpers: Helpers | null;

  constructor(
    readonly job: JobName,
    threads: number,
    script: string = HELPER,
  ) {
    const count = Math.min(threads - 1, MAX_HELPERS);
    this.helpers = count > 0 && existsSync(script) ? startHelpers(script, count, job) : null;
  }

  /** The helpers, to the first job of their name to ask: null once taken, or for another job. */
  take(job: JobName): Helpers | null {
    if (job !== this.job) return null;
    const helpers = this.helpers;
    this.helpers = null;
    return helpers;
  }

  /** Ends the helpers if no job took them. */
  release(): void {
    if (this.helpers !== null) stopHelpers(this.helpers);
    this.helpers = null;
  }
}

/**
 * Runs `job` over `inputs`, handing each output to `take` in input order; returns once every input
 * has been taken, with how many of the outputs helpers made. An input whose job throws throws here,
 * as it would without helpers.
 */
export function runInParallel<I, O>(
  job: ParallelJob<I, O>,
  inputs: readonly I[],
  take: (output: O, index: number) => void,
  options: ParallelOptions<I, O>,
): number {
  const here = options.here ?? ((input: I) => job.run(input));
  const script = options.helper ?? HELPER;
  const stallMs = options.stallMs ?? STALL_MS;
  const helperCount = inputs.length < MIN_INPUTS ? 0 : Math.min(options.threads - 1, MAX_HELPERS);
  const early = helperCount > 0 ? (options.early?.take(job.name) ?? null) : null;
  options.early?.release();
  if (early === null && (helperCount <= 0 || !existsSync(script))) {
    inputs.forEach((input, i) => take(here(input, i), i));
    return 0;
  }
  const next = sharedCount();
  const posted = sharedCount();
  const shared = sharedCount();
  const work: HelperWork = { inputs, next, posted, taken: shared, before: runningWeights(inputs, options.weigh), window: options.window ?? DEFAULT_WINDOW };
  const { workers, ports } = early ?? startHelpers(script, helperCount, job.name);
  for (const port of ports) port.postMessage(work);
  // Outputs waiting for an earlier one (input order), and inputs a helper gave back for this thread to run.
  const ready = new Map<number, O>();
  const givenBack = new Set<number>();
  let taken = 0;
  let helped = 0;
  const deliver = (): void => {
    const from = taken;
    for (;;) {
      if (ready.has(taken)) {
        const output = ready.get(taken) as O;
        ready.delete(taken);
        take(output, taken++);
      } else if (givenBack.delete(taken)) {
        take(here(inputs[taken] as I, taken), taken++);
      } else break;
    }
    // Helpers waiting for the window to move see it move.
    if (taken !== from) {
      Atomics.store(shared, 0, taken);
      Atomics.notify(shared, 0);
    }
  };
  const drain = (): void => {
    const { receiveMessageOnPort } = workerThreads();
    for (const port of ports) {
      for (let message = receiveMessageOnPort(port); message !== undefined; message = receiveMessageOnPort(port)) {
        for (const [index, output, ok] of message.message as HelperBatch) {
          // Done here already, once the helper was taken for gone.
          if (index < taken) continue;
          if (ok) {
            ready.set(index, output as O);
            helped++;
          } else givenBack.add(index);
        }
      }
    }
  };
  let seen = Atomics.load(posted, 0);
  let heard = Date.now();
  /** Waits for helpers to post (a slice at most), then takes what they posted; inputs below `upTo` a helper sat on too long are done here. */
  const awaitHelpers = (upTo: number): void => {
    Atomics.wait(posted, 0, seen, Math.min(WAIT_SLICE_MS, stallMs));
    const now = Atomics.load(posted, 0);
    if (now !== seen) {
      seen = now;
      heard = Date.now();
    } else if (Date.now() - heard > stallMs) {
      for (let i = taken; i < upTo; i++) if (!ready.has(i)) givenBack.add(i);
    }
    drain();
    deliver();
  };
  try {
    for (let i = Atomics.add(next, 0, 1); i < inputs.length; i = Atomics.add(next, 0, 1)) {
      // This thread keeps to the window too: past it, it takes what the helpers made first.
      while (!mayStart(work, i)) awaitHelpers(i);
      ready.set(i, here(inputs[i] as I, i));
      drain();
      deliver();
    }
    // Every input is claimed: wait for the ones helpers hold.
    for (drain(), deliver(); taken < inputs.length;) awaitHelpers(inputs.length);
  } finally {
    stopHelpers({ workers, ports });
  }
  return helped;
}
