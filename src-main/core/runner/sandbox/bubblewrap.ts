/**
 * The Linux sandbox: bubblewrap (`bwrap`, Debian package `bubblewrap`) started directly, with a
 * command line built here from the profile. Every run gets fresh user, PID, IPC, UTS, cgroup and
 * network namespaces (only `network: host` shares the last, see bubblewrap-network.ts), the host
 * filesystem read-only, a private /tmp, the secrets masked, the skill's snapshot bound over its
 * folder, no_new_privs, and dies with its parent. Whether it works is found out once by running
 * `bwrap … true`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveProgram } from '../resolve-program.js';
import { bubblewrapNetwork, bubblewrapNetworkUnavailable } from './bubblewrap-network.js';
import { uncontained, withPrivateTemp, type RunPlaces, type Sandbox, type SpawnCommand } from './sandbox.js';

/** The Debian/Ubuntu/Fedora package that provides bwrap. */
export const BUBBLEWRAP_PACKAGE = 'bubblewrap';

/** Where the run's private temp appears inside the sandbox. */
const SANDBOX_TMP = '/tmp';

/**
 * bwrap's arguments (before `--` and the program) for one run, `relay` being the network relay's
 * path. Pure: the order of the mounts is the design.
 */
export function bubblewrapArgs(places: RunPlaces, options: { varTmp?: boolean; relay?: string | null } = {}): string[] {
  const { profile, cwd, masks } = places;
  const network = bubblewrapNetwork(places, options.relay ?? null);
  // No capabilities, even in the new user namespace: with CAP_SYS_ADMIN there a tool could remount `/` writable.
  const args = ['--unshare-all', ...network.share, '--die-with-parent', '--cap-drop', 'ALL'];
  // The host, read-only; then a fresh /dev and /proc (for the new PID namespace) and a private /tmp.
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--bind', places.tempDir, SANDBOX_TMP);
  if (options.varTmp ?? true) args.push('--tmpfs', '/var/tmp');
  // The working directory, bound again in case it lies in a place replaced above (/tmp); writable under workspace.
  args.push(profile.name === 'workspace' ? '--bind' : '--ro-bind', cwd, cwd);
  // Secrets after the working directory, so a cwd that contains them (the home folder) cannot show them.
  for (const mask of masks) {
    if (mask.kind === 'dir') args.push('--tmpfs', mask.path);
    else args.push('--ro-bind', '/dev/null', mask.path);
  }
  // The approved files stand in for the skill's folder, even where that folder was masked (a skill in Skilltray's home).
  args.push('--ro-bind', places.snapshotDir, places.skillDir);
  // Masks become read-only last: the snapshot's mount point may have had to be created inside one.
  for (const mask of masks) if (mask.kind === 'dir') args.push('--remount-ro', mask.path);
  // The network's own mounts (the proxy's socket, the relay) and filter, last: nothing above may cover them.
  args.push(...network.mounts, '--chdir', cwd);
  return args;
}

/** The stderr line bwrap printed, or the reason it did not run at all. */
function failureText(result: ReturnType<typeof spawnSync>): string {
  if (result.error) return result.error.message;
  const stderr = String(result.stderr ?? '').trim().split('\n')[0] ?? '';
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
    const places: RunPlaces = { profile: { name: 'read-only', network: false, hosts: [] }, cwd: temp, skillDir: temp, snapshotDir: temp, tempDir: temp, masks: [] };
    const result = spawnSync(bwrap, [...bubblewrapArgs(places, { varTmp: existsSync('/var/tmp') }), '--', truePath], {
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 10_000,
      encoding: 'utf8',
    });
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
 * core/runner/network/net-relay.c); its availability is probed on first use and cached for the process.
 */
export function bubblewrapSandbox(env: NodeJS.ProcessEnv, relay: string | null = null): Sandbox {
  const bwrap = resolveProgram('bwrap', env, '/');
  const machine = (): string | null => {
    const truePath = resolveProgram('true', env, '/');
    const key = `${bwrap ?? ''}\0${truePath ?? ''}`;
    if (!probes.has(key)) probes.set(key, probeBubblewrap(bwrap, truePath));
    return probes.get(key) ?? null;
  };
  const unavailable = (profile?: RunPlaces['profile']): string | null => machine() ?? (profile === undefined ? null : bubblewrapNetworkUnavailable(profile, relay));
  const varTmp = existsSync('/var/tmp');
  return {
    mechanism: 'bubblewrap',
    unavailable,
    wrap(command: SpawnCommand, places: RunPlaces): SpawnCommand {
      if (places.profile.name === 'none' || unavailable(places.profile) !== null || bwrap === null) return uncontained(command, places);
      const network = bubblewrapNetwork(places, relay);
      return {
        program: bwrap,
        args: [...bubblewrapArgs(places, { varTmp, relay }), '--', ...network.prefix, command.program, ...command.args],
        env: { ...withPrivateTemp(command.env, SANDBOX_TMP), ...network.env },
        treeEndsWithIt: true,
        ...(network.inputs.length > 0 ? { inputs: network.inputs } : {}),
      };
    },
  };
}
