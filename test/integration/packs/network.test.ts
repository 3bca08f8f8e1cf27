/** The network pack, run for real against this machine's loopback only (Linux: getent, iputils ping). */
import { describe, expect, it } from 'vitest';
import { runTool } from '../../support/run-tool.js';
import { tempDir } from '../../support/temp.js';
import { argv, pack } from './bundled-packs.js';

const skill = pack('network');

describe('network pack: rendering', () => {
  it.each([
    ['resolve_host', { name: 'example.com' }, ['getent', 'hosts', 'example.com']],
    ['ping_host', { host: '192.0.2.1' }, ['ping', '-c', '3', '-W', '2', '192.0.2.1']],
    ['ping_host', { host: 'example.com', count: '5' }, ['ping', '-c', '5', '-W', '2', 'example.com']],
    ['ping_host', { host: 'example.com', count: 2 }, ['ping', '-c', '2', '-W', '2', 'example.com']],
  ])('%s %j', (tool, args, expected) => {
    expect(argv(skill, tool, args)).toEqual(expected);
  });

  it.each([
    ['ping_host', { host: '-f' }, 'E504'],
    ['ping_host', { host: 'localhost', count: '6' }, 'E505'],
    ['ping_host', { host: 'localhost', count: '0' }, 'E505'],
    ['ping_host', { host: 'localhost', count: 6 }, 'E505'],
    ['ping_host', { count: '1' }, 'E501'],
    ['resolve_host', { name: '-s' }, 'E504'],
    ['resolve_host', { name: 'a', type: 'AAAA' }, 'E502'],
  ])('%s %j is refused with %s', (tool, args, code) => {
    expect(() => argv(skill, tool, args)).toThrow(expect.objectContaining({ code }));
  });
});

describe('network pack: real runs', () => {
  it('resolve_host resolves localhost to a loopback address', async () => {
    const { result } = await runTool(skill, 'resolve_host', { name: 'localhost' }, tempDir());
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^(127\.0\.0\.1|::1)\s+localhost\b/m);
  });

  it('ping_host pings 127.0.0.1 once and reports the reply', async () => {
    const { result } = await runTool(skill, 'ping_host', { host: '127.0.0.1', count: '1' }, tempDir());
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^64 bytes from 127\.0\.0\.1: icmp_seq=1 ttl=\d+ time=[\d.]+ ms$/m);
    expect(result.stdout).toContain('1 packets transmitted, 1 received, 0% packet loss');
  });

  it('refuses a flood-ping flag given as a host before any process starts', async () => {
    await expect(runTool(skill, 'ping_host', { host: '-f' }, tempDir())).rejects.toMatchObject({ code: 'E504' });
  });
});
