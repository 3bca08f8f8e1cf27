/**
 * Hostile: no tool reaches a host socket, and none creates a Unix socket at all (#38). Every
 * contained run has a seccomp filter that lets it create Internet and netlink-route sockets only,
 * checked on socket() and socketpair(): a Unix socket, abstract or on disk, stream or datagram,
 * cannot be made in any profile. That matters most under `network: host`, which shares this
 * computer's network namespace, where abstract sockets (X11, D-Bus, systemd) live; a tool with a
 * host list or any host also has a namespace of its own. Meanwhile `network: host` keeps what it
 * is for: ping (ICMP) and the system resolver. On the real CLI and runner, as root and as an
 * ordinary user; each listener first answers a probe from outside any sandbox (the control).
 */
import { chmodSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reachableDir } from '../../../support/reachable.js';
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
/** An abstract datagram socket on this computer (the #38 reproduction reached one through socketpair and connect). */
const DATAGRAM = `skilltray-net-dgram-${process.pid}`;
let datagrams: ResultPromise | undefined;
let received = 0;

/**
 * Makes a Unix socket with socket() and a datagram pair with socketpair(), and sends on the pair to
 * the abstract datagram socket: prints what each step got (made, sent, or the error).
 */
const UNIX_SOCKETS = `perl -MSocket -e '
print socket(my $s, AF_UNIX, SOCK_STREAM, 0) ? "socket: made\\n" : "socket: $!\\n";
if (socketpair(my $a, my $b, AF_UNIX, SOCK_DGRAM, 0)) {
  print connect($a, pack_sockaddr_un("\\0${DATAGRAM}")) && send($a, "from the box", 0) ? "socketpair: sent\\n" : "socketpair: made, then $!\\n";
} else { print "socketpair: $!\\n" }'`;
/**
 * Tries, on pids 1 and 2 of the box (bubblewrap's first process and the relay, which may hold what
 * the tool may not: the relay opens Unix sockets), to write its memory, attach to it and take its
 * file descriptors; prints what each got.
 */
const INTO_OTHERS = `import ctypes, errno, os
libc = ctypes.CDLL(None, use_errno=True)
for pid in (1, 2):
    try:
        open('/proc/%d/mem' % pid, 'r+b')
        print(pid, 'mem: opened')
    except OSError:
        print(pid, 'mem: refused')
    # PTRACE_SEIZE: attaches as PTRACE_ATTACH does, by the same rules, without stopping it.
    r = libc.ptrace(0x4206, pid, 0, 0)
    print(pid, 'ptrace:', 'attached' if r == 0 else errno.errorcode[ctypes.get_errno()])
    fd = os.pidfd_open(pid)
    r = libc.syscall(438, fd, 0, 0)
    print(pid, 'pidfd_getfd:', 'took' if r >= 0 else errno.errorcode[ctypes.get_errno()])`;

/** Where the ordinary user can reach it too, for the control that connects as them. */
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
  socketDir = reachableDir('net-sockets-');
  onDisk = join(socketDir, 'agent.sock');
  await listen(`\0${ABSTRACT.slice(1)}`);
  const listener = execa(
    'perl',
    [
      '-MSocket',
      '-e',
      `socket(my $s, AF_UNIX, SOCK_DGRAM, 0) or die "socket: $!"; bind($s, pack_sockaddr_un("\\0${DATAGRAM}")) or die "bind: $!"; $| = 1; print "ready\\n"; while (defined recv($s, my $d, 100, 0)) { print "got $d\\n" }`,
    ],
    { reject: false, stdin: 'ignore' },
  );
  datagrams = listener;
  await new Promise<void>((resolve, reject) => {
    listener.stdout.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line === 'ready') resolve();
        else if (line.startsWith('got ')) received++;
      }
    });
    void listener.then((ended) => reject(new Error(`the datagram listener ended: ${String(ended.stderr)}`)));
  });
  await listen(onDisk);
  // Anyone may connect, as to a careless agent's socket: only the sandbox stands in the way.
  chmodSync(onDisk, 0o777);
});
afterAll(async () => {
  if (datagrams?.pid !== undefined) process.kill(datagrams.pid, 'SIGKILL');
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  rmSync(socketDir, { recursive: true, force: true });
});

describe.each(whoRuns())('host sockets and network tools, $label', (who) => {
  it('the controls: every listener answers outside a sandbox', async () => {
    const t = networkHome({}, who);
    expect((await outside(t, who, probeScript(ABSTRACT, onDisk))).split('\n').sort()).toEqual([`${ABSTRACT}: answered`, `${onDisk}: answered`].sort());
    const before = received;
    expect(await outside(t, who, UNIX_SOCKETS)).toBe('socket: made\nsocketpair: sent');
    await expect.poll(() => received).toBe(before + 1);
  });

  it('no contained run creates a Unix socket of any kind, by socket() or socketpair(), whatever its network (#38: a datagram pair reached the host)', async () => {
    const t = networkHome({ 'net-none': false, 'net-list': ['api.github.com'], 'net-any': true, 'net-host': 'host' }, who);
    const before = received;
    for (const skill of ['net-none', 'net-list', 'net-any', 'net-host']) {
      const report = await runProbe(t, who, skill, UNIX_SOCKETS);
      expect(report.sandbox, skill).toMatchObject({ contained: true, mechanism: 'bubblewrap' });
      expect(report.result.stdout, skill).toBe('socket: Permission denied\nsocketpair: Permission denied\n');
    }
    expect(received).toBe(before);
  });

  it("no tool works through the box's processes the filter does not hold (bubblewrap's first, the relay): no ptrace, /proc/PID/mem or pidfd_getfd", async () => {
    const t = networkHome({ 'net-list': ['api.github.com'], 'net-host': 'host' }, who);
    for (const skill of ['net-list', 'net-host']) {
      const report = await runProbe(t, who, skill, `python3 -c ${shellWord(INTO_OTHERS)}`);
      expect(report.result.stdout, `${skill}: ${report.result.stderr}`).toBe(
        [1, 2].flatMap((pid) => [`${pid} mem: refused`, `${pid} ptrace: EPERM`, `${pid} pidfd_getfd: EPERM`]).join('\n') + '\n',
      );
    }
  });

  it('an abstract socket is out of reach of a tool with a host list and of one with any host: no Unix socket can be made (and its network namespace is its own)', async () => {
    const t = networkHome({ 'net-list': ['api.github.com'], 'net-any': true }, who);
    const before = connections;
    for (const skill of ['net-list', 'net-any']) {
      const report = await runProbe(t, who, skill, probeScript(ABSTRACT));
      expect(report.sandbox).toMatchObject({ network: true, contained: true });
      expect(report.result.stdout, skill).toBe(`${ABSTRACT}: EACCES\n`);
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
