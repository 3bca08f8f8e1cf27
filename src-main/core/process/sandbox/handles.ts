/**
 * Handles on what a run's box is made of: a folder or file opened once, whose path is what the kernel
 * says the descriptor is (Linux: /proc/self/fd/N), and whose device and inode say which one it is.
 * Every decision about a run's folder and the box itself (bubblewrap binds by descriptor) use the
 * handle, so nothing is looked up by name again between deciding and running. Where no descriptor
 * can be followed (macOS), the path is the canonical one and each later use checks the identity.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, realpathSync, statSync, type BigIntStats } from 'node:fs';
import { dirname, join } from 'node:path';

/** Which file a path is: its device and inode, as one comparable key. */
export type Identity = string;

/** An open file or folder of the box. */
export interface Handle {
  fd: number;
  /** Where it is, as the kernel names the descriptor (canonical: no symlink in it). */
  path: string;
  id: Identity;
  kind: 'dir' | 'file';
}

/** Descriptors can be followed as paths (`/proc/self/fd/N/name`): lookups below a handle stay in the folder it is. */
export const FOLLOWS_DESCRIPTORS = process.platform === 'linux';

/** Windows cannot open a folder as a file: a handle there is its canonical path and identity alone (no run there is contained). */
const PATHS_ONLY = process.platform === 'win32';

/** A handle without a descriptor: what `path` leads to now, by its canonical path and identity. */
function handleByPath(path: string, follow: boolean): Handle | null {
  try {
    const stats = follow ? statSync(path, { bigint: true }) : lstatSync(path, { bigint: true });
    const kind = stats.isDirectory() ? 'dir' : stats.isFile() ? 'file' : null;
    return kind === null ? null : { fd: -1, path: follow ? realpathSync(path) : path, id: identityOf(stats), kind };
  } catch {
    return null;
  }
}

const OPEN = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;
const NOFOLLOW = constants.O_NOFOLLOW;

/** The identity of stats (read with bigint: inode numbers may not fit a double). */
export function identityOf(stats: BigIntStats): Identity {
  return `${stats.dev}:${stats.ino}`;
}

/** The identity of what `path` leads to now (following links), or null when nothing is there. */
export function identityAt(path: string): Identity | null {
  try {
    return identityOf(statSync(path, { bigint: true }));
  } catch {
    return null;
  }
}

/** The path of `name` inside the folder `fd` is, whatever that folder's path is now (Linux only). */
export function through(fd: number, name = ''): string {
  return name === '' ? `/proc/self/fd/${fd}` : `/proc/self/fd/${fd}/${name}`;
}

/** A handle on an open descriptor, or null (and the descriptor closed) when it is neither a folder nor a regular file. */
function handleOf(fd: number, path: string): Handle | null {
  const stats = fstatSync(fd, { bigint: true });
  const kind = stats.isDirectory() ? 'dir' : stats.isFile() ? 'file' : null;
  if (kind === null) {
    closeSync(fd);
    return null;
  }
  return { fd, path, id: identityOf(stats), kind };
}

/** The path the kernel gives an open descriptor, or null when what it was opened on is gone. */
function kernelPath(fd: number): string | null {
  const path = readlinkSync(through(fd));
  return path.startsWith('/') && !path.endsWith(' (deleted)') ? path : null;
}

/**
 * Opens `path` once, following its links, and returns the handle on what it leads to: its real path
 * is where the kernel says the descriptor is. Null when nothing is there, it may not be opened, or
 * it is neither a folder nor a regular file (a socket, a device, a FIFO: never opened further).
 */
export function openPath(path: string): Handle | null {
  if (PATHS_ONLY) return handleByPath(path, true);
  let fd: number;
  let real = path;
  try {
    if (!FOLLOWS_DESCRIPTORS) {
      real = realpathSync(path);
      // Only folders and files are opened: opening a device can act on it.
      if (!lstatSync(real).isDirectory() && !lstatSync(real).isFile()) return null;
    }
    fd = openSync(real, OPEN | (FOLLOWS_DESCRIPTORS ? 0 : NOFOLLOW));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ENXIO' || code === 'ELOOP' || code === 'EACCES') return null;
    throw error;
  }
  const handle = handleOf(fd, real);
  if (handle === null || !FOLLOWS_DESCRIPTORS) return handle;
  const named = kernelPath(fd);
  if (named === null) {
    closeSync(fd);
    return null;
  }
  return { ...handle, path: named };
}

/** Opens `name` (one entry, never a link) inside the folder `parent` is; null when absent, a link, or neither a folder nor a file. */
export function openIn(parent: Handle, name: string): Handle | null {
  const path = join(parent.path, name);
  if (PATHS_ONLY) return handleByPath(path, false);
  let fd: number;
  try {
    fd = openSync(FOLLOWS_DESCRIPTORS ? through(parent.fd, name) : path, OPEN | NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ELOOP' || code === 'ENXIO' || code === 'ENOTDIR' || code === 'EACCES') return null;
    throw error;
  }
  return handleOf(fd, path);
}

/** Closes a handle (once: a closed descriptor number may already be someone else's). */
export function closeHandle(handle: Handle | null | undefined): void {
  if (handle === null || handle === undefined || handle.fd < 0) return;
  try {
    closeSync(handle.fd);
  } catch {
    // already closed
  }
  handle.fd = -1;
}

/** True while the handle's path still leads to the same file (the check where a descriptor cannot be bound, as under Seatbelt). */
export function stillAt(handle: Handle): boolean {
  return identityAt(handle.path) === handle.id;
}

/** One folder on the way from a handle up to `/`: its path (as the handle's path names it) and identity. */
export interface Ancestor {
  path: string;
  id: Identity;
}

/**
 * The folder a handle is and each folder above it, up to `/`, each with its identity found by going
 * up from the descriptor itself (`..`), so an alias (a bind mount) of a home shows as that home.
 */
export function ancestry(handle: Handle): Ancestor[] {
  const chain: Ancestor[] = [{ path: handle.path, id: handle.id }];
  if (handle.fd < 0) {
    for (let path = dirname(handle.path); chain.at(-1)?.path !== path; path = dirname(path)) chain.push({ path, id: identityAt(path) ?? path });
    return chain;
  }
  let path = handle.path;
  let fd = handle.fd;
  try {
    while (dirname(path) !== path) {
      const parentPath = dirname(path);
      const up = FOLLOWS_DESCRIPTORS ? through(fd, '..') : parentPath;
      const next = openSync(up, constants.O_RDONLY | constants.O_DIRECTORY);
      if (fd !== handle.fd) closeSync(fd);
      fd = next;
      chain.push({ path: parentPath, id: identityOf(fstatSync(fd, { bigint: true })) });
      path = parentPath;
    }
  } finally {
    if (fd !== handle.fd) closeSync(fd);
  }
  return chain;
}
