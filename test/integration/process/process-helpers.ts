/** What the runner's integration tests share: fixture paths, a fresh temp dir, and telling dead processes from live ones. */
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of a helper script in test/fixtures/processes. */
export function fixture(name: string): string {
  return fileURLToPath(new URL(`../../fixtures/processes/${name}`, import.meta.url));
}

/** A fresh directory for one test; the caller removes it. */
export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'skilltray-'));
}

/** The kernel's PF_EXITING task flag: set as a process starts to exit, from which it never returns to run code. */
const PF_EXITING = 0x4;

/**
 * The fields of a `/proc/<pid>/stat` text after the command's closing parenthesis (state, ppid,
 * pgrp, session, tty_nr, tpgid, flags, …), and whether they say the process will never run code
 * again: a zombie (this container's pid 1 does not reap orphans), reaped, or already exiting — a
 * killed process can show `D` for a moment inside its exit, after it has let go of its files (a pid
 * namespace's init waits there for its namespace to empty; CI saw bwrap's child so once).
 */
function readStat(stat: string): { fields: string[]; dead: boolean } {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  return { fields, dead: state === 'Z' || state === 'X' || (Number(fields[6]) & PF_EXITING) !== 0 };
}

/** True when the process is gone, or readStat says it is dead. */
export function isDead(pid: number): boolean {
  if (process.platform === 'linux') {
    try {
      return readStat(readFileSync(`/proc/${pid}/stat`, 'latin1')).dead;
    } catch {
      return true;
    }
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Linux: the live processes of process group `pgid` (none readStat calls dead), found in /proc. */
export function liveInGroup(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
    } catch {
      continue; // gone meanwhile
    }
    const { fields, dead } = readStat(stat);
    if (Number(fields[2]) === pgid && !dead) members.push(Number(entry));
  }
  return members;
}

/** The `pid <role> <n>` lines a tree fixture printed, by role. */
export function printedPids(text: string): Map<string, number> {
  return new Map([...text.matchAll(/^pid (\w+) (\d+)$/gm)].map((m) => [m[1] ?? '', Number(m[2])]));
}

/** Follows a tree fixture's live output: records each pid as it is printed and whether it was alive then. */
export class TreeWatch {
  readonly pids = new Map<string, number>();
  readonly aliveWhenPrinted = new Set<number>();
  private text = '';

  constructor(private readonly onGrandchild: () => void = () => undefined) {}

  readonly onOutput = (stream: 'stdout' | 'stderr', text: string): void => {
    if (stream !== 'stdout') return;
    this.text += text;
    for (const [role, pid] of printedPids(this.text)) {
      if (this.pids.has(role)) continue;
      this.pids.set(role, pid);
      if (!isDead(pid)) this.aliveWhenPrinted.add(pid);
      if (role === 'grandchild') this.onGrandchild();
    }
  };

  /** SIGKILLs whatever a failed test left alive, so one failure does not leak sleeping processes. */
  cleanUp(): void {
    for (const pid of this.pids.values()) {
      if (!isDead(pid)) process.kill(pid, 'SIGKILL');
    }
  }
}
