/**
 * What a run's folder holds that the box must treat apart, found from the run's handle on it (every
 * folder entered by descriptor, never through a link): for a writing run, every hidden entry at any
 * depth (`.git`, `.cargo`, `.envrc`, `sub/.claude`…), which stays read-only unless the skill declares
 * that exact path, and the dependency folders (node_modules), read-only unless declared; the Unix
 * sockets a read-only bind would still let a tool connect to; and each `.git` file that names a git
 * folder outside (worktrees, submodules, or a hostile `gitdir:`), which adds nothing to the box: the
 * approval only says git will see nothing there. Nothing in the folder adds a bind.
 */
import { closeSync, constants, lstatSync, openSync, readdirSync, readlinkSync, readSync, type Dirent } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { isInside } from '../../files/paths.js';
import { DEPENDENCY_DIRS, INNER_GUARDS } from '../../skills/box-fields.js';
import { closeHandle, FOLLOWS_DESCRIPTORS, identityOf, openIn, openPath, through, type Handle, type Identity } from './handles.js';

/** How far a read-only run's scan looks (for sockets and `.git` files only): folders below the top, and entries in all. */
export const LOOK_DEPTH = 4;
export const LOOK_ENTRIES = 20_000;

/**
 * How much a writing run's scan may take: it must see every hidden entry, so a folder larger or
 * deeper than this is refused (E513) rather than half held.
 */
export const HOLD_DEPTH = 256;
export const HOLD_ENTRIES = 100_000;

/** One entry the box binds from the folder: where it is below the top, and the handle it is bound by. */
export interface HeldEntry {
  rel: string;
  id: Identity;
  handle: Handle;
}

/** What a scan found. */
export interface FolderScan {
  /** Hidden entries (outermost) and dependency folders a writing run keeps read-only, each opened. */
  readOnly: HeldEntry[];
  /** Declared paths that exist, opened: writable inside a read-only hidden folder, or a dependency folder. */
  declared: HeldEntry[];
  /** What stays read-only inside a declared path (`.git/hooks`, `.git/config`), opened. */
  inner: HeldEntry[];
  /** Unix sockets (absolute), to cover. */
  sockets: string[];
  /** `.git` files that name a git folder outside the folder, relative: git sees nothing there. */
  gitOutside: string[];
  /** Hidden symlinks whose target in the folder is missing (absolute): a placeholder holds it. */
  dangling: string[];
  /** Why the scan did not see everything (too many entries, too deep, an entry that cannot be opened), or null: a writing run is then refused. */
  incomplete: string | null;
  /** Every hidden entry and dependency folder of a writing run's folder (relative path → identity): what the sweep keeps. */
  present: Map<string, Identity>;
}

/** What the scan is for. */
export interface ScanOptions {
  /** A writing run: hidden entries are held, and the scan must see everything. */
  writable: boolean;
  /** Hidden paths (and dependency folders) the skill declares it writes, relative. */
  writes: readonly string[];
  /** Mount points below the folder (absolute): not entered (box-places masks or holds them whole). */
  mounts: readonly string[];
}

const isHidden = (name: string): boolean => name.startsWith('.');

/** The first bytes of a `.git` file: where its `gitdir:` line leads, resolved against its folder, or null. */
function gitdirOf(folder: Handle, folderPath: string): string | null {
  let fd: number;
  try {
    fd = openSync(
      FOLLOWS_DESCRIPTORS ? through(folder.fd, '.git') : join(folderPath, '.git'),
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    );
  } catch {
    return null;
  }
  const buffer = Buffer.alloc(4096);
  let read = 0;
  try {
    read = readSync(fd, buffer, 0, buffer.length, 0);
  } catch {
    // a folder named .git, or unreadable
  } finally {
    closeSync(fd);
  }
  const match = /^gitdir: (.+)$/m.exec(buffer.subarray(0, read).toString('utf8'));
  return match === null ? null : resolve(folderPath, (match[1] ?? '').trim());
}

/** Sockets directly in a folder not entered (git's fsmonitor daemon keeps one in .git). */
function socketsIn(handle: Handle, scan: FolderScan): void {
  try {
    for (const entry of readdirSync(FOLLOWS_DESCRIPTORS ? through(handle.fd) : handle.path, { withFileTypes: true })) {
      if (entry.isSocket()) scan.sockets.push(join(handle.path, entry.name));
    }
  } catch {
    // unreadable: nothing to hide that the run could reach
  }
}

/** The identity of `name` in `folder`, not following a link, or null when it is gone. */
export function entryIdentity(folder: Handle, name: string): Identity | null {
  try {
    return identityOf(lstatSync(FOLLOWS_DESCRIPTORS ? through(folder.fd, name) : join(folder.path, name), { bigint: true }));
  } catch {
    return null;
  }
}

/** Holds `rel` (opened in `folder`) read-only or writable; a writing run that cannot open it is incomplete. */
function hold(folder: Handle, name: string, rel: string, into: HeldEntry[], scan: FolderScan): Handle | null {
  const handle = openIn(folder, name);
  if (handle === null) {
    if (scan.incomplete === null) scan.incomplete = `'${rel}' cannot be opened to be kept read-only`;
    return null;
  }
  into.push({ rel, id: handle.id, handle });
  return handle;
}

/** A declared path below a held hidden folder (`.github/workflows` in `.github`): opened step by step, writable. */
function holdDeclaredInside(top: Handle, topRel: string, path: string, scan: FolderScan): void {
  let folder = top;
  const steps = path.slice(topRel.length + 1).split('/');
  const opened: Handle[] = [];
  for (const [i, step] of steps.entries()) {
    const next = openIn(folder, step);
    if (next === null) break;
    if (i === steps.length - 1) scan.declared.push({ rel: path, id: next.id, handle: next });
    else opened.push((folder = next));
  }
  for (const handle of opened) closeHandle(handle);
}

/** git's hooks and config inside a declared `.git`: read-only unless declared too. */
function holdInnerGuards(handle: Handle, rel: string, writes: ReadonlySet<string>, scan: FolderScan): void {
  for (const inner of INNER_GUARDS.get(rel) ?? []) {
    if (writes.has(inner)) continue;
    const found = openIn(handle, inner.slice(rel.length + 1));
    if (found !== null) scan.inner.push({ rel: inner, id: found.id, handle: found });
  }
}

/** A hidden link in a writing run's folder: where it leads inside the folder is held read-only (or, when missing, by a placeholder). */
function holdLinkTarget(root: Handle, folder: Handle, name: string, scan: FolderScan): void {
  let target: string;
  try {
    target = resolve(folder.path, readlinkSync(FOLLOWS_DESCRIPTORS ? through(folder.fd, name) : join(folder.path, name)));
  } catch {
    return;
  }
  if (!isInside(root.path, target)) return;
  const handle = openPath(target);
  if (handle === null) {
    // Dangling: a write through the link would create the target, so a placeholder holds it (when its folder is there).
    const parent = openPath(dirname(target));
    if (parent?.kind === 'dir' && isInside(root.path, parent.path)) scan.dangling.push(join(parent.path, basename(target)));
    closeHandle(parent);
    return;
  }
  if (isInside(root.path, handle.path)) scan.readOnly.push({ rel: relative(root.path, handle.path), id: handle.id, handle });
  else closeHandle(handle);
}

/** One entry of a folder: held (a writing run's hidden entries and dependency folders), entered (returned), or passed by. */
function visit(root: Handle, folder: Handle, entry: Dirent, rel: string, options: ScanOptions, writes: ReadonlySet<string>, scan: FolderScan): Handle | null {
  if (options.mounts.includes(join(folder.path, entry.name))) return null;
  const hidden = isHidden(entry.name);
  const dependency = DEPENDENCY_DIRS.includes(entry.name);
  if (!options.writable) {
    // A read-only run only looks for sockets and .git files: not into dependencies, nor a repository's own folder.
    if (dependency || !entry.isDirectory()) return null;
    const handle = openIn(folder, entry.name);
    if (handle !== null && entry.name === '.git') {
      socketsIn(handle, scan);
      closeHandle(handle);
      return null;
    }
    return handle;
  }
  if (!hidden && !dependency) return entry.isDirectory() ? openIn(folder, entry.name) : null;
  const id = entryIdentity(folder, entry.name);
  if (id !== null) scan.present.set(rel, id);
  if (entry.isSymbolicLink()) {
    if (hidden) holdLinkTarget(root, folder, entry.name, scan);
    return null;
  }
  if (writes.has(rel)) {
    const declared = hold(folder, entry.name, rel, scan.declared, scan);
    if (declared !== null) holdInnerGuards(declared, rel, writes, scan);
    return null;
  }
  if (!entry.isDirectory() && !entry.isFile()) return null;
  const held = hold(folder, entry.name, rel, scan.readOnly, scan);
  if (held !== null && entry.isDirectory()) {
    socketsIn(held, scan);
    for (const inner of [...writes].filter((write) => write.startsWith(`${rel}/`))) holdDeclaredInside(held, rel, inner, scan);
  }
  return null;
}

/**
 * Scans the folder `root` is, breadth-first through descriptors. A read-only run looks LOOK_DEPTH
 * folders deep and at LOOK_ENTRIES entries (sockets, `.git` files); a writing run looks everywhere
 * (within HOLD_DEPTH and HOLD_ENTRIES, or `incomplete` says why not) and opens every hidden entry.
 * The handles in `readOnly`, `declared` and `inner` are the caller's to close.
 */
export function scanFolder(root: Handle, options: ScanOptions): FolderScan {
  const scan: FolderScan = { readOnly: [], declared: [], inner: [], sockets: [], gitOutside: [], dangling: [], incomplete: null, present: new Map() };
  const writes = new Set(options.writes);
  const maxDepth = options.writable ? HOLD_DEPTH : LOOK_DEPTH;
  const maxEntries = options.writable ? HOLD_ENTRIES : LOOK_ENTRIES;
  let level: { handle: Handle; rel: string }[] = [{ handle: root, rel: '' }];
  let seen = 0;
  for (let depth = 0; level.length > 0; depth++) {
    const next: { handle: Handle; rel: string }[] = [];
    for (const { handle, rel } of level) {
      let entries: Dirent[] = [];
      try {
        entries = readdirSync(FOLLOWS_DESCRIPTORS ? through(handle.fd) : handle.path, { withFileTypes: true });
      } catch {
        if (options.writable && scan.incomplete === null) scan.incomplete = `'${rel || '.'}' cannot be read`;
      }
      for (const entry of entries) {
        if (++seen > maxEntries && scan.incomplete === null) scan.incomplete = `it holds more than ${maxEntries} files and folders`;
        const entryRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
        if (entry.isSocket()) scan.sockets.push(join(handle.path, entry.name));
        else if (entry.name === '.git' && entry.isFile()) {
          const gitdir = gitdirOf(handle, handle.path);
          if (gitdir !== null && !isInside(root.path, gitdir)) scan.gitOutside.push(entryRel);
        }
        if (scan.incomplete !== null) continue;
        const enter = visit(root, handle, entry, entryRel, options, writes, scan);
        if (enter === null) continue;
        if (depth < maxDepth) next.push({ handle: enter, rel: entryRel });
        else {
          closeHandle(enter);
          if (options.writable && scan.incomplete === null) scan.incomplete = `it is more than ${maxDepth} folders deep`;
        }
      }
      if (handle !== root) closeHandle(handle);
    }
    level = next;
    if (scan.incomplete !== null) {
      for (const rest of level) closeHandle(rest.handle);
      level = [];
    }
  }
  return scan;
}
