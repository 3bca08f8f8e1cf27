/**
 * The relay (net-relay.c) as built, in a network namespace of its own (bwrap, as a run uses it):
 * it listens before the tool starts, carries bytes both ways (megabytes, with a half-close) to a
 * Unix socket, installs the socket filter on the tool alone (the tool makes no Unix socket, the
 * relay still reaches the proxy's), reports the folders that are full when the tool ends, and
 * ends as the tool ends — its exit status, 128 + a signal, 127 for a program that cannot run, 125
 * for a relay that cannot start.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN_SOCKET_FAMILIES, socketFilter } from '../../../src-main/core/process/network/socket-filter.js';
import { requireSandbox } from '../../support/sandbox.js';
import { NET_RELAY } from '../../support/temp.js';

let dir: string;
let echo: Server;

beforeAll(async () => {
  requireSandbox();
  dir = mkdtempSync(join(tmpdir(), 'skilltray-relay-'));
  echo = createServer((socket) => socket.pipe(socket));
  await new Promise<void>((resolve) => echo.listen(join(dir, 'echo.sock'), resolve));
});
afterAll(async () => {
  await new Promise<void>((resolve) => echo.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

/** The relay as a run's first process: its own network namespace, the echo socket visible at the same path; `fd3` feeds or reads fd 3. */
function relay(args: string[], options: { input?: Buffer; fd3?: Uint8Array | 'pipe'; box?: string[] } = {}) {
  const { input, fd3, box = [] } = options;
  return execa(
    'bwrap',
    ['--unshare-all', '--die-with-parent', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--bind', dir, dir, ...box, '--', NET_RELAY, ...args],
    {
      reject: false,
      encoding: 'buffer',
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe', ...(fd3 === undefined ? [] : [fd3])],
      ...(input === undefined ? {} : { input }),
    },
  );
}

const listen = (): string[] => ['-l', '3128', '-s', join(dir, 'echo.sock')];

/** A tool that sends its stdin to 127.0.0.1:3128, half-closes, and prints the SHA-256 of what comes back and its length. */
const ROUND_TRIP = `const s = require('net').connect(3128, '127.0.0.1'); const h = require('crypto').createHash('sha256'); let n = 0;
process.stdin.pipe(s); s.on('data', (d) => { h.update(d); n += d.length; }); s.on('end', () => console.log(h.digest('hex') + ' ' + n));`;

describe('the network relay', () => {
  it('carries 4 MiB to the proxy socket and back, through a half-close', async () => {
    const payload = randomBytes(4 * 1024 * 1024);
    const result = await relay([...listen(), process.execPath, '-e', ROUND_TRIP], { input: payload });
    expect(result.exitCode, Buffer.from(result.stderr).toString()).toBe(0);
    expect(Buffer.from(result.stdout).toString().trim()).toBe(`${createHash('sha256').update(payload).digest('hex')} ${payload.length}`);
  });

  it('exits as the tool does: its status, or 128 + the signal that ended it', async () => {
    const seven = await relay([...listen(), '/bin/sh', '-c', 'exit 7']);
    expect(seven.exitCode, Buffer.from(seven.stderr).toString()).toBe(7);
    expect((await relay([...listen(), '/bin/sh', '-c', 'kill -TERM $$'])).exitCode).toBe(143);
    expect((await relay(['/bin/sh', '-c', 'exit 3'])).exitCode).toBe(3);
  });

  it('says why when the program cannot run (127) or the relay cannot start (125)', async () => {
    const missing = await relay([...listen(), join(dir, 'no-such-program')]);
    expect(missing.exitCode).toBe(127);
    expect(Buffer.from(missing.stderr).toString()).toContain(`skilltray net-relay: cannot run ${join(dir, 'no-such-program')}: No such file or directory`);
    for (const args of [
      ['-l', '0', '-s', 'x', '/bin/true'],
      ['-l', '3128', '-s', 'x'],
      ['-l', '3128', '-s', 'x', 'relative'],
      ['-l', '3128', '/bin/true'],
      ['-f', '3', '/bin/true'],
      ['-r', '1', '/bin/true'],
      ['-x', '/bin/true'],
    ])
      expect((await relay(args)).exitCode, args.join(' ')).toBe(125);
  });

  it('installs the socket filter on the tool alone: the tool makes no Unix socket, the relay still carries to the proxy’s', async () => {
    const filter = socketFilter(RUN_SOCKET_FAMILIES) as Buffer;
    const payload = randomBytes(64 * 1024);
    const carried = await relay([...listen(), '-f', '3', process.execPath, '-e', ROUND_TRIP], { input: payload, fd3: filter });
    expect(Buffer.from(carried.stdout).toString().trim(), Buffer.from(carried.stderr).toString()).toBe(
      `${createHash('sha256').update(payload).digest('hex')} ${payload.length}`,
    );
    const direct = `require('net').connect(${JSON.stringify(join(dir, 'echo.sock'))}).on('connect', function () { console.log('connected'); this.end(); }).on('error', (e) => console.log(e.code))`;
    const refused = await relay([...listen(), '-f', '3', process.execPath, '-e', direct], { fd3: filter });
    expect(Buffer.from(refused.stdout).toString()).toBe('EACCES');
    const unfiltered = await relay([...listen(), process.execPath, '-e', direct]);
    expect(Buffer.from(unfiltered.stdout).toString()).toBe('connected');
  });

  it('reports, when the tool ends, each watched folder that has no room left, on a descriptor the tool does not have', async () => {
    const [full, roomy] = [join(dir, 'full'), join(dir, 'roomy')];
    const box = ['--size', '1048576', '--tmpfs', full, '--size', '1048576', '--tmpfs', roomy];
    const script = `head -c 2000000 /dev/zero > ${full}/fill; head -c 1000 /dev/zero > ${roomy}/some; [ -e /proc/$$/fd/3 ] && echo 'the tool has fd 3' || echo 'no fd 3'`;
    const result = await relay(['-r', '3', '-w', full, '-w', roomy, '/bin/sh', '-c', script], { fd3: 'pipe', box });
    expect(Buffer.from(result.stderr).toString()).toContain('No space left on device');
    expect(Buffer.from(result.stdio[3] as unknown as Uint8Array).toString()).toBe(`full ${full}`);
    expect(Buffer.from(result.stdout).toString()).toBe('no fd 3');
  });
});
