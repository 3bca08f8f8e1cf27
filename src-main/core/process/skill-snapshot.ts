/**
 * A run's private copy of its skill: the files the content hash covers, copied into a directory only
 * this process writes, then hashed as copied. When that hash is the approved one, the copy is
 * byte-for-byte what was approved, and the run uses the copy (bound over the skill's folder in the
 * sandbox, or as the program's path without one), so an edit after the check cannot reach the run.
 */
import { chmodSync, constants, copyFileSync, mkdirSync, mkdtempSync, rm, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { manifestHash, walkSkill, type SkillFile } from '../skills/walk.js';
import type { Disposable } from './run-resources.js';

/** The directories of one run: the skill's snapshot, the run's private temp and its private home. */
export interface RunDirs extends Disposable {
  /** Holds them all; removed by `dispose`. */
  root: string;
  snapshot: string;
  temp: string;
  home: string;
  /** The content hash of the snapshot as copied. */
  hash: string;
  dispose: () => void;
}

/** Copies the skill's hashed files into `into` (read-only, execute bits kept) and returns their hash as copied. */
export function snapshotSkill(skillDir: string, into: string): string {
  const walk = walkSkill(skillDir);
  mkdirSync(into, { recursive: true });
  for (const dir of walk.dirs) mkdirSync(join(into, dir), { recursive: true });
  const copies: SkillFile[] = [];
  for (const file of walk.files) {
    const copy = join(into, file.rel);
    mkdirSync(dirname(copy), { recursive: true });
    try {
      // A clone where the filesystem can (copy-on-write), a copy elsewhere; either way the copy is private.
      copyFileSync(file.abs, copy, constants.COPYFILE_FICLONE);
      chmodSync(copy, statSync(copy).mode & 0o555);
    } catch {
      // Unreadable or gone: hashed below as 'unreadable', as the loader hashes a file it cannot read.
    }
    copies.push({ ...file, abs: copy });
  }
  return manifestHash(copies);
}

/** Run folders being removed in the background; what is left when the process exits goes then. */
const removing = new Set<string>();
process.once('exit', () => {
  for (const root of removing) rmSync(root, { recursive: true, force: true });
});

/**
 * Removes a run's folders off the event loop: the sandbox bound them as mount points, and removing
 * those while the run's mount namespace is still being torn down takes the kernel milliseconds each.
 */
function removeInBackground(root: string): void {
  removing.add(root);
  rm(root, { recursive: true, force: true, maxRetries: 3 }, (error) => {
    removing.delete(root);
    if (error) process.emitWarning(`a run's private folder could not be removed: ${error.message}`);
  });
}

/** Creates a run's private directories (mode 0700: snapshot, temp, home) and snapshots `skillDir` into them. */
export function prepareRunDirs(skillDir: string): RunDirs {
  const root = mkdtempSync(join(tmpdir(), 'skilltray-run-'));
  const dispose = (): void => removeInBackground(root);
  try {
    const snapshot = join(root, 'skill');
    const temp = join(root, 'tmp');
    const home = join(root, 'home');
    mkdirSync(temp, { mode: 0o700 });
    mkdirSync(home, { mode: 0o700 });
    const hash = snapshotSkill(skillDir, snapshot);
    return { root, snapshot, temp, home, hash, dispose };
  } catch (error) {
    dispose();
    throw error;
  }
}
