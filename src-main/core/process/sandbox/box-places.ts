/**
 * What one run's box holds, built from its box spec (box-spec.ts, opened once before the decision)
 * just before it starts: the system folders and their secrets, the declared reads and programs (the
 * spec's handles), the working folder (its handle) with, for a writing run, every hidden entry and
 * dependency folder read-only and placeholders for what other programs act on, the sockets to cover,
 * the mounts inside the folder to hide or hold, and the secrets under all of that. The result is data
 * (RunPlaces) each mechanism turns into its own command line; the descriptors in it stay open until
 * the run is released.
 */
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { SandboxProfile } from '../../../shared/runs.js';
import { templateErrors } from '../../../shared/error-messages/templates.js';
import { isInside } from '../../files/paths.js';
import { GUARDED } from '../../skills/box-fields.js';
import type { BoxSpec } from './box-spec.js';
import { closeHandle, identityAt, openPath, type Handle } from './handles.js';
import { holdPlaceholders, isPlaceholder, type Placeholder } from './placeholders.js';
import type { Bind, RunPlaces } from './sandbox.js';
import { secretMasks, type Mask } from './secret-paths.js';
import { onSystemPath, systemDirs, systemView } from './system-paths.js';
import { declareWhileRunning, type SweepBaseline } from './workspace-sweep.js';
import { scanFolder } from './workspace-scan.js';
import type { Disposable } from '../run-resources.js';

/** What the run's box needs beyond its spec: the run's own folders and the host's. */
export interface BoxInput extends Pick<RunPlaces, 'skillDir' | 'snapshotDir' | 'tempDir' | 'homeDir'> {
  spec: BoxSpec;
  profile: SandboxProfile;
  /** Skilltray's environment: HOME and XDG_RUNTIME_DIR. */
  env: NodeJS.ProcessEnv;
  skilltrayHome: string;
  platform: NodeJS.Platform;
  asRoot: boolean;
  /** A cgroup Skilltray made holds the run (see RunPlaces.inCgroup). */
  inCgroup: boolean;
  /** Other people's home folders (a mount inside the folder that shows one is hidden). */
  otherHomes?: readonly string[];
}

/** A run's places, what the sweep compares with after a writing run (null otherwise), and what to undo once it has ended. */
export interface Box extends Disposable {
  places: RunPlaces;
  baseline: SweepBaseline | null;
  dispose: () => void;
}

/** Where the private home appears in the box: the person's home path under bubblewrap (unless that is / or a system folder), itself under Seatbelt. */
function homeInBox(userHome: string, input: BoxInput): string {
  if (input.platform !== 'linux') return input.homeDir;
  const usable = userHome !== '/' && !systemDirs('linux').some((dir) => isInside(userHome, dir) || isInside(dir, userHome));
  return usable ? userHome : '/tmp/home';
}

/** A path as the kernel's mount table writes it: space, tab, newline and backslash as octal escapes. */
const escaped = (path: string): string => path.replace(/[ \t\n\\]/g, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`);

/** Mount points strictly below `folder`, from the kernel's table (octal escapes undone). */
export function mountsBelow(folder: string, mountinfo = '/proc/self/mountinfo'): string[] {
  let text: string;
  try {
    text = readFileSync(mountinfo, 'utf8');
  } catch {
    return [];
  }
  // Most folders have no mount below them: one search of the table says so.
  const prefix = ` ${escaped(folder === '/' ? '' : folder)}/`;
  if (!text.includes(prefix)) return [];
  const points = text
    .split('\n')
    .map((line) => (line.split(' ')[4] ?? '').replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8))));
  return [...new Set(points.filter((point) => point !== folder && isInside(folder, point)))];
}

/** The mounts below the folder a box must hide whole: ones showing a home, Skilltray's home or a secret, or a folder holding one. */
function mountsToHide(mounts: readonly string[], guarded: readonly string[]): string[] {
  const ids = new Set(guarded.map((path) => identityAt(path)).filter((id): id is string => id !== null));
  return mounts.filter((mount) => {
    const id = identityAt(mount);
    return id === null || ids.has(id) || guarded.some((path) => isInside(mount, path));
  });
}

const bindOf = (handle: Handle): Bind => ({ path: handle.path, kind: handle.kind, ...(handle.fd >= 0 ? { fd: handle.fd } : {}) });

/** The declared reads and program binds as the box binds them, linking each declared `~/…` path from the private home when it leads elsewhere. */
function declaredBinds(input: BoxInput, appears: string): Map<string, Bind> {
  const binds = new Map<string, Bind>();
  const bind = (handle: Handle): void => {
    if (!binds.has(handle.path) && !onSystemPath(handle.path, input.platform)) binds.set(handle.path, bindOf(handle));
  };
  for (const program of input.spec.programs) bind(program);
  for (const read of input.spec.reads) {
    if (read.handle === null) continue;
    bind(read.handle);
    if (!read.declared.startsWith('~/')) continue;
    const seen = join(appears, read.declared.slice(2));
    if (seen === read.handle.path) continue;
    // The declared path leads (through the person's symlinks, or a home elsewhere) to where the file really is.
    const link = join(input.homeDir, read.declared.slice(2));
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(read.handle.path, link);
  }
  return binds;
}

/** The run's places, and what to undo once it has ended. Reads the disk through the spec's handles; writes only the private home and placeholders. */
export function boxPlaces(input: BoxInput): Box {
  const { profile, platform, spec } = input;
  const workspace = spec.workspace;
  const cwd = workspace.path;
  const writable = profile.name === 'workspace';
  const userHome = openPath(input.env.HOME || homedir());
  const home = userHome?.path ?? (input.env.HOME || homedir());
  closeHandle(userHome);
  const appears = homeInBox(home, input);
  const system = systemView(platform, input.asRoot);
  const binds = declaredBinds(input, appears);
  const opened: Handle[] = [];
  if (profile.network) {
    // The resolver's configuration is often a link into /run (systemd-resolved): the network needs the file itself.
    const resolver = openPath('/etc/resolv.conf');
    if (resolver !== null && !onSystemPath(resolver.path, platform)) {
      opened.push(resolver);
      binds.set(resolver.path, bindOf(resolver));
    } else closeHandle(resolver);
  }
  const secrets = secretMasks({ userHome: home, skilltrayHome: input.skilltrayHome, runtimeDir: input.env.XDG_RUNTIME_DIR, platform });
  const mounts = mountsBelow(cwd);
  const hidden = mountsToHide(mounts, [home, ...(input.otherHomes ?? []), input.skilltrayHome, ...secrets.map((mask) => mask.path)]);
  const scan = scanFolder(workspace, { writable, writes: profile.writes ?? [], mounts });
  const held = [...scan.readOnly, ...scan.declared, ...scan.inner];
  const closeScan = (): void => {
    for (const entry of held) closeHandle(entry.handle);
    for (const handle of opened) closeHandle(handle);
  };
  if (writable && scan.incomplete !== null) {
    closeScan();
    throw templateErrors.workspaceTooBig(cwd, scan.incomplete);
  }
  const sockets = [...scan.sockets];
  for (const extra of binds.values()) {
    if (extra.kind !== 'dir' || isInside(cwd, extra.path)) continue;
    const folder = openPath(extra.path);
    if (folder !== null) sockets.push(...scanFolder(folder, { writable: false, writes: [], mounts: [] }).sockets);
    closeHandle(folder);
  }
  const placeholders = writable ? holdPlaceholders(workspace, absentNames(cwd, scan.present, profile.writes ?? [], scan.dangling)) : null;
  const stopDeclaring = writable ? declareWhileRunning(workspace.id, profile.writes ?? []) : () => undefined;
  // Another run's placeholder is held here as any hidden entry is: read-only.
  const readOnly = [...scan.readOnly.map((entry) => bindOf(entry.handle)), ...(placeholders?.held ?? []).map((entry) => bindOf(entry.handle))];
  const visible = [
    cwd,
    ...[...binds.values()].filter((entry) => entry.kind === 'dir').map((entry) => entry.path),
    ...system.dirs.filter((dir) => dir.link === undefined).map((dir) => dir.path),
  ];
  // Only the secrets the run could otherwise see: inside what is bound, or holding it (a working directory inside ~/.ssh).
  const masks: Mask[] = [
    ...secrets.filter((mask) => visible.some((tree) => isInside(tree, mask.path) || isInside(mask.path, tree))),
    ...hidden.map((path) => ({ path, kind: 'dir' as const })),
  ];
  const places: RunPlaces = {
    profile,
    cwd,
    workspaceFd: workspace.fd,
    skillDir: input.skillDir,
    snapshotDir: input.snapshotDir,
    tempDir: input.tempDir,
    homeDir: input.homeDir,
    userHome: appears,
    system,
    binds: [...binds.values()],
    guarded: readOnly,
    writable: scan.declared.map((entry) => bindOf(entry.handle)),
    guardedInside: scan.inner.map((entry) => bindOf(entry.handle)),
    readOnlyMounts: writable ? mounts.filter((mount) => !hidden.includes(mount)) : [],
    sockets: [...new Set(sockets)],
    masks,
    ...(input.inCgroup ? { inCgroup: true } : {}),
  };
  const present = new Map(scan.present);
  return {
    places,
    baseline: writable ? { present, mounts } : null,
    dispose: () => {
      placeholders?.dispose();
      stopDeclaring();
      closeScan();
    },
  };
}

/** The names other programs act on that the top of a writing run's folder lacks (and missing link targets): each gets a placeholder. */
function absentNames(cwd: string, present: ReadonlyMap<string, string>, writes: readonly string[], dangling: readonly string[]): Placeholder[] {
  const absent: Placeholder[] = [];
  for (const guard of GUARDED) {
    const top = guard.rel.split('/')[0] ?? guard.rel;
    // A placeholder another run of this process holds is shared, so it stays until both have ended.
    if (writes.includes(guard.rel) || writes.includes(top) || (present.has(top) && !isPlaceholder(join(cwd, top)))) continue;
    // A nested name (.github/workflows) is held by a placeholder for its top folder.
    const holder: Placeholder = { path: join(cwd, top), kind: top === guard.rel ? guard.kind : 'dir' };
    if (!absent.some((entry) => entry.path === holder.path)) absent.push(holder);
  }
  for (const path of dangling) absent.push({ path, kind: 'file' });
  return absent;
}
