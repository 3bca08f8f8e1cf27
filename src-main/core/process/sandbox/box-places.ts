/**
 * What one run's box holds, found on disk just before it starts: the system folders and their
 * secrets, the files its skill declared it reads, the programs it needs from outside the system,
 * the working directory's guarded entries and sockets, and the secrets under all of that. The
 * result is data (RunPlaces) each mechanism turns into its own command line.
 */
import { closeSync, lstatSync, mkdirSync, openSync, readSync, realpathSync, statSync, symlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { isInside } from '../../files/paths.js';
import { holdPlaceholders, isPlaceholder } from './placeholders.js';
import type { Bind, RunPlaces } from './sandbox.js';
import { secretMasks } from './secret-paths.js';
import { onSystemPath, systemDirs, systemView } from './system-paths.js';
import { scanFolder } from './workspace-scan.js';

/** The canonical path, or null when nothing is there. */
function canonical(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/** The interpreter a script names on its first line (`#!/path/to/python -u`), or null. */
function shebang(program: string): string | null {
  const buffer = Buffer.alloc(256);
  let read: number;
  try {
    const fd = openSync(program, 'r');
    try {
      read = readSync(fd, buffer, 0, buffer.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
  const line = buffer.subarray(0, read).toString('utf8').split('\n')[0] ?? '';
  const match = /^#!\s*(\/\S+)/.exec(line);
  return match === null ? null : (match[1] ?? null);
}

/**
 * What of a program outside the system folders the box binds read-only, canonical: a program under
 * /opt/<name> gets its whole folder (it keeps its libraries beside it); any other (~/.local/bin,
 * ~/go/bin) gets its own file, and a script also its interpreter when that lies outside too. A
 * program in the system folders or the skill's own folder (the snapshot) needs nothing.
 */
export function programBinds(programPath: string, skillDir: string, platform: NodeJS.Platform): string[] {
  if (onSystemPath(programPath, platform) || isInside(skillDir, programPath)) return [];
  const opt = /^\/opt\/[^/]+/.exec(programPath);
  if (opt !== null && platform === 'linux') return [opt[0]];
  const interpreter = shebang(programPath);
  const real = interpreter === null ? null : canonical(interpreter);
  return real === null || onSystemPath(real, platform) || real === programPath ? [programPath] : [programPath, real];
}

/** What the run's box needs to know: the places the run names (as RunPlaces has them), and the host's. */
export interface BoxInput extends Pick<RunPlaces, 'profile' | 'cwd' | 'skillDir' | 'snapshotDir' | 'tempDir' | 'homeDir'> {
  /** Skilltray's environment: HOME and XDG_RUNTIME_DIR. */
  env: NodeJS.ProcessEnv;
  skilltrayHome: string;
  /** Program binds (programBinds) the approval named. */
  programs: readonly string[];
  platform: NodeJS.Platform;
  asRoot: boolean;
  /** A cgroup Skilltray made holds the run (see RunPlaces.gated). */
  gated: boolean;
}

/** Where the private home appears in the box: the person's home path under bubblewrap (unless that is / or a system folder), itself under Seatbelt. */
function homeInBox(userHome: string, input: BoxInput): string {
  if (input.platform !== 'linux') return input.homeDir;
  const usable = userHome !== '/' && !systemDirs('linux').some((dir) => isInside(userHome, dir) || isInside(dir, userHome));
  return usable ? userHome : '/tmp/home';
}

const kindOf = (path: string): 'dir' | 'file' => (statSync(path).isDirectory() ? 'dir' : 'file');

/** The run's places, and what to undo once it has ended (placeholders it made). Reads the disk; writes only the private home and placeholders. */
export function boxPlaces(input: BoxInput): { places: RunPlaces; release: () => void } {
  const { profile, cwd, platform } = input;
  const userHome = canonical(input.env.HOME || homedir()) ?? (input.env.HOME || homedir());
  const appears = homeInBox(userHome, input);
  const system = systemView(platform, input.asRoot);
  const binds = new Map<string, Bind>();
  const bind = (path: string): void => {
    if (!binds.has(path) && !onSystemPath(path, platform)) binds.set(path, { path, kind: kindOf(path) });
  };
  for (const program of input.programs) if (canonical(program) !== null) bind(program);
  for (const entry of profile.reads ?? []) {
    const declared = entry.startsWith('~/') ? join(userHome, entry.slice(2)) : entry;
    const real = canonical(declared);
    // A socket would let the run talk to whatever listens there: declaring one does not make it reachable.
    if (real === null || lstatSync(real).isSocket()) continue;
    bind(real);
    if (!entry.startsWith('~/')) continue;
    const seen = join(appears, entry.slice(2));
    if (seen === real) continue;
    // The declared path leads (through the person's symlinks, or a home elsewhere) to where the file really is.
    const link = join(input.homeDir, entry.slice(2));
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(real, link);
  }
  if (profile.network) {
    // The resolver's configuration is often a link into /run (systemd-resolved): the network needs the file itself.
    const resolver = canonical('/etc/resolv.conf');
    if (resolver !== null) bind(resolver);
  }
  const scan = scanFolder(cwd, { guard: profile.name === 'workspace', writes: profile.writes ?? [] });
  for (const gitdir of scan.gitdirs) bind(gitdir);
  const sockets = [...scan.sockets];
  for (const extra of binds.values()) {
    if (extra.kind === 'dir' && !isInside(cwd, extra.path)) sockets.push(...scanFolder(extra.path, { guard: false, writes: [] }).sockets);
  }
  // Another run's placeholder is absent to this one too: holding it as well keeps it until both have ended.
  const absent = [...scan.absent, ...scan.guarded.filter((entry) => isPlaceholder(entry.path))];
  const existing = scan.guarded.filter((entry) => !isPlaceholder(entry.path));
  const held = platform === 'linux' ? holdPlaceholders(absent) : { held: absent, release: () => undefined };
  const visible = [
    cwd,
    ...[...binds.values()].filter((entry) => entry.kind === 'dir').map((entry) => entry.path),
    ...system.dirs.filter((dir) => dir.link === undefined).map((dir) => dir.path),
  ];
  // Only the secrets the run could otherwise see: inside what is bound, or holding it (a working directory inside ~/.ssh).
  const masks = secretMasks({ userHome, skilltrayHome: input.skilltrayHome, runtimeDir: input.env.XDG_RUNTIME_DIR, platform }).filter((mask) =>
    visible.some((tree) => isInside(tree, mask.path) || isInside(mask.path, tree)),
  );
  const places: RunPlaces = {
    profile,
    cwd,
    skillDir: input.skillDir,
    snapshotDir: input.snapshotDir,
    tempDir: input.tempDir,
    homeDir: input.homeDir,
    userHome: appears,
    system,
    binds: [...binds.values()],
    guarded: [...existing, ...held.held],
    sockets: [...new Set(sockets)],
    masks,
    ...(input.gated ? { gated: true } : {}),
  };
  return { places, release: held.release };
}
