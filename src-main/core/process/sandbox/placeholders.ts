/**
 * Placeholders for guarded names a workspace lacks (no `.git`, no `.envrc` yet): bubblewrap can
 * only keep read-only what exists, so Skilltray makes an empty folder or file there, the box binds
 * it read-only, and it is removed once the last run of this process holding it has ended — if it
 * is still empty. A `.git` that is an empty folder is not a repository to git, which looks further
 * up; an empty file is inert. (Claude Code's sandbox-runtime leaves the same mount points.)
 */
import { closeSync, lstatSync, mkdirSync, openSync, rmdirSync, unlinkSync } from 'node:fs';
import type { Mask } from './secret-paths.js';

/** Runs of this process holding each placeholder; the last one out removes it. */
const holders = new Map<string, number>();

/** True while a run of this process holds a placeholder at `path`: another run's scan sees it as absent, and shares it. */
export function isPlaceholder(path: string): boolean {
  return holders.has(path);
}

/**
 * Makes the placeholder: 'made', 'exists' (something appeared since the scan: guard it, it is not ours), or 'failed' (a folder the run cannot write either).
 */
function make(entry: Mask): 'made' | 'exists' | 'failed' {
  try {
    if (entry.kind === 'dir') mkdirSync(entry.path, { mode: 0o755 });
    else closeSync(openSync(entry.path, 'wx', 0o644));
    return 'made';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EEXIST' ? 'exists' : 'failed';
  }
}

function remove(path: string): void {
  try {
    const stat = lstatSync(path);
    if (stat.isDirectory())
      rmdirSync(path); // fails when not empty: then it is someone's now, and stays
    else if (stat.isFile() && stat.size === 0) unlinkSync(path);
  } catch {
    // already gone, or no longer empty
  }
}

/** Makes (or shares) a placeholder for each absent entry; returns those held and how to let them go. */
export function holdPlaceholders(absent: readonly Mask[]): { held: Mask[]; release: () => void } {
  const held: Mask[] = [];
  const owned: Mask[] = [];
  for (const entry of absent) {
    const count = holders.get(entry.path) ?? 0;
    const made = count === 0 ? make(entry) : 'made';
    if (made === 'failed') continue;
    held.push(entry);
    if (made === 'exists') continue;
    holders.set(entry.path, count + 1);
    owned.push(entry);
  }
  let released = false;
  return {
    held,
    release: () => {
      if (released) return;
      released = true;
      for (const { path } of owned) {
        const count = (holders.get(path) ?? 1) - 1;
        if (count > 0) {
          holders.set(path, count);
          continue;
        }
        holders.delete(path);
        remove(path);
      }
    },
  };
}
