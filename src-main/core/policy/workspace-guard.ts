/**
 * Which folders a run may work in. The working directory is whatever the caller names (the CLI's
 * current folder or --cwd, MCP roots, HTTP `cwd`, the UI's picker), and the box shows it (writable
 * for a workspace tool), so a caller must not be able to name the whole machine, a home folder,
 * Skilltray's own data, a skill's folder or the system: such a run is refused (E511) with why and
 * what to pass instead. A read-only run in a home folder is the one exception: it asks, saying it
 * can read that whole home.
 */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SkilltrayError } from '../../shared/skilltray-error.js';
import { templateErrors } from '../../shared/error-messages/templates.js';
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

/** The operating system's folders: never a run's folder; a workspace run may not work anywhere inside them either. */
const SYSTEM: Partial<Record<NodeJS.Platform, readonly string[]>> = {
  linux: ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/boot', '/opt', '/var', '/snap', '/nix'],
  darwin: ['/System', '/Library', '/Applications', '/usr', '/bin', '/sbin', '/private', '/private/etc', '/private/var', '/opt', '/cores', '/Volumes'],
};

/** Inside a system folder, where a workspace run may still work: the shared temporary folders hold ordinary scratch folders. */
const WRITABLE_INSIDE_SYSTEM: Partial<Record<NodeJS.Platform, readonly string[]>> = {
  linux: ['/var/tmp'],
  darwin: ['/private/tmp', '/private/var/tmp', '/private/var/folders', '/Volumes'],
};

/** The places the guard knows, all canonical (realpath) where they exist. */
export interface GuardPlaces {
  platform: NodeJS.Platform;
  /** The person's home folder. */
  userHome: string;
  /** Other people's home folders on this machine (the password database's). */
  otherHomes: readonly string[];
  /** Skilltray's home: the API token, state.db, user skills, installed packs. */
  skilltrayHome: string;
  /** Every skill root. */
  skillRoots: readonly string[];
}

/** What the guard says about a folder: a run may work there, may only with the person's approval, or is refused. */
export type WorkspaceVerdict = { kind: 'ok' } | { kind: 'home'; home: string } | { kind: 'refused'; error: SkilltrayError };

/** Home folders listed in the password database that exist outside the system folders (not daemons' /var/lib/…, /nonexistent). */
export function passwdHomes(platform: NodeJS.Platform, passwd = '/etc/passwd'): string[] {
  if (platform !== 'linux') return [];
  let text: string;
  try {
    text = readFileSync(passwd, 'utf8');
  } catch {
    return [];
  }
  const system = SYSTEM.linux ?? [];
  return [
    ...new Set(
      text
        .split('\n')
        .map((line) => line.split(':')[5] ?? '')
        .filter((home) => home.startsWith('/') && home !== '/' && !system.some((dir) => isInside(dir, home))),
    ),
  ];
}

const PASS =
  "pass the folder of the project or files it should work on (the CLI's --cwd or current folder, an MCP root, the request's cwd, the folder picked in the app)";

function refuse(cwd: string, why: string, instead = PASS): WorkspaceVerdict {
  return {
    kind: 'refused',
    error: templateErrors.workspaceRefused(cwd, why, instead),
  };
}

const isAncestor = (folder: string, of: string): boolean => folder !== of && isInside(folder, of);

/** Whether a run with `profile` may work in `cwd` (canonical). */
export function guardWorkspace(cwd: string, profile: SandboxProfileName, places: GuardPlaces): WorkspaceVerdict {
  if (profile === 'none') return { kind: 'ok' };
  const writes = profile === 'workspace';
  const { platform } = places;
  if (dirname(cwd) === cwd) return refuse(cwd, 'the root of the filesystem, which holds every file on this machine');
  const kernel = (KERNEL[platform] ?? []).find((dir) => isInside(dir, cwd));
  if (kernel !== undefined) return refuse(cwd, `in ${kernel}, where the kernel and running services keep devices and sockets`);
  if ((SHARED_TEMP[platform] ?? []).includes(cwd)) {
    return refuse(cwd, 'a temporary folder every program and user shares, with their files and sockets', 'pass a folder inside it made for this work');
  }
  const own = places.skilltrayHome;
  const ownData = "Skilltray's own data (its API token, run records and skills)";
  if (isInside(own, cwd)) return refuse(cwd, `${cwd === own ? '' : 'inside '}${ownData}`);
  const homes = [places.userHome, ...places.otherHomes.filter((home) => home !== places.userHome)];
  const held = homes.find((home) => isAncestor(cwd, home));
  if (held !== undefined) return refuse(cwd, `a folder holding ${held === places.userHome ? 'your home folder' : `the home folder ${held}`}`);
  const home = homes.find((candidate) => candidate === cwd);
  if (home !== undefined) {
    const whose = home === places.userHome ? 'your home folder' : `the home folder of another user`;
    if (writes) {
      return refuse(cwd, `${whose}: a tool that may write there could change shell startup files, keys and every program's settings`);
    }
    return { kind: 'home', home };
  }
  if (writes && isAncestor(cwd, own)) return refuse(cwd, `a folder holding ${ownData}`);
  const system = (SYSTEM[platform] ?? []).find((dir) => dir === cwd || (writes && isInside(dir, cwd)));
  if (system !== undefined && !(writes && (WRITABLE_INSIDE_SYSTEM[platform] ?? []).some((dir) => isAncestor(dir, cwd)))) {
    return refuse(
      cwd,
      cwd === system ? 'a folder of the operating system' : `inside ${system}, a folder of the operating system, which a tool that writes must not change`,
    );
  }
  if (writes) {
    const root = places.skillRoots.find((skillRoot) => isInside(skillRoot, cwd) || isAncestor(cwd, skillRoot));
    if (root !== undefined) {
      return refuse(
        cwd,
        `${isInside(root, cwd) ? 'in' : 'a folder holding'} the skill folder ${root}: a tool that writes there could change skills, which then run with their trust`,
      );
    }
  }
  return { kind: 'ok' };
}
