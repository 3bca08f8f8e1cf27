/**
 * The network part of a bubblewrap run (docs/runner.md#network). The network namespace is never
 * the host's, except under `network: host`, which shares it and instead forbids Unix sockets with a
 * seccomp filter (abstract sockets such as X11 and D-Bus live in the namespace). A run with a host
 * list gets its proxy's socket bound in read-only and the relay as its first process, listening on
 * 127.0.0.1:RELAY_PORT inside, with the proxy variables pointing there. A list without a proxy, or
 * without the relay, gets no network at all: it fails closed.
 */
import { accessSync, constants } from 'node:fs';
import { proxyEnv } from '../network/proxy-env.js';
import { socketFilter } from '../network/socket-filter.js';
import type { SandboxProfile } from '../../../shared/runs.js';
import type { RunPlaces } from './sandbox.js';

/** Where the relay listens inside the sandbox's own loopback. */
export const RELAY_PORT = 3128;

/** Where the proxy's socket appears inside the sandbox (in its private /tmp). */
export const PROXY_SOCKET_INSIDE = '/tmp/.skilltray-proxy.sock';

/** The file descriptor bwrap reads the seccomp filter from: the first after stdin, stdout and stderr. */
const SECCOMP_FD = 3;

/** What the network adds to a bubblewrap command line. */
export interface BubblewrapNetwork {
  /** Namespace flags after `--unshare-all`. */
  share: string[];
  /** Mounts and the seccomp flag, after every filesystem rule. */
  mounts: string[];
  /** What runs before the program (the relay and its arguments). */
  prefix: string[];
  env: Record<string, string>;
  /** Data for file descriptors 3, 4, … (the seccomp filter). */
  inputs: Uint8Array[];
}

const NONE: BubblewrapNetwork = { share: [], mounts: [], prefix: [], env: {}, inputs: [] };

/** The network part of a run's command line; `relay` is the relay binary's path. */
export function bubblewrapNetwork(places: Pick<RunPlaces, 'profile' | 'proxy'>, relay: string | null): BubblewrapNetwork {
  const { profile, proxy } = places;
  if (!profile.network) return NONE;
  if (profile.hosts === 'host') {
    const filter = socketFilter();
    if (filter === null) return NONE;
    return { ...NONE, share: ['--share-net'], mounts: ['--seccomp', String(SECCOMP_FD)], inputs: [filter] };
  }
  if (proxy?.kind !== 'unix' || relay === null) return NONE;
  return {
    ...NONE,
    mounts: ['--ro-bind', proxy.path, PROXY_SOCKET_INSIDE, '--ro-bind', relay, relay],
    prefix: [relay, String(RELAY_PORT), PROXY_SOCKET_INSIDE],
    env: proxyEnv(`127.0.0.1:${RELAY_PORT}`),
  };
}

/** Why runs of `profile` cannot have their network here, or null when they can. */
export function bubblewrapNetworkUnavailable(profile: SandboxProfile, relay: string | null): string | null {
  if (!profile.network) return null;
  if (profile.hosts === 'host') {
    return socketFilter() === null
      ? `network: host needs a socket filter written for this processor (${process.arch}); Skilltray has one for x64 and arm64`
      : null;
  }
  try {
    if (relay === null) throw new Error('no path');
    accessSync(relay, constants.X_OK);
    return null;
  } catch {
    return `the network relay ${relay ?? ''} is missing or not executable, so a run cannot reach its hosts through Skilltray's proxy (npm run build:node builds it)`;
  }
}
