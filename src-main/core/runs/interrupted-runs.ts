/**
 * Runs whose owner stopped before they finished. An owner that is told to stop (SIGINT, SIGTERM,
 * SIGHUP, the app quitting) stops its tools itself and records their runs as `interrupted`; one that
 * cannot (killed, crashed) leaves its tools running in their own process groups. The next process to
 * own runs finishes the job: it marks a dead owner's unfinished runs `interrupted` and kills the
 * tools that are provably still theirs (the group leader alive with the start time recorded).
 */
import { SkilltrayError } from '../../shared/skilltray-error.js';
import { runnerErrors } from '../../shared/error-messages/runner.js';
import { isAlive, processStartTime } from '../process-identity.js';
import { terminateTree } from '../process/process-tree.js';
import { recordInterrupted, unfinishedRuns, type UnfinishedRun } from '../store/run-records.js';
import type { StateDb } from '../store/state-db.js';

/** The abort reason an owner gives its runs when it stops: their cancellation is an interruption. */
export function ownerStopping(why: string): SkilltrayError {
  return runnerErrors.runInterrupted(why);
}

/** True for an abort reason made by ownerStopping. */
export function isOwnerStopping(reason: unknown): boolean {
  return reason instanceof SkilltrayError && reason.code === 'E705';
}

/** A dead owner's run as it was marked, and whether its tool is still running as its own group. */
export interface Orphan extends UnfinishedRun {
  /** The tool's group leader is alive and is the process recorded: it is killed. */
  leftover: boolean;
}

/** True when the group leader recorded for a run is alive and provably that process (same start time). */
function stillOurs(run: UnfinishedRun): boolean {
  if (run.group === null || run.group.started === '') return false;
  return processStartTime(run.group.pid) === run.group.started;
}

function why(run: UnfinishedRun, leftover: boolean): string {
  const owner = run.owner === null ? 'its owner (an older Skilltray)' : `its owner (pid ${run.owner.pid})`;
  if (run.status === 'pending') return `${owner} stopped before the run started`;
  if (run.group === null) return `${owner} stopped before the run finished`;
  if (leftover) return `${owner} stopped before the run finished; its tool (process group ${run.group.pid}) was still running and was stopped`;
  if (run.group.started === '' && processStartTime(run.group.pid) !== null) {
    return `${owner} stopped before the run finished; process group ${run.group.pid} could not be verified as its tool's on this system and was left alone`;
  }
  return `${owner} stopped before the run finished; its tool was no longer running`;
}

/**
 * Marks every unfinished run whose owner is dead as interrupted, and returns them; a run another
 * live process owns is left alone. Each run is marked by exactly one caller, even when two
 * processes look at once.
 */
export function markOrphanedRuns(db: StateDb, now: number = Date.now()): Orphan[] {
  const orphans: Orphan[] = [];
  for (const run of unfinishedRuns(db)) {
    if (run.owner !== null && isAlive(run.owner)) continue;
    const leftover = stillOurs(run);
    if (recordInterrupted(db, run.id, why(run, leftover), now)) orphans.push({ ...run, leftover });
  }
  return orphans;
}

/** markOrphanedRuns, then kills each leftover tool's whole tree (SIGTERM, SIGKILL after `graceMs`). */
export async function reclaimOrphanedRuns(db: StateDb, graceMs: number): Promise<Orphan[]> {
  const orphans = markOrphanedRuns(db);
  await Promise.all(orphans.flatMap((o) => (o.leftover && o.group !== null ? [terminateTree(o.group.pid, graceMs)] : [])));
  return orphans;
}
