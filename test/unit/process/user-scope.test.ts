/**
 * An ordinary user's runs held by a systemd scope of their own where the session delegates memory
 * and pids: the options each run's `systemd-run --user --scope` gets (the whole run's memory, no
 * swap, its tasks), and that root never uses one (it makes its own cgroup). The scope itself needs
 * a user's systemd, which this machine may not have; where there is none, runs fall back to
 * rlimits (test/integration/sandbox/hostile/resources.test.ts holds both).
 */
import { expect, it } from 'vitest';
import { scopeOptions, userScopeUnavailable } from '../../../src-main/core/process/sandbox/cgroup.js';

it("gives each run's scope its memory (no swap) and processes as a whole", () => {
  expect(scopeOptions({ processes: 256, memoryMiB: 2048, fileSizeMiB: 1024, cpuSeconds: 120 }, 'skilltray-run-1.scope')).toEqual([
    '--user',
    '--scope',
    '--quiet',
    '--unit=skilltray-run-1.scope',
    '-p',
    'MemoryMax=2048M',
    '-p',
    'MemorySwapMax=0',
    '-p',
    'TasksMax=256',
    '--',
  ]);
});

it.runIf(process.getuid?.() === 0)('never puts a root run in a user scope: root makes its own cgroup', () => {
  expect(userScopeUnavailable(process.env)).toBe('root gets a cgroup of its own');
});
