/**
 * The pool's side of core/parallel.ts: outputs reach the caller in input order whoever made them, and
 * a helper that gives inputs back, stops answering or never starts costs only time. The helper
 * here is a stand-in speaking the protocol (test/fixtures/parallel/helper.mjs); the real one is
 * tested in test/integration/parallel/helper.test.ts.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EarlyHelpers, MIN_INPUTS, runInParallel, type JobName, type ParallelJob } from '../../../src-main/core/parallel.js';

const HELPER = join(import.meta.dirname, '..', '..', 'fixtures', 'parallel', 'helper.mjs');

interface Input {
  n: number;
  gate: Int32Array;
}

/** `count` inputs sharing one gate the stand-in opens once it has claimed one. */
function inputs(count: number): Input[] {
  const gate = new Int32Array(new SharedArrayBuffer(4));
  return Array.from({ length: count }, (_, n) => ({ n, gate }));
}

/** A job the stand-in knows by `name` (it doubles n); this thread doubles too, after waiting at the gate on the first input it runs. */
function run(name: string, list: Input[], options: { threads?: number; helper?: string; stallMs?: number; early?: EarlyHelpers } = {}) {
  const job = { name: name as JobName, run: ({ n }: Input) => n * 2 } satisfies ParallelJob<Input, number>;
  const taken: [number, number][] = [];
  let waited = false;
  const helped = runInParallel(job, list, (output, index) => taken.push([index, output]), {
    threads: options.threads ?? 2,
    helper: options.helper ?? HELPER,
    ...(options.stallMs === undefined ? {} : { stallMs: options.stallMs }),
    ...(options.early === undefined ? {} : { early: options.early }),
    here: (input) => {
      if (!waited) {
        waited = true;
        // Bounded only so a broken pool fails instead of hanging; the stand-in opens it at once.
        Atomics.wait(input.gate, 0, 0, 20_000);
      }
      return job.run(input);
    },
  });
  return { taken, helped };
}

const doubled = (count: number): [number, number][] => Array.from({ length: count }, (_, i) => [i, i * 2]);

describe('runInParallel', () => {
  it('hands every output over in input order, the helpers’ among them', () => {
    const { taken, helped } = run('double', inputs(MIN_INPUTS));
    expect(taken).toEqual(doubled(MIN_INPUTS));
    expect(helped).toBeGreaterThan(0);
  });

  it('runs the inputs a helper gives back on this thread', () => {
    const { taken, helped } = run('give-back', inputs(MIN_INPUTS));
    expect(taken).toEqual(doubled(MIN_INPUTS));
    expect(helped).toBe(0);
  });

  it('takes back the inputs of a helper that stops answering', () => {
    const { taken, helped } = run('silent', inputs(MIN_INPUTS), { stallMs: 50 });
    expect(taken).toEqual(doubled(MIN_INPUTS));
    expect(helped).toBe(0);
  });

  it('does everything here when the helper fails as it starts, or is not there', () => {
    const list = inputs(MIN_INPUTS);
    // Nothing opens the gate: this thread waits its bound out on the first input, once.
    Atomics.store(list[0]?.gate as Int32Array, 0, 1);
    expect(run('crash', list)).toEqual({ taken: doubled(MIN_INPUTS), helped: 0 });
    expect(run('double', list, { helper: join(HELPER, '..', 'missing.mjs') })).toEqual({ taken: doubled(MIN_INPUTS), helped: 0 });
  });

  it('starts no helper for one thread or a few inputs', () => {
    const few = inputs(MIN_INPUTS - 1);
    Atomics.store(few[0]?.gate as Int32Array, 0, 1);
    expect(run('double', few)).toEqual({ taken: doubled(MIN_INPUTS - 1), helped: 0 });
    const many = inputs(MIN_INPUTS);
    Atomics.store(many[0]?.gate as Int32Array, 0, 1);
    expect(run('double', many, { threads: 1 })).toEqual({ taken: doubled(MIN_INPUTS), helped: 0 });
  });

  it('uses helpers started before the inputs were known, once', () => {
    const early = new EarlyHelpers('double' as JobName, 2, HELPER);
    // No helper could be started now (the script is not there): the outputs helpers made are the early ones'.
    const { taken, helped } = run('double', inputs(MIN_INPUTS), { early, helper: join(HELPER, '..', 'missing.mjs') });
    expect(taken).toEqual(doubled(MIN_INPUTS));
    expect(helped).toBeGreaterThan(0);
    // Taken by that job: nothing is left to take or to end.
    expect(early.take('double' as JobName)).toBeNull();
  });

  it('ends helpers started early that the job does not use: too few inputs, or another job', () => {
    const few = inputs(MIN_INPUTS - 1);
    Atomics.store(few[0]?.gate as Int32Array, 0, 1);
    const unused = new EarlyHelpers('double' as JobName, 2, HELPER);
    expect(run('double', few, { early: unused })).toEqual({ taken: doubled(MIN_INPUTS - 1), helped: 0 });
    expect(unused.take('double' as JobName)).toBeNull();
    // Started for another job: ended, and this job starts its own.
    const other = new EarlyHelpers('give-back' as JobName, 2, HELPER);
    const { taken, helped } = run('double', inputs(MIN_INPUTS), { early: other });
    expect(taken).toEqual(doubled(MIN_INPUTS));
    expect(helped).toBeGreaterThan(0);
    expect(other.take('give-back' as JobName)).toBeNull();
  });

  it('does everything here when a helper started early has failed by the time its work comes', () => {
    const list = inputs(MIN_INPUTS);
    Atomics.store(list[0]?.gate as Int32Array, 0, 1);
    expect(run('crash', list, { early: new EarlyHelpers('crash' as JobName, 2, HELPER) })).toEqual({ taken: doubled(MIN_INPUTS), helped: 0 });
  });

  it('throws what an input’s run throws, as without helpers', () => {
    // The stand-in gives every input back, so this thread runs input 3 whoever claimed it.
    const job = {
      name: 'give-back' as JobName,
      run: ({ n }: Input) => {
        if (n === 3) throw new Error('input 3 is bad');
        return n;
      },
    };
    const list = inputs(MIN_INPUTS);
    Atomics.store(list[0]?.gate as Int32Array, 0, 1);
    expect(() => runInParallel(job, list, () => undefined, { threads: 2, helper: HELPER })).toThrow('input 3 is bad');
  });
});
