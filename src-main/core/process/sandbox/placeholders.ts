/**
 * Placeholders for the names other programs act on that a writing run's folder lacks at its top (no
 * `.git`, no `.envrc` yet), and for the missing target of a hidden link: bubblewrap can only keep
 * read-only what exists, so Skilltray makes an empty folder or file there (through the run's handle
 * on its folder, never by a path looked up again), the box binds it read-only, and it is removed once
 * the last run of this process holding it has ended — if it is still empty. A `.git` that is an empty
 * folder is not a repository to git, which looks further up; an empty file is inert. Hidden paths
 * made anywhere else are the post-run sweep's (workspace-sweep.ts).
 */
import { closeSync, lstatSync, mkdirSync, openSync, rmdirSync, unlinkSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { closeHandle, FOLLOWS_DESCRIPTORS, openIn, through, type Handle } from './handles.js';

/** One placeholder: where it is (absolute), and whether it is a folder or a file. */
export interface Placeholder {
  path: string;
  kind: 'dir' | 'file';
}

/** Runs of this process holding each placeholder; the last one out removes it. */
const holders = new Map<string, number>();

/** True while a run of this process holds a placeholder at `path`: another run's scan sees it as made by Skilltray, and shares it. */
export function isPlaceholder(path: string): boolean {
  return holders.has(path);
}

/** The folder a placeholder goes in, opened from the workspace's handle one folder at a time, never through a link; null when gone. */
function folderOf(workspace: Handle, entry: Placeholder): Handle | null {
  const steps = relative(workspace.path, dirname(entry.path))
    .split('/')
    .filter((step) => step !== '');
  let folder: Handle | null = workspace;
  for (const step of steps) {
    const next: Handle | null = openIn(folder, step);
    if (folder !== workspace) closeHandle(folder);
    if (next?.kind !== 'dir') {
      closeHandle(next);
      return null;
    }
    folder = next;
  }
  return folder;
}

/** `name` in `folder` as reached through its descriptor. */
const inFolder = (folder: Handle, name: string): string => (FOLLOWS_DESCRIPTORS ? through(folder.fd, name) : join(folder.path, name));

/** Makes the placeholder: 'made', 'exists' (something appeared since the scan: held, not ours), or 'failed' (a folder the run cannot write either). */
function make(folder: Handle, entry: Placeholder): 'made' | 'exists' | 'failed' {
  const path = inFolder(folder, basename(entry.path));
  try {
    if (entry.kind === 'dir') mkdirSync(path, { mode: 0o755 });
    else closeSync(openSync(path, 'wx', 0o644));
    return 'made';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EEXIST' ? 'exists' : 'failed';
  }
}

function remove(folder: Handle, entry: Placeholder): void {
  const path = inFolder(folder, basename(entry.path));
  try {
    const stat = lstatSync(path);
    if (stat.isDirectory())
      rmdirSync(path); // fails when not empty: then it is someone's now, and stays
    else if (stat.isFile() && stat.size === 0) unlinkSync(path);
  } catch {
    // already gone, or no longer empty
  }
}

/**
 * Makes (or shares) a placeholder for each absent entry of the workspace `workspace` is, and opens
 * each (the box binds it by descriptor); returns those held and how to let them go (closing them).
 */
export function holdPlaceholders(workspace: Handle, absent: readonly Placeholder[]): { held: (Placeholder & { handle: Handle })[]; dispose: () => void } {
  const held: (Placeholder & { handle: Handle })[] = [];
  const owned: { entry: Placeholder; folder: Handle }[] = [];
  const folders: Handle[] = [];
  for (const entry of absent) {
    const folder = folderOf(workspace, entry);
    if (folder === null) continue;
    if (folder !== workspace) folders.push(folder);
    const count = holders.get(entry.path) ?? 0;
    const made = count === 0 ? make(folder, entry) : 'made';
    if (made === 'failed') continue;
    if (made === 'made') {
      holders.set(entry.path, count + 1);
      owned.push({ entry, folder });
    }
    const handle = openIn(folder, basename(entry.path));
    if (handle !== null) held.push({ ...entry, handle });
  }
  let released = false;
  return {
    held,
    dispose: () => {
      if (released) return;
      released = true;
      for (const { handle } of held) closeHandle(handle);
      for (const { entry, folder } of owned) {
        const count = (holders.get(entry.path) ?? 1) - 1;
        if (count > 0) {
          holders.set(entry.path, count);
          continue;
        }
        holders.delete(entry.path);
        remove(folder, entry);
      }
      for (const folder of folders) closeHandle(folder);
    },
  };
}
