/**
 * Hostile: no network tool reaches a host socket. An abstract Unix socket (where X11 and D-Bus
 * listen) belongs to a network namespace, so a tool with a host list, which has its own, cannot
 * see it; `network: host` shares this computer's namespace, so there a seccomp filter forbids
 * creating any Unix socket at all, abstract or on disk. Meanwhile `network: host` keeps what it
 * is for: ping (ICMP) and the system resolver. On the real CLI and runner, as root and as an
 * ordinary user; each listener first answers a probe from outside any sandbox (the control).
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../../support/fresh-build.js';
import { icmpAllowed, requireSandbox } from '../../../support/sandbox.js';
import { networkHome, outside, runProbe, shellWord, whoRuns } from './network-probes.js';

/** Connects to each Unix socket named (`@name`: abstract) and prints `<name>: <what it said, or the error code>`. */
const CONNECT = `for (const name of process.argv.slice(1)) {
  const path = name.startsWith('@') ? '\\0' + name.slice(1) : name;
  require('net').connect(path)
    .on('data', (d) => console.log(name + ': ' + String(d).trim()))
    .on('error', (e) => console.log(name + ': ' + e.code));
}`;

const probeScript = (...names: string[]): string => `${shellWord(process.execPath)} -e ${shellWord(CONNECT)} ${names.map(shellWord).join(' ')}`;

const ABSTRACT = `@skilltray-net-test-${process.pid}`;
/** Outside /tmp (which a run sees as its own, empty one), so the socket is there to be reached. */
let socketDir: string;
let onDisk: string;
const servers: Server[] = [];
let connections = 0;

function listen(path: string): Promise<void> {
  const server = createServer((socket) => {
    connections++;
    socket.end('answered');
  });
  servers.push(server);
  return new Promise((resolve) => server.listen(path, resolve));
}

beforeAll(async () => {
  requireSandbox();
  mkdirSync(join(ROOT, 'test-results'), { recursive: true });
  socketDir = mkdtempSync(join(ROOT, 'test-results', 'net-sockets-'));
  chmodSync(socketDir, 0o755);
  onDisk = join(socketDir, 'agent.sock');
  await listen(`\0${ABSTRACT.slice(1)}`);
  await listen(onDisk);
  // Anyone may connect, as to a careless agent's socket: only the sandbox stands in the way.
  chmodSync(onDisk, 0o777);
});
afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  rmSync(socketDir, { recursive: true, force: true });
});

describe.each(whoRuns())('host sockets and network tools, $label', (who) => {
  it('the controls: both listeners answer outside a sandbox', async () => {
    const t = networkHome({}, who);
    expect((await outside(t, who, probeScript(ABSTRACT, onDisk))).split('\n').sort()).toEqual([`${ABSTRACT}: answered`, `${onDisk}: answered`].sort());
  });

  it('an abstract socket is out of reach of a tool with a host list and of one with any host: its network namespace is its own', async () => {
    const t = networkHome({ 'net-list': ['api.github.com'], 'net-any': true }, who);
    const before = connections;
    for (const skill of ['net-list', 'net-any']) {
      const report = await runProbe(t, who, skill, probeScript(ABSTRACT));
      expect(report.sandbox).toMatchObject({ network: true, contained: true });
      expect(report.result.stdout, skill).toBe(`${ABSTRACT}: ECONNREFUSED\n`);
    }
    expect(connections).toBe(before);
  });

  it('network: host opens no Unix socket, abstract or on disk, yet resolves names', async () => {
    const t = networkHome({ 'net-host': 'host' }, who);
    const before = connections;
    const report = await runProbe(t, who, 'net-host', `${probeScript(ABSTRACT, onDisk)}\ngetent hosts localhost`);
    expect(report.sandbox).toMatchObject({ network: true, hosts: 'host', contained: true, mechanism: 'bubblewrap' });
    const lines = report.result.stdout.trim().split('\n');
    expect(lines.slice(0, 2).sort()).toEqual([`${ABSTRACT}: EACCES`, `${onDisk}: EACCES`].sort());
    expect(lines[2]).toMatch(/^(127\.0\.0\.1|::1)\s+localhost/);
    expect(connections).toBe(before);
  });

  const icmp = icmpAllowed(who.ids?.gid ?? process.getgid?.() ?? -1);
  it.skipIf(!icmp)(`network: host pings${icmp ? '' : ' (skipped: net.ipv4.ping_group_range excludes this group, see docs/runner.md)'}`, async () => {
    const t = networkHome({ 'net-host': 'host' }, who);
    const report = await runProbe(t, who, 'net-host', 'ping -c 1 -W 2 127.0.0.1');
    expect(report.result.exitCode, report.result.stderr).toBe(0);
    expect(report.result.stdout).toContain('1 packets transmitted, 1 received');
  });
});
