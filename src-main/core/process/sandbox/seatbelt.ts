/**
 * The macOS sandbox: `/usr/bin/sandbox-exec` with a Seatbelt profile generated here. Paths never
 * enter the profile text: they are passed as `-D NAME=value` parameters, so no path can change the
 * profile's meaning. In SBPL a later rule overrides an earlier one, so the denials come last.
 * macOS has no PID namespace or no_new_privs; the runner's tree kill and timeout apply as usual.
 * HOME is the run's private folder; its symlinks lead to what the skill declared it reads. No
 * descriptor can be bound here: the run service checks the folder's path still leads to the folder
 * decided on just before it starts (E514), a window bubblewrap does not have.
 * A run with a host list may connect to its proxy's loopback port and nowhere else (names are
 * resolved by the proxy, so no DNS service either); `network: host` is for bubblewrap only.
 */
import { spawnSync } from 'node:child_process';
import { templateErrors } from '../../../shared/error-messages/templates.js';
import type { SandboxProfile } from '../../../shared/runs.js';
import { proxyEnv } from '../network/proxy-env.js';
import { programInSnapshot, uncontained, withPrivateTemp, type RunPlaces, type Sandbox, type SpawnCommand } from './sandbox.js';

/** Where macOS keeps sandbox-exec. */
export const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

/** Mach services a command-line program needs to start and look itself up (user names, logging, notifications). */
const MACH_SERVICES = [
  'com.apple.system.opendirectoryd.libinfo',
  'com.apple.system.notification_center',
  'com.apple.system.logger',
  'com.apple.logd',
  'com.apple.diagnosticd',
  'com.apple.coreservices.launchservicesd',
];

/** Added with the network: certificate checks (TLS through the proxy's tunnel). */
const NETWORK_MACH_SERVICES = ['com.apple.trustd', 'com.apple.trustd.agent'];

/** The proxy's loopback port when the run reaches its hosts through one; otherwise null (no network at all). */
function proxyPort(places: RunPlaces): number | null {
  const { profile, proxy } = places;
  return profile.network && profile.hosts !== 'host' && proxy?.kind === 'tcp' ? proxy.port : null;
}

/**
 * The profile text and its `-D` parameters for one run. Pure. Reads are an allow-list: the system
 * folders, the working directory, the snapshot, the private temp and home, and what the run
 * declared or needs; anything's metadata (stat, for path lookups), nothing else's content.
 */
export function seatbeltProfile(places: RunPlaces): { profile: string; params: Record<string, string> } {
  const params: Record<string, string> = { TMP: places.tempDir, HOME: places.homeDir, CWD: places.cwd, SKILL: places.snapshotDir };
  const filters = (prefix: string, paths: readonly { path: string; kind: 'dir' | 'file' }[]): string[] =>
    paths.map((entry, i) => {
      const name = `${prefix}_${i}`;
      params[name] = entry.path;
      return entry.kind === 'dir' ? `(subpath (param "${name}"))` : `(literal (param "${name}"))`;
    });
  const port = proxyPort(places);
  const services = [...MACH_SERVICES, ...(port === null ? [] : NETWORK_MACH_SERVICES)];
  const system = filters(
    'SYS',
    places.system.dirs.map((dir) => ({ path: dir.path, kind: 'dir' as const })),
  );
  const binds = filters('BIND', places.binds);
  const lines = [
    '(version 1)',
    '(deny default)',
    '(allow process-exec process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow process-info* (target same-sandbox))',
    '(allow sysctl-read)',
    '(allow ipc-posix-shm-read-data ipc-posix-shm-write-data)',
    `(allow mach-lookup ${services.map((service) => `(global-name "${service}")`).join(' ')})`,
    '(allow file-read-metadata)',
    `(allow file-read* (literal "/") (subpath "/dev") ${[...system, ...binds].join(' ')} (subpath (param "TMP")) (subpath (param "HOME")) (subpath (param "CWD")) (subpath (param "SKILL")))`,
    '(allow file-write* (subpath (param "TMP")) (subpath (param "HOME")) (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (regex #"^/dev/fd/[0-9]+$"))',
    '(allow file-ioctl (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/fd/[0-9]+$"))',
  ];
  if (places.profile.name === 'workspace') {
    lines.push('(allow file-write* (subpath (param "CWD")))');
    // Every hidden path and dependency folder in it stays read-only, existing or not: Seatbelt denies by path, no placeholder needed.
    lines.push('(deny file-write* (require-all (subpath (param "CWD")) (regex #"/\\.|/node_modules(/|$)")))');
    const declared = (places.profile.writes ?? []).map((rel) => ({ path: `${places.cwd}/${rel}`, kind: 'dir' as const }));
    if (declared.length > 0) lines.push(`(allow file-write* ${filters('WRITE', declared).join(' ')})`);
    if ((places.guardedInside ?? []).length > 0) lines.push(`(deny file-write* ${filters('GUARD', places.guardedInside ?? []).join(' ')})`);
  }
  // A port is a number, never text from a skill: it cannot change the profile's meaning.
  if (port !== null) lines.push(`(allow network-outbound (remote ip "localhost:${port}"))`);
  // Host services listen on Unix sockets: none is reachable, the network or not.
  lines.push('(deny network-outbound (remote unix-socket))');
  const secrets = [...places.system.secrets, ...places.masks];
  if (secrets.length > 0) lines.push(`(deny file-read* file-write* ${filters('SECRET', secrets).join(' ')})`);
  return { profile: `${lines.join('\n')}\n`, params };
}

/** `sandbox-exec`'s arguments for one run, up to and including the program and its arguments. */
export function seatbeltArgs(command: SpawnCommand, places: RunPlaces): string[] {
  const { profile, params } = seatbeltProfile(places);
  const defines = Object.entries(params).flatMap(([name, value]) => ['-D', `${name}=${value}`]);
  return ['-p', profile, ...defines, '--', programInSnapshot(command.program, places), ...command.args];
}

/** The Seatbelt sandbox; whether sandbox-exec works is tried once on first use. */
export function seatbeltSandbox(): Sandbox {
  let verdict: { why: string | null } | null = null;
  const unavailable = (profile?: SandboxProfile): string | null => {
    if (verdict === null) {
      const result = spawnSync(SANDBOX_EXEC, ['-p', '(version 1)\n(allow default)\n', '/usr/bin/true'], { stdio: 'ignore', timeout: 10_000 });
      verdict = {
        why:
          result.status === 0
            ? null
            : `sandbox-exec (${SANDBOX_EXEC}) did not run (${result.error?.message ?? `status ${String(result.status)}`}), so runs cannot be contained`,
      };
    }
    if (verdict.why === null && profile?.network === true && profile.hosts === 'host') {
      return "network: host (this computer's own network, for ICMP and the system resolver) is contained only by bubblewrap on Linux";
    }
    return verdict.why;
  };
  return {
    mechanism: 'seatbelt',
    unavailable,
    // macOS has no prlimit, and sandbox-exec sets no limits: nothing but a shell's ulimit would, and a tool never gets a shell.
    limitsUnavailable: () => unavailable() ?? 'macOS offers no way to set resource limits on a program without a shell, so runs there get none',
    wrap(command: SpawnCommand, places: RunPlaces): SpawnCommand {
      if (places.profile.name === 'none') return uncontained(command, places);
      // Decided as contained: a sandbox gone since is a refusal, never a run without one.
      const why = unavailable(places.profile);
      if (why !== null) throw templateErrors.sandboxGone(why);
      const port = proxyPort(places);
      const env = { ...withPrivateTemp(command.env, places.tempDir), HOME: places.homeDir };
      return { program: SANDBOX_EXEC, args: seatbeltArgs(command, places), env: port === null ? env : { ...env, ...proxyEnv(`127.0.0.1:${port}`) } };
    },
  };
}
