/**
 * The masks over the places a sandboxed run may never read, whatever its profile: Skilltray's own
 * home (the API token, state.db), the person's keys and credentials, browser profiles and keychains
 * (the list: core/files/secret-places.ts). Each is masked at its canonical path, so a symlink
 * (planted before or during the run) that leads there finds the mask, not the secret.
 */
import { lstatSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isInside } from '../../files/paths.js';
import { secretHomePaths, type SecretPlaces } from '../../files/secret-places.js';

export { secretHomePaths, type SecretPlaces } from '../../files/secret-places.js';

/** One path a run must not read, canonical, and whether it is a directory (masked empty) or a file (masked as /dev/null). */
export interface Mask {
  path: string;
  kind: 'dir' | 'file';
}

function existing(path: string): Mask | null {
  try {
    lstatSync(path);
    const real = realpathSync(path);
    return { path: real, kind: statSync(real).isDirectory() ? 'dir' : 'file' };
  } catch {
    return null; // absent (nothing to read), or a dangling symlink (nothing behind it to read)
  }
}

/**
 * The masks for these places that exist now, canonical, outermost only (a mask inside another is
 * already hidden by it), in a stable order.
 */
export function secretMasks(places: SecretPlaces): Mask[] {
  const candidates = [
    places.skilltrayHome,
    ...secretHomePaths(places.platform).map((rel) => join(places.userHome, rel)),
    ...(places.runtimeDir === undefined || places.runtimeDir === '' ? [] : [places.runtimeDir]),
  ];
  const found = candidates.map(existing).filter((mask): mask is Mask => mask !== null);
  const unique = [...new Map(found.map((mask) => [mask.path, mask])).values()];
  return unique
    .filter((mask) => !unique.some((other) => other !== mask && other.kind === 'dir' && isInside(other.path, mask.path)))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
