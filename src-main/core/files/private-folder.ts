/**
 * Skilltray's home is the person's alone: state.db holds every run's output, the token opens the
 * API. So its folder is 0700 and nothing in it is open to anyone else (files 0600, a program 0700,
 * folders 0700), checked whenever a process opens the home and narrowed where it is wider: a home
 * made before this rule (0755, state.db 0644), a file another tool made with the default umask.
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync, type Stats } from 'node:fs';
import { join } from 'node:path';

/** Group and others: none of their bits may be set on anything in a private folder. */
const OTHERS = 0o077;
const STICKY = 0o1000;

/** Folders already checked by this process: a command opens its home more than once (the library, state.db). */
const checked = new Set<string>();

/** Whether this process may and should change `stats`'s mode: it owns it (root owns nothing of another's here). */
function ours(stats: Stats): boolean {
  const uid = process.geteuid?.();
  return uid === undefined || stats.uid === uid;
}

/**
 * Narrows `path` to its owner (never a symlink: its target is not the home's to change). A folder
 * found open is walked whole, since anything in it could be reached; `deep` walks a closed one too.
 */
function narrow(path: string, stats: Stats, repaired: string[], deep = false): void {
  if (stats.isSymbolicLink() || !ours(stats)) return;
  const open = (stats.mode & OTHERS) !== 0;
  if (open) {
    try {
      // A folder keeps rwx for its owner; a file its owner's bits, so a pack's script stays runnable.
      chmodSync(path, stats.isDirectory() ? 0o700 : stats.mode & 0o700);
      repaired.push(path);
    } catch {
      return; // a read-only filesystem or a file gone meanwhile: nothing to narrow now
    }
  }
  if (!stats.isDirectory() || !(open || deep)) return;
  let names: string[];
  try {
    names = readdirSync(path);
  } catch {
    return;
  }
  for (const name of names) {
    const child = join(path, name);
    try {
      narrow(child, lstatSync(child), repaired, true);
    } catch {
      // gone while we looked
    }
  }
}

/**
 * Makes `dir` (created 0700 when absent) private to its owner: the folder 0700 and each entry in it
 * no wider than its owner, narrowed with everything inside where it was wider. Once the top is
 * closed, what lies deeper is unreachable to others, so only a folder found open is walked whole.
 * A folder with the sticky bit (a shared temp such as /tmp), or one this process does not own, is
 * left as it is. Returns the paths it narrowed.
 */
export function keepPrivate(dir: string): string[] {
  if (process.platform === 'win32' || checked.has(dir)) return [];
  const repaired: string[] = [];
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stats = statSync(dir);
    if (!stats.isDirectory() || (stats.mode & STICKY) !== 0 || !ours(stats)) return [];
    if ((stats.mode & OTHERS) !== 0) narrow(dir, stats, repaired);
    else for (const name of readdirSync(dir)) narrow(join(dir, name), lstatSync(join(dir, name)), repaired);
  } catch {
    return repaired; // a home that cannot be made or read: whoever opens it next says why (E9xx)
  }
  checked.add(dir);
  return repaired;
}
