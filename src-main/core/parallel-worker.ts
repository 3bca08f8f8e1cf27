/**
 * A helper thread of parallel.ts: claims inputs from the shared counter until none is left, runs the
 * job on each, and posts the outputs in batches. Each job's module is imported when it is asked
 * for, so a helper loads only what its job needs.
 */
import { workerData } from 'node:worker_threads';
import { mayStart, type HelperBatch, type HelperData, type HelperWork, type JobName, type ParallelJob } from './parallel.js';

const JOBS: Record<JobName, () => Promise<ParallelJob<never, unknown>>> = {
  'skill-parse': async () => (await import('./skills/fresh-parse.js')).freshParseJob,
  'catalog-rows': async () => (await import('./search/catalog-rows.js')).catalogRowsJob,
};

/** Outputs per message: fewer messages, while this thread's outputs still reach the caller soon after they are made. */
const BATCH = 16;

const { job, port } = workerData as HelperData;
const { run } = (await JOBS[job]()) as ParallelJob<unknown, unknown>;

// The work comes once the caller has it ready (the helper may have been started before: EarlyHelpers); a port closed without any ends the helper.
port.once('message', (given: HelperWork) => {
  work(given);
  port.close();
});

/** How long a helper ahead of the window sleeps between looks at it (it is woken when it moves). */
const WINDOW_SLICE_MS = 500;

function work(given: HelperWork): void {
  const { inputs, next, posted, taken } = given;
  let batch: HelperBatch = [];
  const post = (): void => {
    if (batch.length === 0) return;
    try {
      port.postMessage(batch);
    } catch {
      // An output that cannot be cloned: the caller's thread runs these inputs itself.
      port.postMessage(batch.map(([index]) => [index, null, false]));
    }
    Atomics.add(posted, 0, batch.length);
    Atomics.notify(posted, 0);
    batch = [];
  };
  for (let i = Atomics.add(next, 0, 1); i < inputs.length; i = Atomics.add(next, 0, 1)) {
    if (!mayStart(given, i)) {
      // What it holds goes first: the input the caller waits for may be among it.
      post();
      while (!mayStart(given, i)) Atomics.wait(taken as Int32Array, 0, Atomics.load(taken as Int32Array, 0), WINDOW_SLICE_MS);
    }
    try {
      batch.push([i, run(inputs[i]), true]);
    } catch {
      // The caller's thread runs it again, so the error is thrown where it would be without helpers.
      batch.push([i, null, false]);
    }
    if (batch.length >= BATCH) post();
  }
  post();
}
