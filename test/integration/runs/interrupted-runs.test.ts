import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { markOrphanedRuns, reclaimOrphanedRuns } from '../../../src-main/core/runs/interrupted-runs.js';
import { processStartTime, thisProcess, type ProcessIdentity } from '../../../src-main/core/process-identity.js';
import { getRun } from '../../../src-main/core/store/run-queries.js';
import { recordDecision, recordInterrupted, recordProcess, recordRequest, recordStart, type RunRequest } from '../../../src-main/core/store/run-records.js';
import type { StateDb } from '../../../src-main/core/store/state-db.js';
import { useTempHomes } from '../store/temp-home.js';
import { isDead } from '../process/process-helpers.js';

const homes = useTempHomes();

const started: number[] = [];
afterEach(() => {
  // Only what this file started, by pid.
  for (const pid of started.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

/** A sleeping process leading its own group, as a tool does; resolves once it runs. */
async function tool(): Promise<ProcessIdentity> {
  const child = spawn('sleep', ['600'], { detached: true, stdio: 'ignore' });
  await new Promise((resolve) => child.once('spawn', resolve));
  child.unref();
  const pid = child.pid as number;
  started.push(pid);
  return { pid, started: processStartTime(pid) as string };
}

/** The identity of a process that has exited. */
async function deadProcess(): Promise<ProcessIdentity> {
  const child = spawn('true', [], { stdio: 'ignore' });
  const pid = child.pid as number;
  const start = processStartTime(pid) ?? 'gone-before-read';
  await new Promise((resolve) => child.once('exit', resolve));
  return { pid, started: start };
}

const request = (id: string): RunRequest => ({
  id,
  traceId: `trace-${id}`,
  surface: 'cli',
  skill: 'slow',
  tool: 'go',
  args: {},
  command: null,
  programPath: '/bin/sleep',
  skillHash: 'h',
});

/** A run owned by `owner`, left pending, or running with `group` as its tool. */
function seed(db: StateDb, id: string, owner: ProcessIdentity | null, group?: ProcessIdentity): void {
  recordRequest(db, request(id), owner ?? { pid: 1, started: '' });
  if (owner === null) db.prepare('UPDATE runs SET owner_pid = NULL, owner_started = NULL WHERE id = ?').run(id);
  if (group === undefined) return;
  recordDecision(db, id, { outcome: 'auto', decidedBy: 'policy' });
  recordStart(db, id);
  recordProcess(db, id, group);
}

describe('runs an owner left unfinished', () => {
  it('are marked interrupted when their owner is dead, and a leftover tool that is provably theirs is killed', async () => {
    const db = homes.fresh();
    const dead = await deadProcess();
    const leftover = await tool();
    const stranger = await tool();
    seed(db, 'leftover', dead, leftover);
    // The recorded pid is alive, but it is another process than the one recorded (a recycled pid): never killed.
    seed(db, 'recycled', dead, { pid: stranger.pid, started: `${stranger.started}0` });
    seed(db, 'waiting', dead);
    seed(db, 'older', null);
    seed(db, 'mine', thisProcess(), await tool());
    // Our pid, but started at another time: that owner is dead too.
    seed(db, 'impostor', { pid: process.pid, started: 'some-other-start' });

    const orphans = await reclaimOrphanedRuns(db, 2000);
    expect(orphans.map((o) => [o.id, o.leftover]).sort()).toEqual([
      ['impostor', false],
      ['leftover', true],
      ['older', false],
      ['recycled', false],
      ['waiting', false],
    ]);
    expect(isDead(leftover.pid)).toBe(true);
    expect(isDead(stranger.pid)).toBe(false);
    expect(getRun(db, 'mine')?.status).toBe('running');
    for (const id of ['leftover', 'recycled', 'waiting', 'older', 'impostor']) {
      expect(getRun(db, id), id).toMatchObject({ status: 'interrupted', errorCode: 'E705', endedAt: expect.any(Number) });
    }
    expect(getRun(db, 'leftover')?.reason).toBe(
      `its owner (pid ${dead.pid}) stopped before the run finished; its tool (process group ${leftover.pid}) was still running and was stopped`,
    );
    expect(getRun(db, 'recycled')?.reason).toBe(`its owner (pid ${dead.pid}) stopped before the run finished; its tool was no longer running`);
    expect(getRun(db, 'waiting')?.reason).toBe(`its owner (pid ${dead.pid}) stopped before the run started`);
    expect(getRun(db, 'older')?.reason).toBe('its owner (an older Skilltray) stopped before the run started');
  });

  it('are marked once: a run that finished meanwhile, or one another process marked, is left as it is', async () => {
    const db = homes.fresh();
    const dead = await deadProcess();
    seed(db, 'done', dead);
    recordDecision(db, 'done', { outcome: 'denied', decidedBy: 'user' });
    seed(db, 'twice', dead);
    expect(recordInterrupted(db, 'done', 'late')).toBe(false);
    expect(getRun(db, 'done')).toMatchObject({ status: 'denied', reason: null });
    expect(recordInterrupted(db, 'twice', 'first')).toBe(true);
    expect(recordInterrupted(db, 'twice', 'second')).toBe(false);
    expect(getRun(db, 'twice')?.reason).toBe('first');
    expect(markOrphanedRuns(db)).toEqual([]);
  });
});
