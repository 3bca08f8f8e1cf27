/**
 * A run's box as one value, resolved once, before policy decides: the workspace opened once as a
 * handle, each declared read opened once at its real path, each program bind opened once, and what
 * the workspace holds that the approval must say (a `.git` naming a folder outside it). Policy, the
 * approval, history and the sandbox all read this value; nothing is looked up by name again between
 * deciding and running (the sandbox binds these handles by descriptor). A bind that would show a
 * secret, Skilltray's home, a whole home or a kernel tree is refused here (E512), naming its real path.
 */
import { templateErrors } from '../../../shared/error-messages/templates.js';
import { isInside } from '../../files/paths.js';
import { secretReach } from '../../files/secret-places.js';
import { ancestry, closeHandle, identityAt, openPath, type Ancestor, type Handle } from './handles.js';
import { programBinds } from './program-binds.js';
import { secretMasks } from './secret-paths.js';
import { scanFolder } from './workspace-scan.js';
import { isAbsolute, join } from 'node:path';
import type { Disposable } from '../run-resources.js';

/** A declared read: as written, and (when it exists) the handle on where it really is. */
export interface DeclaredRead {
  declared: string;
  handle: Handle | null;
}

/** One run's box, open. */
export interface BoxSpec extends Disposable {
  /** The run's folder, opened once. */
  workspace: Handle;
  /** The folder and each above it to `/`, by identity: what the workspace guard decides on. */
  chain: Ancestor[];
  reads: DeclaredRead[];
  /** Program binds (the program, its interpreter, an /opt folder), opened. */
  programs: Handle[];
  /** `.git` files in the folder that name a git folder outside it (relative): git sees nothing there. */
  gitOutside: string[];
  /** Closes every handle; the spec is spent. */
  dispose(): void;
}

/** What the box is resolved from, beyond its folder: the skill's declarations as approved, the program resolved once, and the places to protect. */
export interface BoxRequest {
  reads: readonly string[];
  programPath: string | null;
  skillDir: string;
  userHome: string;
  skilltrayHome: string;
  runtimeDir?: string | undefined;
  platform: NodeJS.Platform;
  /** Other people's home folders: a bind may not be or hold one either. */
  otherHomes: readonly string[];
}

/** Kernel and runtime trees: sockets and devices, never a file to bind. */
const KERNEL_TREES = ['/proc', '/sys', '/dev', '/run', '/var/run'];

/** The paths above a bound file or folder with their identities (a file's own identity first). */
function chainOf(handle: Handle): Ancestor[] {
  if (handle.kind === 'dir') return ancestry(handle);
  const parent = openPath(join(handle.path, '..'));
  if (parent === null) return [{ path: handle.path, id: handle.id }];
  try {
    return [{ path: handle.path, id: handle.id }, ...ancestry(parent)];
  } finally {
    closeHandle(parent);
  }
}

/** Why binding `handle` would show what no box may (a secret, Skilltray's home, a whole home, a kernel tree), or null. */
function bindRefusal(handle: Handle, request: BoxRequest): string | null {
  if (handle.path === '/') return 'the root of the filesystem';
  const kernel = KERNEL_TREES.find((tree) => isInside(tree, handle.path));
  if (kernel !== undefined) return `in ${kernel}, where the kernel and running services keep devices and sockets`;
  const chain = chainOf(handle);
  const ids = new Set(chain.map((step) => step.id));
  const secrets = secretMasks({ userHome: request.userHome, skilltrayHome: request.skilltrayHome, runtimeDir: request.runtimeDir, platform: request.platform });
  for (const secret of secrets) {
    const id = identityAt(secret.path);
    if (id !== null && ids.has(id)) return secret.path === request.skilltrayHome ? "Skilltray's own data" : `a secret (${secret.path}), or inside one`;
  }
  const homes = [request.userHome, ...request.otherHomes];
  for (const home of homes) {
    const id = identityAt(home);
    if (id === handle.id) return home === request.userHome ? 'your whole home folder' : `the home folder ${home}`;
    // A folder holding a home: the home's own chain passes through it.
    const holder = openPath(home);
    if (holder === null) continue;
    try {
      if (handle.kind === 'dir' && ancestry(holder).some((step) => step.id === handle.id)) return `a folder holding the home folder ${home}`;
    } finally {
      closeHandle(holder);
    }
  }
  // By its real path too: another person's keys, a credential store at any depth, the runtime folder (one that only holds a secret gets masks inside).
  const reach = secretReach(handle.path, request);
  if (reach !== null && reach.relation !== 'holds') return reach.relation === 'is' ? reach.place : `inside ${reach.place}`;
  return null;
}

/** Opens a bind (kept in `opened`) and checks it: E512, naming where it leads, when no box may show it. */
function openBind(path: string, request: BoxRequest, opened: Handle[], kind: 'read' | 'program'): Handle | null {
  const handle = openPath(path);
  if (handle === null) return null;
  opened.push(handle);
  const why = bindRefusal(handle, request);
  if (why !== null) throw templateErrors.bindRefused(kind, path, handle.path, why);
  return handle;
}

/** The run's folder, opened once: its handle, and each folder from it up to `/` by identity (what the workspace guard decides on). */
export interface OpenWorkspace {
  handle: Handle;
  chain: Ancestor[];
}

/** Opens the caller's folder once (E510 when it is not an absolute path to a folder that can be opened). */
export function openWorkspace(cwd: string): OpenWorkspace {
  let handle: Handle | null = null;
  try {
    handle = isAbsolute(cwd) ? openPath(cwd) : null;
    if (handle === null || handle.kind !== 'dir') throw templateErrors.invalidCwd(cwd);
    return { handle, chain: ancestry(handle) };
  } catch (error) {
    closeHandle(handle);
    throw (error as { code?: string }).code === 'E510' ? error : templateErrors.invalidCwd(cwd);
  }
}

/**
 * Resolves the rest of a run's box once, around its opened folder (which it takes over): opens each
 * declared read that exists and each program bind (E512 when one would show what no box may), and
 * finds the folder's `.git` files that name a git folder outside it. The spec's handles are the
 * caller's to close (spec.dispose()), and are closed here when it throws.
 */
export function openBox(workspace: OpenWorkspace, request: BoxRequest): BoxSpec {
  const opened: Handle[] = [workspace.handle];
  const dispose = (): void => {
    for (const each of opened) closeHandle(each);
  };
  try {
    const reads: DeclaredRead[] = request.reads.map((declared) => {
      const path = declared.startsWith('~/') ? join(request.userHome, declared.slice(2)) : declared;
      return { declared, handle: openBind(path, request, opened, 'read') };
    });
    const programs = (request.programPath === null ? [] : programBinds(request.programPath, request.skillDir, request.platform))
      .map((path) => openBind(path, request, opened, 'program'))
      .filter((handle): handle is Handle => handle !== null);
    const { gitOutside } = scanFolder(workspace.handle, { writable: false, writes: [], mounts: [] });
    return { workspace: workspace.handle, chain: workspace.chain, reads, programs, gitOutside, dispose };
  } catch (error) {
    dispose();
    throw error;
  }
}

/** Where each declared read that exists really is: what the box binds and the approval shows. */
export function readsAt(spec: BoxSpec): string[] {
  return spec.reads.flatMap((read) => (read.handle === null ? [] : [read.handle.path]));
}
