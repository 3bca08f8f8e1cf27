/** Words for the codes an approval carries. */
import type { Trust } from '../../src-main/shared/model.js';
import { ANY_HOST } from '../../src-main/shared/network-reach.js';
import type { SandboxView, Surface } from '../../src-main/shared/runs.js';

/** Who asked, by the surface the request came through. */
export const SURFACE_LABELS: Record<Surface, string> = {
  cli: 'command line (skilltray)',
  http: 'HTTP API',
  mcp: 'MCP client',
  ui: 'this app',
  browser: 'the browser UI (over HTTP)',
};

/** What a trust level means for the person deciding. */
export const TRUST_LABELS: Record<Trust, string> = {
  bundled: 'Bundled (ships with Skilltray)',
  user: 'User skill (added on this machine)',
};

/** One badge: its words, its tone, and what it means on hover. */
export interface Badge {
  text: string;
  tone: 'ok' | 'warn' | 'bad';
  title: string;
}

/** The network badge: none, the hosts through Skilltray's proxy (named when few), any host, or this computer's own network. */
function networkBadge(sandbox: SandboxView): Badge {
  if (!sandbox.network) return { text: 'no network', tone: 'ok', title: 'it cannot reach any other computer, nor this one over the network' };
  if (sandbox.hosts === 'host') {
    return {
      text: "this computer's network",
      tone: 'bad',
      title: "it shares this computer's own network: any host, ping (ICMP), the system's name resolver and services on this computer; never a Unix socket",
    };
  }
  if (sandbox.hosts.includes(ANY_HOST)) {
    return { text: 'any host', tone: 'warn', title: "it can reach any host through Skilltray's proxy, but not this computer's own services" };
  }
  const text = sandbox.hosts.length <= 2 ? `network: ${sandbox.hosts.join(', ')}` : `network: ${sandbox.hosts.length} hosts`;
  return { text, tone: 'warn', title: `it can reach only ${sandbox.hosts.join(', ')}, through Skilltray's proxy; every other host is refused and recorded` };
}

/**
 * The badges of a run's sandbox, from the profile policy chose, so they can never disagree with it:
 * a read-only run is never labelled as one that may change things, and an uncontained one says so.
 */
export function sandboxBadges(sandbox: SandboxView): Badge[] {
  if (!sandbox.contained) {
    return [{ text: 'not contained', tone: 'bad', title: sandbox.why ?? 'no sandbox applies to this run' }];
  }
  return [
    sandbox.name === 'read-only'
      ? { text: 'read-only', tone: 'ok', title: 'it can read files but change none; it writes only to a private temporary folder' }
      : { text: 'writes in its folder', tone: 'warn', title: 'it may change files in its working directory, and nowhere else' },
    networkBadge(sandbox),
  ];
}
