/**
 * The macOS sandbox: `/usr/bin/sandbox-exec` with a Seatbelt profile generated here. Paths never
 * enter the profile text: they are passed as `-D NAME=value` parameters, so no path can change the
 * profile's meaning. In SBPL a later rule overrides an earlier one, so the denials come last.
 * macOS has no PID namespace or no_new_privs; the runner's tree kill and timeout apply as usual.
 * A run with a host list may connect to its proxy's loopback port and nowhere else (names are
 * resolved by the proxy, so no DNS service either); `network: host` is for bubblewrap only.
 */
import { spawnSync } from 'node:child_process';
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

/** The profile text and its `-D` parameters for one run. Pure. */
export function seatbeltProfile(places: RunPlaces): { profile: string; params: Record<string, string> } {
  const params: Record<string, string> = { TMP: places.tempDir, CWD: places.cwd };
  const port = proxyPort(places);
  const services = [...MACH_SERVICES, ...(port === null ? [] : NETWORK_MACH_SERVICES)];
  const lines = [
    '(version 1)',
    '(deny default)',
    '(allow process-exec process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow process-info* (target same-sandbox))',
    '(allow sysctl-read)',
    '(allow ipc-posix-shm-read-data ipc-posix-shm-write-data)',
    `(allow mach-lookup ${services.map((service) => `(global-name "${service}")`).join(' ')})`,
    '(allow file-read*)',
    '(allow file-write* (subpath (param "TMP")) (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (regex #"^/dev/fd/[0-9]+$"))',
    '(allow file-ioctl (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/fd/[0-9]+$"))',
  ];
  if (places.profile.name === 'workspace') lines.push('(allow file-write* (subpath (param "CWD")))');
  // A port is a number, never text from a skill: it cannot change the profile's meaning.
  if (port !== null) lines.push(`(allow network-outbound (remote ip "localhost:${port}"))`);
  if (places.masks.length > 0) {
    const filters = places.masks.map((mask, i) => {
      const name = `SECRET_${i}`;
      params[name] = mask.path;
      return mask.kind === 'dir' ? `(subpath (param "${name}"))` : `(literal (param "${name}"))`;
    });
    lines.push(`(deny file-read* file-write* ${filters.join(' ')})`);
  }
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
      verdict = { why: result.status === 0 ? null : `sandbox-exec (${SANDBOX_EXEC}) did not run (${result.error?.message ?? `status ${String(result.status)}`}), so runs cannot be contained` };
    }
    if (verdict.why === null && profile?.network === true && profile.hosts === 'host') {
      return "network: host (this computer's own network, for ICMP and the system resolver) is contained only by bubblewrap on Linux";
    }
    return verdict.why;
  };
  return {
    mechanism: 'seatbelt',
    unavailable,
    wrap(command: SpawnCommand, places: RunPlaces): SpawnCommand {
      if (places.profile.name === 'none' || unavailable(places.profile) !== null) return uncontained(command, places);
      const port = proxyPort(places);
      const env = withPrivateTemp(command.env, places.tempDir);
      return { program: SANDBOX_EXEC, args: seatbeltArgs(command, places), env: port === null ? env : { ...env, ...proxyEnv(`127.0.0.1:${port}`) } };
    },
  };
}
