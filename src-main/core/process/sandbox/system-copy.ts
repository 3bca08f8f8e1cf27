/**
 * A copy of a system folder holding only what others may read: what a run as root gets as its /etc.
 * Root may read every file, so the box cannot rely on permissions there; and a folder bound from the
 * host with the hidden entries covered one by one needs each covered entry to still exist when bwrap
 * mounts over it (a lock file that `useradd` removed in between failed the run), while an entry made
 * after the walk (`/etc/shadow+` while `passwd` runs) showed unmasked. A copy has neither fault: the
 * box binds one folder that only Skilltray writes, nothing in it is covered, and nothing enters it
 * unchecked. Each entry is opened through its folder's descriptor and never through a link, and
 * judged by the opened file's own mode, so what is copied is what was checked; one that vanishes or
 * changes kind while copied is left out. Kept in step with the original by changes only: a file
 * unchanged since it was copied (same inode, size and times: any write or chmod moves its ctime) is
 * left as it is, a changed one replaced whole (written aside, then renamed over), and what others
 * may no longer read removed.
 */
import {
  chmodSync,
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  type BigIntStats,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { through } from './handles.js';

/** Opened for a look only: never through a link, never waiting on a FIFO or taking a terminal. */
const OPEN = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY | constants.O_NOFOLLOW;

/** Whether others may read the entry (a folder: read and enter). */
export function othersMayRead(mode: number, dir: boolean): boolean {
  return dir ? (mode & 0o005) === 0o005 : (mode & 0o004) !== 0;
}

/** Which file at which change: the same key means the same content and mode. */
function keyOf(stats: BigIntStats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
}

/** What the copy holds at each path (relative): a file as read (its key then), a symlink's target, or a folder. */
type Held = Map<string, { kind: 'file'; key: string } | { kind: 'link'; target: string } | { kind: 'dir' }>;

/** A copy, and what it needs to be kept in step. */
export interface SystemCopy {
  /** The folder to bind in place of the original. */
  dir: string;
  /** Each folder of the original read, with its mtime: a change to any says the copy is stale. */
  walked: Map<string, number>;
}

interface Sync {
  copy: string;
  listed: ReadonlySet<string>;
  held: Held;
  seen: Set<string>;
  walked: Map<string, number>;
}

function readLink(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}

/** Forgets `rel` and all the copy held under it. */
function forget(held: Held, rel: string): void {
  for (const inner of [...held.keys()]) if (inner === rel || inner.startsWith(`${rel}/`)) held.delete(inner);
}

/** Puts what `make` writes at `rel` in the copy, whatever was there: made aside and renamed over, so a run reading a file sees the old or the new. */
function replace(sync: Sync, rel: string, dir: boolean, make: (path: string) => void): void {
  const to = join(sync.copy, rel);
  if (!sync.held.has(rel)) return make(to);
  const aside = `${to}.skilltray-new`;
  rmSync(aside, { recursive: true, force: true });
  make(aside);
  // A rename replaces a file or a link in one step; a folder, or one in the way of a folder, goes first.
  if (dir || sync.held.get(rel)?.kind === 'dir') {
    rmSync(to, { recursive: true, force: true });
    forget(sync.held, rel);
  }
  renameSync(aside, to);
}

/** Brings the copy's `rel` folder in step with the original's folder open at `fd` (`path`). */
function syncFolder(fd: number, path: string, rel: string, sync: Sync): void {
  let names: string[];
  try {
    names = readdirSync(through(fd));
  } catch {
    return;
  }
  for (const name of names) {
    const from = join(path, name);
    const at = join(rel, name);
    if (sync.listed.has(from)) continue;
    // Looked at by name (quicker than through the descriptor): a file is copied only as opened below, and one skipped as unchanged is the very inode copied.
    let seen: BigIntStats;
    try {
      seen = lstatSync(from, { bigint: true });
    } catch {
      continue;
    }
    const held = sync.held.get(at);
    if (seen.isSymbolicLink()) {
      const target = readLink(from);
      if (target === null) continue;
      sync.seen.add(at);
      if (held?.kind === 'link' && held.target === target) continue;
      replace(sync, at, false, (aside) => symlinkSync(target, aside));
      sync.held.set(at, { kind: 'link', target });
      continue;
    }
    if (seen.isFile() && held?.kind === 'file' && held.key === keyOf(seen)) {
      sync.seen.add(at);
      continue;
    }
    let child: number;
    try {
      child = openSync(through(fd, name), OPEN);
    } catch {
      continue;
    }
    try {
      const opened = fstatSync(child, { bigint: true });
      const mode = Number(opened.mode);
      if (opened.isDirectory() && othersMayRead(mode, true)) {
        sync.seen.add(at);
        sync.walked.set(from, Number(opened.mtimeMs));
        if (held?.kind !== 'dir') {
          replace(sync, at, true, (aside) => mkdirSync(aside, { mode: 0o755 }));
          sync.held.set(at, { kind: 'dir' });
        }
        syncFolder(child, from, at, sync);
      } else if (opened.isFile() && othersMayRead(mode, false)) {
        sync.seen.add(at);
        // Read through the descriptor checked, never the name again.
        replace(sync, at, false, (aside) => copyFileSync(through(child), aside));
        sync.held.set(at, { kind: 'file', key: keyOf(opened) });
      }
    } finally {
      closeSync(child);
    }
  }
}

/** The copy kept of each original folder, and what it holds. */
const copies = new Map<string, { copy: string; held: Held }>();

/** Where this process keeps its copies (a tmpfs where there is one: a copy is thousands of small writes), removed when it exits. */
let home: string | null = null;

const PREFIX = 'skilltray-system-';

/** Whether process `pid` is alive. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function copiesHome(): string {
  if (home === null) {
    const base = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
    // A process killed before its exit left its copies: they are in memory, so they go now.
    for (const name of readdirSync(base)) {
      const pid = Number(/^skilltray-system-(\d+)-/.exec(name)?.[1] ?? NaN);
      if (Number.isInteger(pid) && pid !== process.pid && !alive(pid) && lstatSync(join(base, name)).uid === process.getuid?.()) {
        rmSync(join(base, name), { recursive: true, force: true });
      }
    }
    const dir = mkdtempSync(join(base, `${PREFIX}${process.pid}-`));
    home = dir;
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return home;
}

/**
 * The copy of `dir` without the `listed` paths (and what is under them), holding only what others
 * may read, brought in step with `dir` as it is now. Null when `dir` cannot be opened as a folder
 * (it is then not shown at all).
 */
export function copyShown(dir: string, listed: ReadonlySet<string>): SystemCopy | null {
  let fd: number;
  try {
    fd = openSync(dir, OPEN | constants.O_DIRECTORY);
  } catch {
    return null;
  }
  let kept = copies.get(dir);
  if (kept === undefined) {
    kept = { copy: mkdtempSync(join(copiesHome(), 'copy-')), held: new Map() };
    chmodSync(kept.copy, 0o755);
    copies.set(dir, kept);
  }
  const sync: Sync = { copy: kept.copy, listed, held: kept.held, seen: new Set(), walked: new Map() };
  try {
    sync.walked.set(dir, Number(fstatSync(fd, { bigint: true }).mtimeMs));
    syncFolder(fd, dir, '', sync);
  } finally {
    closeSync(fd);
  }
  // What is no longer there, or no longer shown, leaves the copy (a folder with all it held).
  for (const rel of [...sync.held.keys()].filter((rel) => !sync.seen.has(rel))) {
    if (!sync.held.has(rel)) continue;
    rmSync(join(sync.copy, rel), { recursive: true, force: true });
    forget(sync.held, rel);
  }
  return { dir: kept.copy, walked: sync.walked };
}
