/**
 * Where a run may work, by allow-list. The working directory is whatever the caller names (the CLI's
 * current folder or --cwd, MCP roots, HTTP `cwd`, the UI's picker), and the box shows it (writable
 * for a workspace tool), so it may be only: a folder inside the person's home (not the home itself,
 * nor a hidden folder of it, where programs keep settings and credentials, nor inside one); a folder
 * inside a shared temporary folder; a folder on a data or removable mount; or a folder under a
 * top-level folder the operating system does not own (a checkout at /work/…, a CI clone at /ci-…).
 * Never the system's own trees, another user's home, Skilltray's own data, a folder holding a home,
 * nor (for a tool that writes) a skill folder. The folder is the run's handle on it (core/process/
 * sandbox/handles.ts): its path is the kernel's, and each folder above it is compared by device and
 * inode, so a bind-mounted alias of a home or of Skilltray's home is known for what it is.
 */
import type { SkilltrayError } from '../../shared/skilltray-error.js';
import { templateErrors } from '../../shared/error-messages/templates.js';
import { readFileSync, statSync } from 'node:fs';
import { isInside } from '../files/paths.js';
import type { SandboxProfileName } from '../../shared/runs.js';

/** Where the kernel and running services keep devices and sockets: no run works there. */
const KERNEL: Partial<Record<NodeJS.Platform, readonly string[]>> = {
  linux: ['/proc', '/sys', '/dev', '/run', '/var/run'],
  darwin: ['/dev', '/private/var/run'],
};

/** Temporary folders every program and user shares: a run may work in a folder inside, not in the whole. */
const SHARED_TEMP: Partial<Record<NodeJS.Platform, readonly string[]>> = {
  linux: ['/tmp', '/var/tmp', '/dev/shm'],
  darwin: ['/private/tmp', '/private/var/tmp', '/private/var/folders'],
};

/** Where data and removable disks are mounted: a run may work in a folder on one (`/run/media/<user>/<disk>`), not in the whole. */
const MOUNTS: Partial<Record<NodeJS.Platform, readonly string[]>> = {
  linux: ['/mnt', '/media', '/run/media'],
  darwin: ['/Volumes'],
};

/** The operating system's own trees: a run never works in them, except in the places above. */
const SYSTEM: Partial<Record<NodeJS.Platform, readonly string[]>> = {
  linux: ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/boot', '/opt', '/var', '/srv', '/snap', '/nix'],
  darwin: ['/System', '/Library', '/Applications', '/usr', '/bin', '/sbin', '/private', '/opt', '/cores', '/Network'],
};

/** Where the users' homes are: a run works in the person's own, never elsewhere there. */
const HOMES: Partial<Record<NodeJS.Platform, readonly string[]>> = {
  linux: ['/home', '/root'],
  darwin: ['/Users'],
};

/** A place the guard knows, canonical, with the identity of what it is and of each folder above it (empty when it does not exist). */
export interface KnownPlace {
  path: string;
  id: string | null;
  /** Identities of the folders holding it. */
  above: readonly string[];
}

/** The places the guard protects. */
export interface GuardPlaces {
  platform: NodeJS.Platform;
  /** The person's home folder. */
  userHome: KnownPlace;
  /** Other people's home folders on this machine (the password database's). */
  otherHomes: readonly KnownPlace[];
  /** Skilltray's home: the API token, state.db, user skills, installed packs. */
  skilltrayHome: KnownPlace;
  /** Every skill root. */
  skillRoots: readonly KnownPlace[];
}

/** The run's folder as its handle has it: the kernel's path, then each folder above it to `/`, with their identities. */
export interface WorkspaceWhere {
  path: string;
  chain: readonly { path: string; id: string }[];
}

/** What the guard says about a folder: a run may work there, or is refused. */
export type WorkspaceVerdict = { kind: 'ok' } | { kind: 'refused'; error: SkilltrayError };

/** The password database as last read: its homes, kept while the file is the same (inode, size, change time). */
const passwdRead = new Map<string, { stamp: string; homes: string[] }>();

/** Home folders listed in the password database that exist outside the system folders (not daemons' /var/lib/…, /nonexistent). */
export function passwdHomes(platform: NodeJS.Platform, passwd = '/etc/passwd'): string[] {
  if (platform !== 'linux') return [];
  let stamp: string;
  let text: string;
  try {
    const stat = statSync(passwd);
    stamp = `${stat.ino}:${stat.size}:${stat.ctimeMs}:${stat.mtimeMs}`;
    const known = passwdRead.get(passwd);
    if (known?.stamp === stamp) return known.homes;
    text = readFileSync(passwd, 'utf8');
  } catch {
    return [];
  }
  const daemons = ['/usr', '/bin', '/sbin', '/var', '/etc', '/opt', '/srv', '/nonexistent', '/dev', '/proc', '/run'];
  const homes = [
    ...new Set(
      text
        .split('\n')
        .map((line) => line.split(':')[5] ?? '')
        .filter((home) => home.startsWith('/') && home !== '/' && !daemons.some((dir) => isInside(dir, home))),
    ),
  ];
  passwdRead.set(passwd, { stamp, homes });
  return homes;
}

const PASS =
  "pass the folder of the project or files it should work on (the CLI's --cwd or current folder, an MCP root, the request's cwd, the folder picked in the app)";

function refuse(cwd: string, why: string, instead = PASS): WorkspaceVerdict {
  return { kind: 'refused', error: templateErrors.workspaceRefused(cwd, why, instead) };
}

/** Where `place` sits on the folder's chain: 0 the folder itself, n its n-th folder up; -1 when not on it. */
function onChain(where: WorkspaceWhere, place: KnownPlace): number {
  return place.id === null ? -1 : where.chain.findIndex((step) => step.id === place.id);
}

/** True when the folder holds `place` (is one of the folders above it). */
function holds(where: WorkspaceWhere, place: KnownPlace): boolean {
  return place.id !== null && where.chain[0] !== undefined && place.above.includes(where.chain[0].id);
}

const strictlyInside = (dir: string, path: string): boolean => dir !== path && isInside(dir, path);

/** Why the homes, Skilltray's home and skill roots refuse the folder, or null. */
function placesRefusal(where: WorkspaceWhere, writes: boolean, places: GuardPlaces): WorkspaceVerdict | null {
  const cwd = where.path;
  const ownData = "Skilltray's own data (its API token, run records and skills)";
  const own = onChain(where, places.skilltrayHome);
  if (own >= 0) return refuse(cwd, `${own === 0 ? '' : 'inside '}${ownData}`);
  const home = onChain(where, places.userHome);
  if (home === 0) {
    return refuse(cwd, `your home folder: a run there could read ${writes ? 'and change ' : ''}all of it (settings, keys, shell startup files)`);
  }
  if (home > 0) {
    const top = where.chain[home - 1]?.path ?? cwd;
    if (/^\./.test(top.slice(top.lastIndexOf('/') + 1)))
      return refuse(cwd, `in ${top}, a hidden folder of your home where programs keep their settings and credentials`);
  }
  const other = places.otherHomes.find((candidate) => candidate.id !== places.userHome.id && onChain(where, candidate) >= 0);
  if (other !== undefined && home < 0) return refuse(cwd, `in the home folder ${other.path}, which is another user's (or not the one Skilltray runs for)`);
  const held = [places.userHome, ...places.otherHomes].find((candidate) => holds(where, candidate));
  if (held !== undefined) return refuse(cwd, `a folder holding ${held === places.userHome ? 'your home folder' : `the home folder ${held.path}`}`);
  if (writes && holds(where, places.skilltrayHome)) return refuse(cwd, `a folder holding ${ownData}`);
  if (writes) {
    const root = places.skillRoots.find((skillRoot) => onChain(where, skillRoot) >= 0 || holds(where, skillRoot));
    if (root !== undefined) {
      const inRoot = onChain(where, root) >= 0;
      return refuse(
        cwd,
        `${inRoot ? 'in' : 'a folder holding'} the skill folder ${root.path}: a tool that writes there could change skills, which then run with their trust`,
      );
    }
  }
  return home > 0 ? { kind: 'ok' } : null;
}

/** Whether a run with `profile` may work in the folder `where` is. */
export function guardWorkspace(where: WorkspaceWhere, profile: SandboxProfileName, places: GuardPlaces): WorkspaceVerdict {
  if (profile === 'none') return { kind: 'ok' };
  const cwd = where.path;
  const { platform } = places;
  // The root, or an alias of it (a bind mount of /): what the walk up ends at.
  if (where.chain.length <= 1 || where.chain[0]?.id === where.chain.at(-1)?.id)
    return refuse(cwd, 'the root of the filesystem, which holds every file on this machine');
  const byPlaces = placesRefusal(where, profile === 'workspace', places);
  if (byPlaces !== null) return byPlaces;
  const temp = (SHARED_TEMP[platform] ?? []).find((dir) => isInside(dir, cwd));
  if (temp === cwd)
    return refuse(cwd, 'a temporary folder every program and user shares, with their files and sockets', 'pass a folder inside it made for this work');
  if (temp !== undefined) return { kind: 'ok' };
  const mounts = (MOUNTS[platform] ?? []).find((dir) => isInside(dir, cwd));
  // Under /run/media the first level is the user's: the disk is the level below it.
  if (mounts !== undefined) {
    const disk = mounts === '/run/media' ? cwd.split('/').length > 4 : strictlyInside(mounts, cwd);
    return disk ? { kind: 'ok' } : refuse(cwd, 'the folder where disks are mounted', 'pass a folder on the disk it should work on');
  }
  const kernel = (KERNEL[platform] ?? []).find((dir) => isInside(dir, cwd));
  if (kernel !== undefined) return refuse(cwd, `in ${kernel}, where the kernel and running services keep devices and sockets`);
  const homes = (HOMES[platform] ?? []).find((dir) => isInside(dir, cwd));
  if (homes !== undefined) return refuse(cwd, `in ${homes}, where the users' homes are, and not in yours`);
  const system = (SYSTEM[platform] ?? []).find((dir) => isInside(dir, cwd));
  if (system !== undefined) {
    return refuse(cwd, cwd === system ? 'a folder of the operating system' : `inside ${system}, a folder of the operating system, not a place for a project`);
  }
  // A top-level folder the operating system does not own (a data disk, /work, a CI clone): the person's.
  return { kind: 'ok' };
}
