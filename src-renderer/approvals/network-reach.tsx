/** Where a run's network leads, in full (a badge may abbreviate the list), and what its proxy refused. */
import { displayText } from '../../src-main/shared/display-text.js';
import { ANY_HOST } from '../../src-main/shared/network-reach.js';
import type { NetworkDenial, SandboxView } from '../../src-main/shared/runs.js';

/** Every host a contained run may reach, or what "any host" and this computer's own network mean; nothing without a network. */
export function NetworkReach({ sandbox }: { sandbox: SandboxView }) {
  if (!sandbox.network || !sandbox.contained) return null;
  if (sandbox.hosts === 'host') {
    return (
      <p className="network-reach">
        Shares <strong>this computer&apos;s own network</strong>: any host, ping (ICMP), the system&apos;s name resolver and services on this computer,
        unfiltered. It can open no Unix socket.
      </p>
    );
  }
  if (sandbox.hosts.includes(ANY_HOST)) {
    return (
      <p className="network-reach">
        Can reach <strong>any host</strong> through Skilltray&apos;s proxy, but not services on this computer.
      </p>
    );
  }
  return (
    <p className="network-reach">
      Can reach only{' '}
      {sandbox.hosts.map((host) => (
        <code key={host} className="chip">
          {host}
        </code>
      ))}
      through Skilltray&apos;s proxy; any other host is refused and recorded.
    </p>
  );
}

/** The connections a run's proxy refused, each with how often and why; the tool chose each host, so it is shown escaped. */
export function RefusedConnections({ denied }: { denied: readonly NetworkDenial[] }) {
  if (denied.length === 0) return null;
  return (
    <ul className="refused-connections">
      {denied.map((d) => (
        <li key={`${d.host}:${d.port}`}>
          <code>
            {displayText(d.host)}:{d.port}
          </code>
          {d.count > 1 ? ` (${d.count} times)` : ''} — {d.why}
        </li>
      ))}
    </ul>
  );
}
