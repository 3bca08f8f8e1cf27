/**
 * The places a sandboxed run may never read, whatever its profile: Skilltray's own home (the API
 * token, state.db), the person's keys and credentials, browser profiles and keychains. Each is
 * masked at its canonical path, so a symlink (planted before or during the run) that leads there
 * finds the mask, not the secret.
 */
import { lstatSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isInside } from '../../files/paths.js';

/** Credential stores every platform keeps in the home directory. */
const COMMON = [
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.config/gcloud',
  '.kube',
  '.docker',
  '.netrc',
  '.git-credentials',
  '.config/gh',
  '.password-store',
  '.npmrc',
  '.pypirc',
];

/** Browser profiles (cookies, saved passwords) and keyrings on Linux. */
const LINUX = [
  '.mozilla',
  '.config/google-chrome',
  '.config/chromium',
  '.config/BraveSoftware',
  '.config/microsoft-edge',
  '.config/vivaldi',
  '.config/opera',
  'snap/firefox',
  'snap/chromium',
  '.var/app/org.mozilla.firefox',
  '.var/app/com.google.Chrome',
  '.local/share/keyrings',
  '.local/share/kwalletd',
];

/** Browser profiles and keychains on macOS. */
const DARWIN = [
  'Library/Keychains',
  'Library/Cookies',
  'Library/Safari',
  'Library/Application Support/Google/Chrome',
  'Library/Application Support/Firefox',
  'Library/Application Support/BraveSoftware',
  'Library/Application Support/Microsoft Edge',
  'Library/Application Support/Chromium',
];

/** One path a run must not read, canonical, and whether it is a directory (masked empty) or a file (masked as /dev/null). */
export interface Mask {
  path: string;
  kind: 'dir' | 'file';
}

export interface SecretPlaces {
  /** The person's home directory (HOME). */
  userHome: string;
  /** Skilltray's home: its token, state.db and runtime data. */
  skilltrayHome: string;
  /** Where the session keeps its sockets (XDG_RUNTIME_DIR: keyring, agents, the D-Bus session bus); undefined when unset. */
  runtimeDir?: string | undefined;
  platform: NodeJS.Platform;
}

/** The secret paths relative to the home directory on `platform`, as written above. */
export function secretHomePaths(platform: NodeJS.Platform): string[] {
  return [...COMMON, ...(platform === 'darwin' ? DARWIN : platform === 'linux' ? LINUX : [])];
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
