import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RunResources, type Disposable } from '../../../src-main/core/process/run-resources.js';

/** A resource that notes when it is let go of (into `log`), optionally async or throwing. */
function resource(name: string, log: string[], how: { throws?: boolean; async?: boolean } = {}): Disposable {
  return {
    dispose: () => {
      const release = (): void => {
        log.push(name);
        if (how.throws === true) throw new Error(`${name} failed`);
      };
      if (how.async !== true) return release();
      return Promise.resolve().then(release);
    },
  };
}

describe('RunResources', () => {
  it('lets go of what it holds in reverse order of taking, each once, even when disposed twice', async () => {
    const log: string[] = [];
    const held = new RunResources();
    for (const name of ['box spec', 'run dirs', 'live run', 'cgroup', 'proxy', 'box places']) held.add(resource(name, log, { async: name === 'proxy' }));
    await held.dispose();
    await held.dispose();
    expect(log).toEqual(['box places', 'proxy', 'cgroup', 'live run', 'run dirs', 'box spec']);
  });

  it('keeps letting go past one that throws, and throws the first error once all are let go', async () => {
    const log: string[] = [];
    const held = new RunResources();
    held.add(resource('a', log));
    held.add(resource('b', log, { throws: true }));
    held.add(resource('c', log, { throws: true, async: true }));
    held.add(resource('d', log));
    await expect(held.dispose()).rejects.toThrow('c failed');
    expect(log).toEqual(['d', 'c', 'b', 'a']);
  });

  it('returns what it adds, so taking and holding are one step', () => {
    const held = new RunResources();
    const one = resource('one', []);
    expect(held.add(one)).toBe(one);
  });

  it('for any run failing midway: what was taken before the failure is let go of in reverse, each once, whichever throw', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ throws: fc.boolean(), async: fc.boolean() }), { maxLength: 8 }), fc.nat(8), async (kinds, failAt) => {
        const log: string[] = [];
        const held = new RunResources();
        // A run's phases, each taking one resource; the phase at `failAt` throws before it takes its own.
        const run = async (): Promise<void> => {
          try {
            for (const [index, how] of kinds.entries()) {
              if (index === failAt) throw new Error('the run failed');
              held.add(resource(String(index), log, how));
              await Promise.resolve();
            }
          } finally {
            await held.dispose();
          }
        };
        const taken = kinds.slice(0, Math.min(failAt, kinds.length));
        const firstThrowing = taken.map((how, index) => ({ how, index })).findLast(({ how }) => how.throws);
        const outcome = await run().then(
          () => null,
          (error: Error) => error.message,
        );
        // A failure letting go replaces the run's own, as a throw in a finally does; otherwise the run's own stands.
        const expected = firstThrowing !== undefined ? `${firstThrowing.index} failed` : failAt < kinds.length ? 'the run failed' : null;
        expect(outcome).toBe(expected);
        expect(log).toEqual(taken.map((_, index) => String(index)).reverse());
      }),
    );
  });
});
