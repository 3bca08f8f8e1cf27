/**
 * Finding and killing everything a tool started. A tool leads its own process group, but a
 * descendant may leave the group (setsid), so the tree is the group plus every descendant of a
 * member, collected before the first signal: once a parent dies its children are re-parented
 * and can no longer be found by walking parent ids.
 */
import { readdir, readFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import { procStatFields } from '../process-identity.js';

/** One row of the OS process table. */
export interface ProcessEntry {
  pid: number;
  ppid: number;
  pgid: number;
  /** Exited but not yet reaped: dead for our purposes, and signals to it are no-ops. */
  zombie: boolean;
  /** Start time where the OS gives it cheaply (Linux /proc), so a recycled pid is not taken for a tree member; '' elsewhere. */
  started: string;
}

/** How often the tree is checked during the grace period, so a tree that obeys SIGTERM is not kept waiting. */
const POLL_MS = 50;

/** How long to wait for SIGKILL to take effect before giving up on a process stuck in the kernel. */
const KILL_CONFIRM_MS = 1000;

async function readProcStat(pid: string): Promise<ProcessEntry | null> {
  let stat: string;
  try {
    stat = await readFile(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return null; // the process exited between the directory listing and the read
  }
  const fields = procStatFields(stat);
  return {
    pid: Number(pid),
    ppid: Number(fields[1]),
    pgid: Number(fields[2]),
    zombie: fields[0] === 'Z' || fields[0] === 'X',
    started: fields[19] ?? '',
  };
}

function parsePsTable(text: string): ProcessEntry[] {
  const entries: ProcessEntry[] = [];
  for (const line of text.split('\n')) {
    const [pid, ppid, pgid, state] = line.trim().split(/\s+/);
    if (pid === undefined || ppid === undefined || pgid === undefined || state === undefined) continue;
    entries.push({ pid: Number(pid), ppid: Number(ppid), pgid: Number(pgid), zombie: state.startsWith('Z'), started: '' });
  }
  return entries;
}

/** A snapshot of every process: from /proc on Linux, from `ps` on other POSIX systems. */
export async function readProcessTable(platform: NodeJS.Platform = process.platform): Promise<ProcessEntry[]> {
  if (platform === 'linux') {
    // Asynchronous reads: on a desktop with hundreds of processes a synchronous scan would stall the app's main loop.
    const pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
    const entries = await Promise.all(pids.map(readProcStat));
    return entries.filter((entry): entry is ProcessEntry => entry !== null);
  }
  const { execa } = await import('execa');
  const ps = await execa('ps', ['-A', '-o', 'pid=,ppid=,pgid=,stat='], { reject: false, stdin: 'ignore' });
  if (ps.failed) throw skillcErrors.internal(`cannot list processes: ${ps.shortMessage}`, { cause: ps });
  return parsePsTable(String(ps.stdout));
}

/**
 * The live members of a tool's tree in `table`: its group, the processes in `known` that are still the
 * same processes, and every descendant of those. Keyed by pid, valued by start time.
 */
export function treeMembers(table: readonly ProcessEntry[], group: number, known: ReadonlyMap<number, string> = new Map()): Map<number, string> {
  const live = table.filter((entry) => !entry.zombie && entry.pid !== process.pid);
  const members = new Map<number, string>();
  for (const entry of live) {
    if (entry.pgid === group || known.get(entry.pid) === entry.started) members.set(entry.pid, entry.started);
  }
  const children = new Map<number, ProcessEntry[]>();
  for (const entry of live) {
    const siblings = children.get(entry.ppid);
    if (siblings === undefined) children.set(entry.ppid, [entry]);
    else siblings.push(entry);
  }
  const pending = [...members.keys()];
  for (let pid = pending.pop(); pid !== undefined; pid = pending.pop()) {
    for (const child of children.get(pid) ?? []) {
      if (members.has(child.pid)) continue;
      members.set(child.pid, child.started);
      pending.push(child.pid);
    }
  }
  return members;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    // Gone already (ESRCH) or not ours to kill (EPERM, e.g. a setuid descendant): nothing more to do.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ESRCH' && code !== 'EPERM') throw error;
  }
}

function signalTree(group: number, members: ReadonlyMap<number, string>, name: NodeJS.Signals): void {
  signal(-group, name);
  for (const pid of members.keys()) signal(pid, name);
}

/** True when some process is still in the group (possibly only zombies: the caller's walk tells those apart). */
export function groupExists(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live tree; when the process table cannot be read, everything known so far plus the group while it exists. */
async function liveTree(group: number, known: ReadonlyMap<number, string>, platform: NodeJS.Platform): Promise<Map<number, string>> {
  try {
    return treeMembers(await readProcessTable(platform), group, known);
  } catch {
    // Degraded but still safe: the group and the known pids get SIGKILL once the grace period is over.
    const blind = new Map(known);
    if (groupExists(group)) blind.set(group, '');
    return blind;
  }
}

/**
 * Polls the tree until it is gone or `ms` have passed; returns what is still alive. With `resend`, each
 * round signals the survivors again, so a process forked since the last round is not missed.
 */
async function waitForExit(
  group: number,
  known: Map<number, string>,
  ms: number,
  platform: NodeJS.Platform,
  resend?: NodeJS.Signals,
): Promise<Map<number, string>> {
  const deadline = performance.now() + ms;
  let members = known;
  for (;;) {
    members = await liveTree(group, members, platform);
    const left = deadline - performance.now();
    if (members.size === 0 || left <= 0) return members;
    if (resend !== undefined) signalTree(group, members, resend);
    await delay(Math.min(POLL_MS, left));
  }
}

/**
 * Kills the tree of the tool whose pid (and process group) is `group`: SIGTERM to the group and every
 * descendant, then SIGKILL to whatever is left after `graceMs`. Resolves once the tree is gone, or a
 * second after SIGKILL for a process stuck in the kernel. On Windows, `taskkill /T /F` ends the tool
 * and its descendants at once.
 */
export async function terminateTree(group: number, graceMs: number, platform: NodeJS.Platform = process.platform): Promise<void> {
  if (platform === 'win32') {
    const { execa } = await import('execa');
    await execa('taskkill', ['/PID', String(group), '/T', '/F'], { reject: false, stdin: 'ignore', windowsHide: true });
    return;
  }
  let members = await liveTree(group, new Map(), platform);
  if (members.size === 0) return;
  signalTree(group, members, 'SIGTERM');
  members = await waitForExit(group, members, graceMs, platform);
  if (members.size === 0) return;
  signalTree(group, members, 'SIGKILL');
  // SIGKILL takes effect asynchronously: wait until it did, so the caller's result means the tree is gone.
  await waitForExit(group, members, KILL_CONFIRM_MS, platform, 'SIGKILL');
}
