/**
 * The network part of a bubblewrap run (docs/runner.md#network). The network namespace is never
 * the host's, except under `network: host`, which shares it. Every run gets the socket filter
 * (socket-filter.ts: Internet and netlink-route sockets only, never a Unix one), which bwrap
 * installs last; a run with a host list gets its proxy's socket bound in read-only and the relay
 * listening on 127.0.0.1:RELAY_PORT inside, with the proxy variables pointing there, and there the
 * relay installs the filter on the tool alone (it must itself open Unix sockets to the proxy). A
 * list without a proxy, or without the relay, gets no network at all: it fails closed.
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

/** The file descriptor the seccomp filter arrives on: the first after stdin, stdout and stderr. */
const SECCOMP_FD = 3;

/** What the network adds to a bubblewrap command line. */
export interface BubblewrapNetwork {
  /** Namespace flags after `--unshare-all`. */
  share: string[];
  /** Mounts and the seccomp flag, after every filesystem rule. */
  mounts: string[];
  /** The relay's network options (listen, the proxy's socket, the filter it installs); empty when bwrap installs the filter. */
  relay: string[];
  env: Record<string, string>;
  /** Data for file descriptors 3, 4, … (the seccomp filter). */
  inputs: Uint8Array[];
}

/** The network part of a run's command line; `relay` is the relay binary's path. */
export function bubblewrapNetwork(places: Pick<RunPlaces, 'profile' | 'proxy'>, relay: string | null): BubblewrapNetwork {
  const { profile, proxy } = places;
  const filter = socketFilter();
  const inputs = filter === null ? [] : [filter];
  const filtered = { share: [], mounts: filter === null ? [] : ['--seccomp', String(SECCOMP_FD)], relay: [], env: {}, inputs };
  if (!profile.network) return filtered;
  if (profile.hosts === 'host') return { ...filtered, share: ['--share-net'] };
  // A list with no proxy to reach, or no relay to reach it through, reaches nothing.
  if (proxy?.kind !== 'unix' || relay === null) return filtered;
  return {
    share: [],
    mounts: ['--ro-bind', proxy.path, PROXY_SOCKET_INSIDE],
    relay: ['-l', String(RELAY_PORT), '-s', PROXY_SOCKET_INSIDE, '-f', String(SECCOMP_FD)],
    env: proxyEnv(`127.0.0.1:${RELAY_PORT}`),
    inputs,
  };
}

/** Why runs of `profile` cannot have their network (or their socket filter) here, or null when they can. */
export function bubblewrapNetworkUnavailable(profile: SandboxProfile, relay: string | null): string | null {
  if (socketFilter() === null) {
    return `contained runs need a socket filter written for this processor (${process.arch}); Skilltray has one for x64 and arm64`;
  }
  if (!profile.network || profile.hosts === 'host') return null;
  return relayMissing(relay);
}

/** Why the relay cannot run, or null when it can. */
export function relayMissing(relay: string | null): string | null {
  try {
    if (relay === null) throw new Error('no path');
    accessSync(relay, constants.X_OK);
    return null;
  } catch {
    return `the network relay ${relay ?? ''} is missing or not executable, so a run cannot reach its hosts through Skilltray's proxy (npm run build:node builds it)`;
  }
}
