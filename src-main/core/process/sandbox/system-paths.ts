/**
 * The operating system as a sandboxed run sees it: the folders programs and their libraries live
 * in, read-only, and nothing else of the machine's top level. /etc is among them, without its
 * secrets: the password and group shadows, sudo's rules, the SSH host keys, TLS private keys,
 * stored Wi-Fi and VPN secrets. As root, who could read every file, /etc is a copy of what others
 * may read of it instead (system-copy.ts). A folder that is not here — the homes, /run, /var,
 * /media, /mnt, /srv, /tmp — is not in the box at all.
 */
import { lstatSync, readdirSync, readlinkSync, watch, type FSWatcher, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { isInside } from '../../files/paths.js';
import type { Mask } from './secret-paths.js';
import { copyShown, type SystemCopy } from './system-copy.js';

/** Where programs and their libraries live, read-only in every run (those that exist). */
const SYSTEM_DIRS: Partial<Record<NodeJS.Platform, readonly string[]>> = {
  linux: ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/nix'],
  darwin: ['/usr', '/bin', '/sbin', '/System', '/Library', '/private/etc', '/etc', '/opt/homebrew', '/private/var/db/timezone', '/private/var/db/dyld'],
};

/** Secrets of the system configuration, hidden whoever runs (a file, or a folder made empty). */
const SYSTEM_SECRETS: Partial<Record<NodeJS.Platform, readonly string[]>> = {
  linux: [
    '/etc/shadow',
    '/etc/shadow-',
    '/etc/gshadow',
    '/etc/gshadow-',
    '/etc/sudoers',
    '/etc/sudoers.d',
    '/etc/ssl/private',
    '/etc/security/opasswd',
    '/etc/krb5.keytab',
    '/etc/NetworkManager/system-connections',
    '/etc/wpa_supplicant',
    '/etc/ppp/chap-secrets',
    '/etc/ppp/pap-secrets',
    '/etc/ipsec.secrets',
    '/etc/openvpn',
    '/etc/wireguard',
  ],
  darwin: ['/private/etc/master.passwd', '/private/etc/sudoers', '/private/etc/sudoers.d', '/Library/Keychains'],
};

/** SSH host keys: the private halves (ssh_host_*_key, not .pub) let a run impersonate this machine. */
const SSH_DIRS: Partial<Record<NodeJS.Platform, string>> = { linux: '/etc/ssh', darwin: '/private/etc/ssh' };

/** One top-level system folder as the run gets it: bound read-only, or the symlink it is (merged /usr: /bin → usr/bin). */
export interface SystemDir {
  path: string;
  /** The link's target as written, when the folder is a symlink. */
  link?: string;
  /** What is bound there when not the folder itself: the copy of what others may read of /etc, for a run as root (system-copy.ts). */
  source?: string;
}

/** The system part of a run's view: folders bound read-only and the secrets inside them hidden. */
export interface SystemView {
  dirs: SystemDir[];
  secrets: Mask[];
}

function lstat(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

/** The system folders of `platform`, as written (whether or not they exist). */
export function systemDirs(platform: NodeJS.Platform): readonly string[] {
  return SYSTEM_DIRS[platform] ?? [];
}

/** True when `path` (absolute) lies in one of the system folders: a PATH entry the box shows, a program it need not bind. */
export function onSystemPath(path: string, platform: NodeJS.Platform): boolean {
  return systemDirs(platform).some((dir) => isInside(dir, path));
}

/** How long a copy of /etc stands while none of its folders changed (where they cannot be watched): a chmod of a file changes no folder. */
const ETC_WALK_MAX_AGE_MS = 30_000;

let etcCopy: { at: number; copy: SystemCopy | null } | null = null;

/**
 * The copy of /etc a run as root gets (copyShown); `again` copies anew (a watched folder changed).
 * Otherwise (no folder can be watched here) copied again only when a folder in it changed (an
 * entry added, removed or renamed) or the last copy is older than ETC_WALK_MAX_AGE_MS: a copy
 * costs milliseconds of blocking I/O, and /etc rarely changes between runs.
 */
function etcCopied(listed: ReadonlySet<string>, again: boolean): SystemCopy | null {
  const now = Date.now();
  const last = etcCopy?.copy ?? null;
  const fresh =
    !again && last !== null && now - (etcCopy?.at ?? 0) < ETC_WALK_MAX_AGE_MS && [...last.walked].every(([dir, mtime]) => lstat(dir)?.mtimeMs === mtime);
  if (!fresh) etcCopy = { at: now, copy: copyShown('/etc', listed) };
  return etcCopy?.copy ?? null;
}

/** The system folders that exist here and the secrets in them, as found now; `watched` gets each folder whose change could change it. */
function findSystemView(platform: NodeJS.Platform, asRoot: boolean, watched: Set<string>, again: boolean): SystemView {
  const dirs: SystemDir[] = [];
  for (const path of systemDirs(platform)) {
    const stat = lstat(path);
    if (stat?.isSymbolicLink()) dirs.push({ path, link: readlinkSync(path) });
    else if (stat?.isDirectory()) dirs.push({ path });
  }
  watched.add('/');
  const candidates: Mask[] = [];
  for (const path of SYSTEM_SECRETS[platform] ?? []) {
    watched.add(dirname(path));
    const stat = lstat(path);
    if (stat !== null && !stat.isSymbolicLink()) candidates.push({ path, kind: stat.isDirectory() ? 'dir' : 'file' });
  }
  const sshDir = SSH_DIRS[platform];
  if (sshDir !== undefined) {
    watched.add(sshDir);
    let names: string[] = [];
    try {
      names = readdirSync(sshDir);
    } catch {
      // no SSH server configuration here
    }
    for (const name of names) if (/^ssh_host_.*_key$/.test(name)) candidates.push({ path: join(sshDir, name), kind: 'file' });
  }
  // As root, who may read every file, /etc is a copy of what others may read: nothing in it to cover, nothing that vanishes under a mount.
  const etc = asRoot && platform === 'linux' ? dirs.find((dir) => dir.path === '/etc' && dir.link === undefined) : undefined;
  if (etc !== undefined) {
    const copy = etcCopied(new Set([...(SYSTEM_SECRETS[platform] ?? []), ...candidates.map((mask) => mask.path)]), again);
    if (copy === null) dirs.splice(dirs.indexOf(etc), 1);
    else etc.source = copy.dir;
    for (const dir of copy?.walked.keys() ?? []) watched.add(dir);
  }
  const unique = [...new Map(candidates.map((mask) => [mask.path, mask])).values()];
  const secrets = unique
    .filter((mask) => !unique.some((other) => other !== mask && other.kind === 'dir' && isInside(other.path, mask.path)))
    .filter((mask) => etc === undefined || !isInside(etc.path, mask.path))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { dirs, secrets };
}

/** Whether folders can be watched here; null until tried. */
let watching: boolean | null = null;

/** The view as last found, kept until a folder it was found in changes (inotify says so) or it is ETC_WALK_MAX_AGE_MS old. */
let held: { key: string; view: SystemView; at: number; stale: boolean; watchers: FSWatcher[] } | null = null;

/** Watches `dirs` (entries added, removed, renamed or changed: a chmod too); null when they cannot all be watched. */
function watchAll(dirs: Iterable<string>, onChange: () => void): FSWatcher[] | null {
  const watchers: FSWatcher[] = [];
  try {
    for (const dir of dirs) if (lstat(dir)?.isDirectory()) watchers.push(watch(dir, { persistent: false }, onChange).on('error', onChange));
    return watchers;
  } catch {
    for (const watcher of watchers) watcher.close();
    return null;
  }
}

/**
 * The system folders that exist here and the secrets in them. As root /etc is the copy of what
 * others may read of it (a user cannot read the rest anyway; root could read it all). Found once
 * and kept while no folder it was found in changes — watched, so a file added, removed or made
 * unreadable by chmod shows in the next run once the change is told — for at most
 * ETC_WALK_MAX_AGE_MS; where the folders cannot be watched, found for every run.
 */
export function systemView(platform: NodeJS.Platform, asRoot: boolean): SystemView {
  const key = `${platform}\0${String(asRoot)}`;
  const now = Date.now();
  if (held !== null && held.key === key && !held.stale && now - held.at < ETC_WALK_MAX_AGE_MS) return held.view;
  for (const watcher of held?.watchers ?? []) watcher.close();
  held = null;
  const watched = new Set<string>();
  const view = findSystemView(platform, asRoot, watched, watching !== false);
  const entry = { key, view, at: now, stale: false, watchers: [] as FSWatcher[] };
  const watchers = platform === 'linux' ? watchAll(watched, () => (entry.stale = true)) : null;
  watching = watchers !== null;
  if (watchers !== null) {
    entry.watchers = watchers;
    held = entry;
  }
  return view;
}
