/**
 * The other half of the writing allow-list. Mounts keep every hidden entry that existed read-only,
 * but cannot stop a tool from making new ones (bubblewrap 0.8 has no overlay): a new `sub/.envrc`, a
 * `build/cache/.git`, or a folder moved away with a fresh `.git` put where the old one was. So when a
 * writing run ends, its folder is walked again through its handle, and every hidden path there that
 * the run did not declare, and that is not the very entry that was there before (same path, same
 * device and inode), is removed; the run records what. A path another live run of this process
 * declares, and Skilltray's own placeholders, are left alone.
 */
import { readdirSync, rmSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { DEPENDENCY_DIRS } from '../../skills/box-fields.js';
import { closeHandle, FOLLOWS_DESCRIPTORS, openIn, through, type Handle, type Identity } from './handles.js';
import { isPlaceholder } from './placeholders.js';
import { entryIdentity, HOLD_DEPTH } from './workspace-scan.js';

/** Hidden paths (relative) each live run of this process declares it writes, by workspace identity: the sweep of another run leaves them. */
const declaredInFlight = new Map<Identity, Map<string, number>>();

/** Registers what a run declares it writes in a workspace while it runs; returns how to let it go. */
export function declareWhileRunning(workspace: Identity, writes: readonly string[]): () => void {
  const paths = declaredInFlight.get(workspace) ?? new Map<string, number>();
  declaredInFlight.set(workspace, paths);
  for (const path of writes) paths.set(path, (paths.get(path) ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    for (const path of writes) {
      const count = (paths.get(path) ?? 1) - 1;
      if (count > 0) paths.set(path, count);
      else paths.delete(path);
    }
    if (paths.size === 0) declaredInFlight.delete(workspace);
  };
}

/** What the sweep compares with: every hidden entry there was before the run (relative path → identity), and what to leave. */
export interface SweepBaseline {
  present: ReadonlyMap<string, Identity>;
  /** Mount points below the folder (absolute): never entered. */
  mounts: readonly string[];
}

function removeEntry(folder: Handle, name: string): void {
  rmSync(FOLLOWS_DESCRIPTORS ? through(folder.fd, name) : join(folder.path, name), { recursive: true, force: true });
}

/**
 * Removes, from the folder `workspace` is, every hidden path the run made or replaced that it did not
 * declare (an entry that was there before, even moved elsewhere by the run, is the person's and
 * stays), and every folder deeper than a writing run may start with (the scan refused deeper ones,
 * so the run made it); returns what was removed, relative, sorted.
 */
export function sweepWorkspace(workspace: Handle, baseline: SweepBaseline, writes: readonly string[]): string[] {
  const removed: string[] = [];
  const declared = new Set(writes);
  const others = declaredInFlight.get(workspace.id);
  const before = new Set(baseline.present.values());
  const sweep = (folder: Handle, rel: string, depth: number): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(FOLLOWS_DESCRIPTORS ? through(folder.fd) : folder.path, { withFileTypes: true });
    } catch {
      return; // gone, or made unreadable by the run: nothing it holds can be reached to be removed
    }
    for (const entry of entries) {
      const entryRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
      const path = join(folder.path, entry.name);
      if (baseline.mounts.includes(path) || DEPENDENCY_DIRS.includes(entry.name)) continue;
      if (entry.name.startsWith('.')) {
        if (declared.has(entryRel) || (others?.has(entryRel) ?? false) || isPlaceholder(path)) continue;
        const id = entryIdentity(folder, entry.name);
        if (id === null || before.has(id)) continue;
        removeEntry(folder, entry.name);
        removed.push(entryRel);
      } else if (entry.isDirectory()) {
        if (depth >= HOLD_DEPTH) {
          removeEntry(folder, entry.name);
          removed.push(entryRel);
          continue;
        }
        const child = openIn(folder, entry.name);
        if (child === null) continue;
        try {
          sweep(child, entryRel, depth + 1);
        } finally {
          closeHandle(child);
        }
      }
    }
  };
  sweep(workspace, '', 0);
  return removed.sort();
}
