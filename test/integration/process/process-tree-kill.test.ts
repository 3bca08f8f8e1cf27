import { afterEach, describe, expect, it } from 'vitest';
import { PIPE_DRAIN_MS, runProcess } from '../../../src-main/core/process/run-process.js';
import { buildToolEnv } from '../../../src-main/core/process/tool-env.js';
import { fixture, isDead, TreeWatch } from './process-helpers.js';

const TIMEOUT_MS = 500;
const GRACE_MS = 1000;
/** A timeout clock that fires when the tree fixture's grandchild is up, whatever the time: the tree is whole when it is killed. */
function timeoutOnceUp(): { watch: TreeWatch; startTimeout: (onTimeout: () => void) => () => void } {
  let fire = (): void => undefined;
  const watch = new TreeWatch(() => fire());
  return { watch, startTimeout: (onTimeout) => ((fire = onTimeout), () => undefined) };
}
/**
 * A grace period far beyond the test's timeout, for trees that obey SIGTERM: a runner that waited
 * for it (instead of returning once the tree is gone) fails the test by its timeout, not by a clock.
 */
const ENDLESS_GRACE_MS = 10 * 60_000;

const watches: TreeWatch[] = [];
afterEach(() => {
  for (const watch of watches.splice(0)) watch.cleanUp();
});

function runTree(
  options: string[],
  extra: { timeoutMs?: number; killGraceMs?: number; signal?: AbortSignal; watch?: TreeWatch; startTimeout?: (onTimeout: () => void) => () => void } = {},
) {
  const watch = extra.watch ?? new TreeWatch();
  watches.push(watch);
  const started = performance.now();
  return runProcess({
    program: process.execPath,
    args: [fixture('tree.mjs'), ...options],
    cwd: process.cwd(),
    env: buildToolEnv(process.env, []),
    timeoutMs: extra.timeoutMs ?? TIMEOUT_MS,
    maxOutputBytes: 64 * 1024,
    killGraceMs: extra.killGraceMs ?? GRACE_MS,
    onOutput: watch.onOutput,
    ...(extra.signal === undefined ? {} : { signal: extra.signal }),
    ...(extra.startTimeout === undefined ? {} : { startTimeout: extra.startTimeout }),
  }).then((result) => ({ result, elapsed: performance.now() - started, watch }));
}

function expectWholeTreeSeenThenDead(watch: TreeWatch): void {
  expect([...watch.pids.keys()].sort()).toEqual(['child', 'grandchild', 'tool']);
  for (const pid of watch.pids.values()) {
    expect(watch.aliveWhenPrinted.has(pid), `pid ${pid} was running when printed`).toBe(true);
    expect(isDead(pid), `pid ${pid} is dead`).toBe(true);
  }
}

describe.skipIf(process.platform === 'win32')('runProcess kills the whole tree', () => {
  it.each([
    ['children and grandchildren', []],
    ['a grandchild that left the group with setsid', ['setsid']],
  ])('at the timeout: %s', async (_name, options) => {
    // Every process obeys SIGTERM, so nothing waits for the (endless) grace period.
    const { result, watch } = await runTree(options, { killGraceMs: ENDLESS_GRACE_MS, ...timeoutOnceUp() });
    expect(result).toMatchObject({ timedOut: true, cancelled: false, exitCode: null, signal: 'SIGTERM' });
    expectWholeTreeSeenThenDead(watch);
  });

  it.each([
    ['a tree that ignores SIGTERM', ['ignore-term']],
    ['a setsid grandchild that ignores SIGTERM', ['ignore-term', 'setsid']],
  ])('with SIGKILL after the grace period: %s', async (_name, options) => {
    const { result, watch } = await runTree(options, timeoutOnceUp());
    expect(result).toMatchObject({ timedOut: true, cancelled: false, exitCode: null, signal: 'SIGKILL' });
    expect(result.durationMs).toBeGreaterThanOrEqual(GRACE_MS);
    expectWholeTreeSeenThenDead(watch);
  });

  it('times out on a real clock unless told otherwise', async () => {
    const result = await runProcess({
      program: process.execPath,
      args: [fixture('behave.mjs'), 'sleep:600000'],
      cwd: process.cwd(),
      env: buildToolEnv(process.env, []),
      timeoutMs: TIMEOUT_MS,
      maxOutputBytes: 1024,
    });
    expect(result).toMatchObject({ timedOut: true, cancelled: false, exitCode: null, signal: 'SIGTERM' });
    expect(result.durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS);
  });

  it.each([
    ['children and grandchildren', []],
    ['a setsid grandchild', ['setsid']],
  ])('on cancellation: %s', async (_name, options) => {
    const controller = new AbortController();
    const watch = new TreeWatch(() => controller.abort());
    // Neither the 60 s timeout nor the endless grace can end this run within the test's timeout: only the cancellation can.
    const { result } = await runTree(options, { timeoutMs: 60_000, killGraceMs: ENDLESS_GRACE_MS, signal: controller.signal, watch });
    expect(result).toMatchObject({ timedOut: false, cancelled: true, exitCode: null, signal: 'SIGTERM' });
    expectWholeTreeSeenThenDead(watch);
  });

  it('starts nothing when cancelled before the start', async () => {
    const controller = new AbortController();
    controller.abort();
    const { result, watch } = await runTree([], { signal: controller.signal });
    expect(result).toEqual({
      exitCode: null,
      signal: null,
      timedOut: false,
      cancelled: true,
      stdout: '',
      stderr: '',
      droppedBytes: { stdout: 0, stderr: 0 },
      durationMs: 0,
    });
    expect(watch.pids.size).toBe(0);
  });
});

describe.skipIf(process.platform === 'win32')('runProcess cleans up after a tool that exits on its own', () => {
  it.each([
    ['its group', ['exit']],
    ['a setsid grandchild whose parent is in its group', ['exit', 'setsid']],
  ])('kills what it left running in %s, and the result does not wait for them', async (_name, options) => {
    const { result, watch } = await runTree(options, { timeoutMs: 60_000, killGraceMs: ENDLESS_GRACE_MS });
    expect(result).toMatchObject({ timedOut: false, cancelled: false, exitCode: 0, signal: null });
    expectWholeTreeSeenThenDead(watch);
  });

  it('sends SIGKILL after the grace period to leftovers that ignore SIGTERM', async () => {
    const { result, elapsed, watch } = await runTree(['exit', 'ignore-term'], { timeoutMs: 60_000 });
    expect(result).toMatchObject({ timedOut: false, exitCode: 0 });
    expect(elapsed).toBeGreaterThanOrEqual(GRACE_MS);
    expectWholeTreeSeenThenDead(watch);
  });

  it('returns even when a double-forked daemon holds the output pipes', async () => {
    // The daemon's parent exited before anything was killed, so neither the group nor a walk finds it:
    // the runner stops reading the pipes after PIPE_DRAIN_MS instead of waiting for the daemon (which sleeps 600 s).
    const { result, elapsed, watch } = await runTree(['orphan'], { timeoutMs: 60_000, killGraceMs: ENDLESS_GRACE_MS });
    expect(result).toMatchObject({ timedOut: false, exitCode: 0 });
    expect(result.stdout).toMatch(/^pid grandchild \d+$/m);
    expect(elapsed).toBeGreaterThanOrEqual(PIPE_DRAIN_MS);
    expect(isDead(watch.pids.get('child') ?? 0)).toBe(true);
  });
});
