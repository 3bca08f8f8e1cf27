/**
 * The Linux sandbox: bubblewrap (`bwrap`, Debian package `bubblewrap`) started directly, with a
 * command line built here from the profile and the run's places. The box is an allow-list: bwrap
 * starts from an empty root, and the run sees only the system folders (read-only, their secrets
 * hidden), its working directory, its skill's snapshot, what it declared or needs (read-only), a
 * private /tmp, /var/tmp and /dev/shm and an empty private home at $HOME, each a tmpfs of capped
 * size. Every run also gets fresh user, PID, IPC, UTS, cgroup and network namespaces (only
 * `network: host` shares the last, see bubblewrap-network.ts), a socket filter (no Unix socket),
 * no_new_privs, no capabilities, resource limits (prlimit inside the box; a cgroup where one can be
 * had, see cgroup.ts), the relay as its first process where it is built, and dies with its parent.
 * Whether it works is found out once by running `bwrap … true`.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { templateErrors } from '../../../shared/error-messages/templates.js';
import type { LimitHit, ResourceLimits } from '../../../shared/model.js';
import { fullFolders } from '../network/relay-report.js';
import { resolveProgram } from '../resolve-program.js';
import { bubblewrapNetwork, bubblewrapNetworkUnavailable, relayMissing } from './bubblewrap-network.js';
import { userScope, type MemoryBound } from './cgroup.js';
import { uncontained, withPrivateTemp, type Bind, type RunPlaces, type Sandbox, type SpawnCommand } from './sandbox.js';
import { onSystemPath, systemView } from './system-paths.js';

/** The Debian/Ubuntu/Fedora package that provides bwrap. */
export const BUBBLEWRAP_PACKAGE = 'bubblewrap';

/** Where the run's private temp appears inside the sandbox. */
const SANDBOX_TMP = '/tmp';

/** How many descriptors of each kind a bwrap run is handed. */
export interface FdCounts {
  /** Data the network gives (the socket filter): SpawnCommand.inputs. */
  inputs: number;
  /** Open descriptors bwrap binds (--bind-fd, --ro-bind-fd): SpawnCommand.fds. */
  bound: number;
}

/** Where each kind of descriptor starts: `report` means something only when the relay reports. */
export interface FdLayout {
  inputs: number;
  bound: number;
  report: number;
}

/**
 * The one place a run's descriptors are numbered (run-process.ts places them by it): 0–2 stdin,
 * stdout and stderr; the network's inputs from 3 (the socket filter always first, where bwrap or the
 * relay reads it); the descriptors bwrap binds; last the relay's report fd, which passes through
 * bwrap to the relay.
 */
export function fdLayout(counts: FdCounts): FdLayout {
  const bound = 3 + counts.inputs;
  return { inputs: 3, bound, report: bound + counts.bound };
}

/** A run's command line before `--`, and the open descriptors it binds, in the order they are numbered (fdLayout). */
interface CommandLine {
  args: string[];
  fds: number[];
  /** Where the run's descriptors land. */
  layout: FdLayout;
}

const MIB = 1024 * 1024;

/**
 * Address space a process may reserve beyond its memory limit where only rlimits bind it: Node
 * reserves about 0.7 GiB and 0.7 GiB more per worker thread, a JVM about 4 GiB, a thread 8 MiB of
 * stack, most of it never used (docs/runner.md has the measurements).
 */
export const ADDRESS_SPACE_RESERVE_MIB = 4096;

/**
 * prlimit's options for `limits`. Where a cgroup holds the run (`bound` is `cgroup` as root, or a
 * systemd scope the user's session delegates) it counts processes and memory for the whole run;
 * otherwise RLIMIT_NPROC (counted in the run's own user namespace), RLIMIT_DATA (heap and private
 * mappings) and RLIMIT_AS (everything mapped, shared memory included, with room for what runtimes
 * reserve) bound them per process. CPU's soft limit sends SIGXCPU, a second before the hard one kills.
 */
export function prlimitArgs(limits: ResourceLimits, bound: MemoryBound): string[] {
  return [
    ...(bound === 'rlimit'
      ? [`--nproc=${limits.processes}`, `--data=${limits.memoryMiB * MIB}`, `--as=${(limits.memoryMiB + ADDRESS_SPACE_RESERVE_MIB) * MIB}`]
      : []),
    `--fsize=${limits.fileSizeMiB * MIB}`,
    `--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + 1}`,
  ];
}

/** `limits` allowing `more` processes: the box's own, which the count of processes (rlimit, scope, cgroup) holds beside the tool's. */
function processesMore(limits: ResourceLimits, more: number): ResourceLimits {
  return { ...limits, processes: limits.processes + more };
}

/** The size of each private folder (a tmpfs, so memory): the run's file-size limit, so the largest file it may write fits in any of them. */
export function privateFolderMiB(limits: ResourceLimits | undefined): number {
  // Only the probe has no limits: a small box for `true`.
  return limits?.fileSizeMiB ?? 16;
}

/** The private folders as the box shows them, each a capped tmpfs: where the relay looks for one that is full when the tool ends. */
export function privateFolders(userHome: string): string[] {
  return [SANDBOX_TMP, '/var/tmp', '/dev/shm', userHome];
}

/** A symlink the private home holds (a declared `~/…` path leading to where its file really is), relative to the home. */
export interface HomeLink {
  path: string;
  target: string;
}

/** The symlinks under `dir` (the private home box-places filled), to be made again in the home's tmpfs. */
export function homeLinks(dir: string): HomeLink[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isSymbolicLink())
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return { path: path.slice(dir.length + 1), target: readlinkSync(path) };
    });
}

/** How bubblewrapArgs builds a box beyond the run's places. */
export interface BoxOptions {
  /** The relay's path, bound in where it runs. */
  relay?: string | null;
  /** Whether this bwrap sizes a tmpfs (`--size`, bubblewrap 0.8): without it /tmp and the home stay folders on disk. */
  sizes?: boolean;
  /** The private home's links (homeLinks), made again in its tmpfs. */
  homeLinks?: readonly HomeLink[];
}

/**
 * bwrap's arguments (before `--` and the program) for one run, and the descriptors they bind. Pure:
 * the order of the mounts is the design. What Skilltray opened before the decision (the working
 * folder, declared reads, programs, a writing run's hidden entries) is bound by descriptor
 * (`--bind-fd`), so no path is looked up again; bwrap checks each mount is the descriptor's own file.
 */
function commandLine(places: RunPlaces, options: BoxOptions): CommandLine {
  const { profile, cwd } = places;
  const network = bubblewrapNetwork(places, options.relay ?? null);
  const first = fdLayout({ inputs: network.inputs.length, bound: 0 }).bound;
  const fds: number[] = [];
  // The descriptors take the numbers after the network's inputs, in the order they are bound.
  const bind = (entry: Bind, writable: boolean): string[] => {
    if (entry.fd === undefined) return [writable ? '--bind' : '--ro-bind', entry.path, entry.path];
    fds.push(entry.fd);
    return [writable ? '--bind-fd' : '--ro-bind-fd', String(first + fds.length - 1), entry.path];
  };
  // No capabilities, even in the new user namespace: with CAP_SYS_ADMIN there a tool could remount what it sees writable.
  const args = ['--unshare-all', ...network.share, '--die-with-parent', '--cap-drop', 'ALL'];
  // The operating system, read-only (a merged /usr's /bin stays the symlink it is); nothing else of the host's top level.
  for (const dir of places.system.dirs) {
    if (dir.link !== undefined) args.push('--symlink', dir.link, dir.path);
    else args.push('--ro-bind', dir.path, dir.path);
  }
  // Each private folder a tmpfs capped at its size (it is memory); with an older bwrap, /tmp and the home stay on disk.
  const size = options.sizes === false ? [] : ['--size', String(privateFolderMiB(profile.limits) * MIB)];
  const folder = (inside: string, onDisk: string): string[] => (options.sizes === false ? ['--bind', onDisk, inside] : [...size, '--tmpfs', inside]);
  // /dev's own tmpfs has no cap and /proc/PID/mem would write processes the socket filter does not hold: both read-only.
  args.push('--dev', '/dev', ...size, '--tmpfs', '/dev/shm', '--remount-ro', '/dev', '--proc', '/proc', '--remount-ro', '/proc');
  args.push(...folder(SANDBOX_TMP, places.tempDir), ...size, '--tmpfs', '/var/tmp');
  for (const secret of places.system.secrets) {
    if (secret.kind === 'dir') args.push('--tmpfs', secret.path);
    else args.push('--ro-bind', '/dev/null', secret.path);
  }
  // An empty home of its own where the person's is: what a tool writes there dies with the run.
  args.push(...folder(places.userHome, places.homeDir));
  if (options.sizes !== false) for (const link of options.homeLinks ?? []) args.push('--symlink', link.target, join(places.userHome, link.path));
  for (const entry of places.binds) args.push(...bind(entry, false));
  // The working directory, writable under workspace; its hidden entries stay read-only inside it, but for what the skill declares.
  const workdir: Bind = { path: cwd, kind: 'dir', ...(places.workspaceFd === undefined ? {} : { fd: places.workspaceFd }) };
  args.push(...bind(workdir, profile.name === 'workspace'));
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
  // The network's own mounts (the proxy's socket), the relay and the filter: nothing above may cover them.
  args.push(...network.mounts);
  if (typeof options.relay === 'string') args.push('--ro-bind', options.relay, options.relay);
  // The root bwrap built (and the folders it made to reach each bind) is read-only too: nothing but the binds above takes writes.
  args.push('--remount-ro', '/', '--chdir', cwd);
  return { args, fds, layout: fdLayout({ inputs: network.inputs.length, bound: fds.length }) };
}

/** bwrap's arguments (before `--` and the program) for one run; see commandLine. */
export function bubblewrapArgs(places: RunPlaces, options: BoxOptions = {}): string[] {
  return commandLine(places, options).args;
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

/** Whether `bwrap` sizes a tmpfs (`--size`, since bubblewrap 0.8), read from its --help. */
export function sizesTmpfs(bwrap: string): boolean {
  const help = spawnSync(bwrap, ['--help'], { stdio: ['ignore', 'pipe', 'pipe'], timeout: 10_000, encoding: 'utf8' });
  return `${help.stdout ?? ''}${help.stderr ?? ''}`.includes('--size');
}

/**
 * Tries the real thing once: `bwrap` with a read-only profile's flags running `true`. Null when it
 * worked; otherwise why not, naming the package or the kernel setting to fix.
 */
export function probeBubblewrap(bwrap: string | null, truePath: string | null, sizes = true): string | null {
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
    // The socket filter arrives on fd 3, as a run's does: from a file here.
    const inputs = bubblewrapNetwork(places, null).inputs.map((input, i) => {
      writeFileSync(join(temp, `input-${i}`), input);
      return openSync(join(temp, `input-${i}`), 'r');
    });
    let result: ReturnType<typeof spawnSync>;
    try {
      result = spawnSync(bwrap, [...bubblewrapArgs(places, { sizes }), '--', truePath], {
        stdio: ['ignore', 'ignore', 'pipe', ...inputs],
        timeout: 10_000,
        encoding: 'utf8',
      });
    } finally {
      for (const fd of inputs) closeSync(fd);
    }
    if (result.status === 0) return null;
    return `bubblewrap at ${bwrap} cannot create its sandbox here (${failureText(result)}), so runs cannot be contained.${userNamespaceHint()}`;
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

/** Probe answers by bwrap and true path: the kernel's answer does not change while Skilltray runs. */
const probes = new Map<string, { why: string | null; sizes: boolean }>();

/**
 * The bubblewrap sandbox, found on `env`'s PATH, with the relay at `relay` (see
 * core/process/network/net-relay.c); its availability is probed on first use and cached for the process.
 */
export function bubblewrapSandbox(env: NodeJS.ProcessEnv, relay: string | null = null): Sandbox {
  const bwrap = resolveProgram('bwrap', env, '/');
  // prlimit runs inside the box, so it must be one the box shows.
  const found = resolveProgram('prlimit', env, '/');
  const prlimit = found !== null && onSystemPath(found, 'linux') ? found : null;
  let answer: { why: string | null; sizes: boolean } | undefined;
  // Asked several times per run: the probe's answer is looked up once per sandbox (its PATH is fixed).
  const machine = (): { why: string | null; sizes: boolean } => {
    if (answer !== undefined) return answer;
    const truePath = resolveProgram('true', env, '/');
    const key = `${bwrap ?? ''}\0${truePath ?? ''}`;
    if (!probes.has(key)) {
      const sizes = bwrap !== null && sizesTmpfs(bwrap);
      probes.set(key, { why: probeBubblewrap(bwrap, truePath, sizes), sizes });
    }
    answer = probes.get(key) as { why: string | null; sizes: boolean };
    return answer;
  };
  const unavailable = (profile?: RunPlaces['profile']): string | null =>
    machine().why ?? (profile === undefined ? null : bubblewrapNetworkUnavailable(profile, relay));
  return {
    mechanism: 'bubblewrap',
    unavailable,
    limitsUnavailable: () =>
      unavailable() ??
      (prlimit === null ? "prlimit (package util-linux) is not in the system folders, so runs get no resource limits; install 'util-linux'" : null),
    wrap(command: SpawnCommand, places: RunPlaces): SpawnCommand {
      if (places.profile.name === 'none') return uncontained(command, places);
      // Decided as contained: a sandbox gone since is a refusal, never a run without one.
      const why = unavailable(places.profile);
      if (why !== null || bwrap === null) throw templateErrors.sandboxGone(why ?? 'bubblewrap (bwrap) is not on the PATH');
      const { limits } = places.profile;
      const { sizes } = machine();
      // The relay runs first wherever it is built: a host list needs it, and every run learns from it which private folder filled up.
      const first = relayMissing(relay) === null ? relay : null;
      const network = bubblewrapNetwork(places, first);
      // The box's own processes beside the tool's: inside, bwrap's init (pid 1) and the relay; outside, bwrap itself, which a scope or cgroup holds too.
      const inside = 1 + (first === null ? 0 : 1);
      const scope = places.inCgroup === true || limits === undefined ? null : userScope(processesMore(limits, inside + 1), env);
      const bound = places.inCgroup === true ? 'cgroup' : scope !== null ? 'scope' : 'rlimit';
      const limited = prlimit !== null && limits !== undefined ? [prlimit, ...prlimitArgs(processesMore(limits, inside), bound), '--'] : [];
      const line = commandLine(places, { relay: first, sizes, homeLinks: sizes ? homeLinks(places.homeDir) : [] });
      const watched = sizes ? privateFolders(places.userHome) : [];
      // The relay reports on the last of the run's descriptors (fdLayout).
      const relayed = first === null ? [] : [first, ...network.relay, '-r', String(line.layout.report), ...watched.flatMap((folder) => ['-w', folder])];
      const box = [
        ...line.args,
        // systemd-run's session variables are its own, never the tool's.
        ...(scope === null ? [] : Object.keys(scope.env).flatMap((name) => ['--unsetenv', name])),
        '--',
        ...limited,
        ...relayed,
        command.program,
        ...command.args,
      ];
      const [program, ...before] = scope === null ? [bwrap] : [...scope.command, bwrap];
      return {
        program: program as string,
        args: [...before, ...box],
        // HOME is where the private home appears: the person's own path, unless that could not hold it.
        env: { ...withPrivateTemp(command.env, SANDBOX_TMP), ...network.env, HOME: places.userHome, ...scope?.env },
        treeEndsWithIt: true,
        boxProcesses: inside + 1,
        ...(network.inputs.length > 0 ? { inputs: network.inputs } : {}),
        ...(line.fds.length > 0 ? { fds: line.fds } : {}),
        // bwrap itself starts at /: the tool starts in its folder as bound by descriptor, never at a path looked up again.
        cwd: '/',
        ...(first === null ? {} : { reports: true }),
        limitHit: (report: string): LimitHit | null => scope?.hit() ?? (fullFolders(report).length > 0 ? 'privateFolder' : null),
      };
    },
  };
}
