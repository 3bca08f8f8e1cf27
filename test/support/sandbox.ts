/** The sandbox is a required dependency of the containment tests: without it they fail, naming what to install. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { platformSandbox } from '../../src-main/core/process/sandbox/platform-sandbox.js';
import { BUBBLEWRAP_PACKAGE } from '../../src-main/core/process/sandbox/bubblewrap.js';

/** Throws, with the reason and the package to install, when this machine cannot contain runs. */
export function requireSandbox(): void {
  const why = platformSandbox(process.platform, process.env).unavailable();
  if (why !== null) {
    throw new Error(`containment tests need a working sandbox and this machine has none: ${why}. On Debian or Ubuntu: apt-get install ${BUBBLEWRAP_PACKAGE}`);
  }
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A fresh directory outside /tmp (under the checkout's test-results/), removed after the test. The
 * sandbox replaces /tmp with a private one, so only a folder elsewhere shows what a run sees of an
 * ordinary folder that is not its working directory: there, read-only.
 */
export function ordinaryDir(): string {
  const parent = join(import.meta.dirname, '..', '..', 'test-results', 'sandbox');
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, 'run-'));
  dirs.push(dir);
  return dir;
}

/** Whether group `gid` may open ICMP echo sockets without privileges, as ping must in a sandbox (no_new_privs drops its file capability). */
export function icmpAllowed(gid: number): boolean {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ping_group_range', 'utf8').trim().split(/\s+/).map(Number);
    return low !== undefined && high !== undefined && gid >= low && gid <= high;
  } catch {
    return false;
  }
}
