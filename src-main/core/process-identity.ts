/**
 * A process told apart from a later process that got the same pid: its pid and its start time,
 * recorded wherever a process claims something (a run, the packs lock, a search index's temp file)
 * so a dead claimant is known as dead even after its pid is reused.
 */
import { readFileSync } from 'node:fs';

/** The fields of a /proc/<pid>/stat line after the command name, which may hold spaces and parentheses. */
export function procStatFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/**
 * When process `pid` started, as an opaque token that tells a recycled pid from the process it once
 * was: its start time in clock ticks since boot on Linux, '' where the OS gives none cheaply; null
 * when no such process is alive.
 */
export function processStartTime(pid: number, platform: NodeJS.Platform = process.platform): string | null {
  if (platform !== 'linux') {
    try {
      process.kill(pid, 0);
      return '';
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EPERM' ? '' : null;
    }
  }
  let fields: string[];
  try {
    fields = procStatFields(readFileSync(`/proc/${pid}/stat`, 'latin1'));
  } catch {
    return null;
  }
  return fields[0] === 'Z' || fields[0] === 'X' ? null : (fields[19] ?? '');
}

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
