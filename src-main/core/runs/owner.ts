/**
 * Which process owns a run, told apart from a later process that got the same pid: the pid and its
 * start time, recorded with every run so the next owner can tell a dead owner's runs from live ones.
 */
import { processStartTime } from '../runner/process-tree.js';

/** A process as recorded in state.db: its pid and its start token ('' where the OS gives none). */
export interface ProcessIdentity {
  pid: number;
  started: string;
}

let self: ProcessIdentity | undefined;

/** This process, which records the runs it starts as its own. */
export function thisProcess(): ProcessIdentity {
  self ??= { pid: process.pid, started: processStartTime(process.pid) ?? '' };
  return self;
}

/** True while the process `identity` names is alive and is still that process (not a recycled pid). */
export function isAlive(identity: ProcessIdentity): boolean {
  const now = processStartTime(identity.pid);
  if (now === null) return false;
  // Without start times (not Linux) a live pid is taken at its word.
  return identity.started === '' || now === '' || now === identity.started;
}
