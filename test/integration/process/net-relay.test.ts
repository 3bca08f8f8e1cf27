/**
 * The network relay (net-relay.c) as built, in a network namespace of its own (bwrap, as a run
 * uses it): it listens before the tool starts, carries bytes both ways (megabytes, with a
 * half-close) to a Unix socket, and ends as the tool ends — its exit status, 128 + a signal, 127
 * for a program that cannot run, 125 for a relay that cannot start.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

/** The relay as a run's first process: its own network namespace, the echo socket visible at the same path. */
function relay(args: string[], input?: Buffer) {
  return execa(
    'bwrap',
    ['--unshare-all', '--die-with-parent', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--bind', dir, dir, '--', NET_RELAY, ...args],
    {
      reject: false,
      encoding: 'buffer',
      ...(input === undefined ? { stdin: 'ignore' as const } : { input }),
    },
  );
}

/** A tool that sends its stdin to 127.0.0.1:3128, half-closes, and prints the SHA-256 of what comes back and its length. */
const ROUND_TRIP = `const s = require('net').connect(3128, '127.0.0.1'); const h = require('crypto').createHash('sha256'); let n = 0;
process.stdin.pipe(s); s.on('data', (d) => { h.update(d); n += d.length; }); s.on('end', () => console.log(h.digest('hex') + ' ' + n));`;

describe('the network relay', () => {
  it('carries 4 MiB to the proxy socket and back, through a half-close', async () => {
    const payload = randomBytes(4 * 1024 * 1024);
    const result = await relay(['3128', join(dir, 'echo.sock'), process.execPath, '-e', ROUND_TRIP], payload);
    expect(result.exitCode, Buffer.from(result.stderr).toString()).toBe(0);
    expect(Buffer.from(result.stdout).toString().trim()).toBe(`${createHash('sha256').update(payload).digest('hex')} ${payload.length}`);
  });

  it('exits as the tool does: its status, or 128 + the signal that ended it', async () => {
    const seven = await relay(['3128', join(dir, 'echo.sock'), '/bin/sh', '-c', 'exit 7']);
    expect(seven.exitCode, Buffer.from(seven.stderr).toString()).toBe(7);
    expect((await relay(['3128', join(dir, 'echo.sock'), '/bin/sh', '-c', 'kill -TERM $$'])).exitCode).toBe(143);
  });

  it('says why when the program cannot run (127) or the relay cannot start (125)', async () => {
    const missing = await relay(['3128', join(dir, 'echo.sock'), join(dir, 'no-such-program')]);
    expect(missing.exitCode).toBe(127);
    expect(Buffer.from(missing.stderr).toString()).toContain(`skilltray net-relay: cannot run ${join(dir, 'no-such-program')}: No such file or directory`);
    for (const args of [
      ['0', 'x', '/bin/true'],
      ['3128', 'x'],
      ['3128', 'x', 'relative'],
    ])
      expect((await relay(args)).exitCode, args.join(' ')).toBe(125);
  });
});
