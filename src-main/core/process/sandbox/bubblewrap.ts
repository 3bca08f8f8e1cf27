/**
 * The Linux sandbox: bubblewrap (`bwrap`, Debian package `bubblewrap`) started directly, with a
 * command line built here from the profile and the run's places. The box is an allow-list: bwrap
 * starts from an empty root, and the run sees only the system folders (read-only, their secrets
 * hidden), its working directory, its skill's snapshot, what it declared or needs (read-only), a
 * private /tmp and an empty private home at $HOME. Every run also gets fresh user, PID, IPC, UTS,
 * cgroup and network namespaces (only `network: host` shares the last, see bubblewrap-network.ts),
 * no_new_privs, no capabilities, resource limits (prlimit inside the box), and dies with its parent.
 * Whether it works is found out once by running `bwrap … true`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResourceLimits } from '../../../shared/model.js';
import { resolveProgram } from '../resolve-program.js';
import { bubblewrapNetwork, bubblewrapNetworkUnavailable } from './bubblewrap-network.js';
import { uncontained, withPrivateTemp, type Bind, type RunPlaces, type Sandbox, type SpawnCommand } from './sandbox.js';
import { onSystemPath, systemView } from './system-paths.js';

/** The Debian/Ubuntu/Fedora package that provides bwrap. */
export const BUBBLEWRAP_PACKAGE = 'bubblewrap';

/** Where the run's private temp appears inside the sandbox. */
const SANDBOX_TMP = '/tmp';

/** The fd a gated bwrap reports its child's pid on, after the network's inputs and the descriptors it binds; it waits on the next (see RunPlaces.gated). */
export function gateFds(inputs: number): { info: number; block: number } {
  return { info: 3 + inputs, block: 4 + inputs };
}

/** A run's command line before `--`, and the open descriptors it binds, in the order they are passed after the network's inputs. */
interface CommandLine {
  args: string[];
  fds: number[];
}

const MIB = 1024 * 1024;

/**
 * prlimit's options for `limits`. With a cgroup (`gated`) the cgroup counts processes and memory
 * for the whole run and says when either ran out; otherwise RLIMIT_NPROC (counted in the run's own
 * user namespace) and RLIMIT_DATA (heap and private mappings, not reserved address space, so
 * runtimes that reserve much but use little still start) bound them. CPU's soft limit sends
 * SIGXCPU, a second before the hard one kills.
 */
export function prlimitArgs(limits: ResourceLimits, gated: boolean): string[] {
  return [
    ...(gated ? [] : [`--nproc=${limits.processes}`, `--data=${limits.memoryMiB * MIB}`]),
    `--fsize=${limits.fileSizeMiB * MIB}`,
    `--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + 1}`,
  ];
}

/**
 * bwrap's arguments (before `--` and the program) for one run, and the descriptors they bind, `relay`
 * being the network relay's path. Pure: the order of the mounts is the design. What Skilltray opened
 * before the decision (the working folder, declared reads, programs, a writing run's hidden entries)
 * is bound by descriptor (`--bind-fd`), so no path is looked up again; bwrap checks each mount is
 * the descriptor's own file.
 */
function commandLine(places: RunPlaces, relay: string | null): CommandLine {
  const { profile, cwd } = places;
  const network = bubblewrapNetwork(places, relay);
  const fds: number[] = [];
  // The descriptors take the numbers after the network's inputs, in the order they are bound.
  const bind = (entry: Bind, writable: boolean): string[] => {
    if (entry.fd === undefined) return [writable ? '--bind' : '--ro-bind', entry.path, entry.path];
    fds.push(entry.fd);
    return [writable ? '--bind-fd' : '--ro-bind-fd', String(2 + network.inputs.length + fds.length), entry.path];
  };
  // No capabilities, even in the new user namespace: with CAP_SYS_ADMIN there a tool could remount what it sees writable.
  const args = ['--unshare-all', ...network.share, '--die-with-parent', '--cap-drop', 'ALL'];
  const gate = args.length;
  // The operating system, read-only (a merged /usr's /bin stays the symlink it is); nothing else of the host's top level.
  for (const dir of places.system.dirs) {
    if (dir.link !== undefined) args.push('--symlink', dir.link, dir.path);
    else args.push('--ro-bind', dir.path, dir.path);
  }
  args.push('--dev', '/dev', '--proc', '/proc', '--bind', places.tempDir, SANDBOX_TMP, '--tmpfs', '/var/tmp');
  for (const secret of places.system.secrets) {
    if (secret.kind === 'dir') args.push('--tmpfs', secret.path);
    else args.push('--ro-bind', '/dev/null', secret.path);
  }
  // An empty home of its own where the person's is: what a tool writes there dies with the run.
  args.push('--bind', places.homeDir, places.userHome);
  for (const entry of places.binds) args.push(...bind(entry, false));
  // The working directory, writable under workspace; its hidden entries stay read-only inside it, but for what the skill declares.
  const folder: Bind = { path: cwd, kind: 'dir', ...(places.workspaceFd === undefined ? {} : { fd: places.workspaceFd }) };
  args.push(...bind(folder, profile.name === 'workspace'));
  for (const entry of places.guarded) args.push(...bind(entry, false));
  for (const entry of places.writable ?? []) args.push(...bind(entry, true));
  for (const entry of places.guardedInside ?? []) args.push(...bind(entry, false));
  for (const mount of places.readOnlyMounts ?? []) args.push('--remount-ro', mount);
  // A socket answers a connect() even through a read-only bind: each one found is covered.
  for (const socket of places.sockets) args.push('--ro-bind', '/dev/null', socket);
  // Secrets after everything they may lie in, so nothing bound later can show them again.
  for (const mask of places.masks) {
    if (mask.kind === 'dir') args.push('--tmpfs', mask.path);
    else args.push('--ro-bind', '/dev/null', mask.path);
  }
  // The approved files stand in for the skill's folder, even where that folder was masked (a skill in Skilltray's home).
  args.push('--ro-bind', places.snapshotDir, places.skillDir);
  // Masks become read-only last: the snapshot's mount point may have had to be created inside one.
  for (const mask of [...places.system.secrets, ...places.masks]) if (mask.kind === 'dir') args.push('--remount-ro', mask.path);
  // The network's own mounts (the proxy's socket, the relay) and filter: nothing above may cover them.
  args.push(...network.mounts);
  // The root bwrap built (and the folders it made to reach each bind) is read-only too: nothing but the binds above takes writes.
  args.push('--remount-ro', '/', '--chdir', cwd);
  if (places.gated === true) {
    const gateAt = gateFds(network.inputs.length + fds.length);
    args.splice(gate, 0, '--info-fd', String(gateAt.info), '--block-fd', String(gateAt.block));
  }
  return { args, fds };
}

/** bwrap's arguments (before `--` and the program) for one run; see commandLine. */
export function bubblewrapArgs(places: RunPlaces, options: { relay?: string | null } = {}): string[] {
  return commandLine(places, options.relay ?? null).args;
}

/** The stderr line bwrap printed, or the reason it did not run at all. */
function failureText(result: ReturnType<typeof spawnSync>): string {
  if (result.error) return result.error.message;
  const stderr =
    String(result.stderr ?? '')
      .trim()
      .split('\n')[0] ?? '';
  return stderr === '' ? `it exited with status ${String(result.status)}` : stderr;
}

/** Ubuntu 23.10+ lets AppArmor forbid unprivileged user namespaces; say so when that is why. */
function userNamespaceHint(): string {
  try {
    if (readFileSync('/proc/sys/kernel/apparmor_restrict_unprivileged_userns', 'utf8').trim() === '1') {
      return ' AppArmor restricts unprivileged user namespaces here (kernel.apparmor_restrict_unprivileged_userns = 1); see docs/runner.md for how to allow bwrap.';
    }
  } catch {
    // not an AppArmor kernel
  }
  return ' Unprivileged user namespaces may be disabled (see docs/runner.md).';
}

/**
 * Tries the real thing once: `bwrap` with a read-only profile's flags running `true`. Null when it
 * worked; otherwise why not, naming the package or the kernel setting to fix.
 */
export function probeBubblewrap(bwrap: string | null, truePath: string | null): string | null {
  if (bwrap === null) {
    return `bubblewrap (bwrap) is not installed, so runs cannot be contained; install the '${BUBBLEWRAP_PACKAGE}' package (apt-get install ${BUBBLEWRAP_PACKAGE})`;
  }
  if (truePath === null) return `cannot check bubblewrap: no 'true' program on PATH`;
  const temp = mkdtempSync(join(tmpdir(), 'skilltray-probe-'));
  try {
    const places: RunPlaces = {
      profile: { name: 'read-only', network: false, hosts: [] },
      cwd: temp,
      skillDir: temp,
      snapshotDir: temp,
      tempDir: temp,
      userHome: join(temp, 'home'),
      homeDir: temp,
      system: systemView('linux', false),
      binds: [],
      guarded: [],
      sockets: [],
      masks: [],
    };
    const result = spawnSync(bwrap, [...bubblewrapArgs(places), '--', truePath], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000, encoding: 'utf8' });
    if (result.status === 0) return null;
    return `bubblewrap at ${bwrap} cannot create its sandbox here (${failureText(result)}), so runs cannot be contained.${userNamespaceHint()}`;
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

/** Probe answers by bwrap and true path: the kernel's answer does not change while Skilltray runs. */
const probes = new Map<string, string | null>();

/**
 * The bubblewrap sandbox, found on `env`'s PATH, with the network relay at `relay` (see
 * core/process/network/net-relay.c); its availability is probed on first use and cached for the process.
 */
export function bubblewrapSandbox(env: NodeJS.ProcessEnv, relay: string | null = null): Sandbox {
  const bwrap = resolveProgram('bwrap', env, '/');
  // prlimit runs inside the box, so it must be one the box shows.
  const found = resolveProgram('prlimit', env, '/');
  const prlimit = found !== null && onSystemPath(found, 'linux') ? found : null;
  const machine = (): string | null => {
    const truePath = resolveProgram('true', env, '/');
    const key = `${bwrap ?? ''}\0${truePath ?? ''}`;
    if (!probes.has(key)) probes.set(key, probeBubblewrap(bwrap, truePath));
    return probes.get(key) ?? null;
  };
  const unavailable = (profile?: RunPlaces['profile']): string | null =>
    machine() ?? (profile === undefined ? null : bubblewrapNetworkUnavailable(profile, relay));
  return {
    mechanism: 'bubblewrap',
    unavailable,
    limitsUnavailable: () =>
      unavailable() ??
      (prlimit === null ? "prlimit (package util-linux) is not in the system folders, so runs get no resource limits; install 'util-linux'" : null),
    wrap(command: SpawnCommand, places: RunPlaces): SpawnCommand {
      if (places.profile.name === 'none' || unavailable(places.profile) !== null || bwrap === null) return uncontained(command, places);
      const { limits } = places.profile;
      const network = bubblewrapNetwork(places, relay);
      const limited = prlimit !== null && limits !== undefined ? [prlimit, ...prlimitArgs(limits, places.gated === true), '--'] : [];
      const line = commandLine(places, relay);
      return {
        program: bwrap,
        args: [...line.args, '--', ...limited, ...network.prefix, command.program, ...command.args],
        // HOME is where the private home appears: the person's own path, unless that could not hold it.
        env: { ...withPrivateTemp(command.env, SANDBOX_TMP), ...network.env, HOME: places.userHome },
        treeEndsWithIt: true,
        ...(network.inputs.length > 0 ? { inputs: network.inputs } : {}),
        ...(line.fds.length > 0 ? { fds: line.fds } : {}),
        // bwrap itself starts at /: the tool starts in its folder as bound by descriptor, never at a path looked up again.
        cwd: '/',
        ...(places.gated === true ? { gated: true } : {}),
      };
    },
  };
}
