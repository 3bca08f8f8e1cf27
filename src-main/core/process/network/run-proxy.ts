/** Which runs get a proxy, and where it listens: one per run, so what it refuses is that run's alone. */
import { join } from 'node:path';
import type { SandboxView } from '../../../shared/runs.js';
import { startNetworkProxy, type NetworkProxy } from './proxy-server.js';

/**
 * Starts the proxy a run needs: one when its contained profile leads to a list of hosts (a Unix
 * socket in the run's private folder for bubblewrap, a loopback port for Seatbelt); null for a run
 * with no network, with this computer's own, or not contained.
 */
export function startRunProxy(sandbox: SandboxView, runDir: string): Promise<NetworkProxy | null> {
  if (!sandbox.contained || !sandbox.network || sandbox.hosts === 'host') return Promise.resolve(null);
  return startNetworkProxy({ hosts: sandbox.hosts, socketPath: sandbox.mechanism === 'bubblewrap' ? join(runDir, 'proxy.sock') : null });
}
