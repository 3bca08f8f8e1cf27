/**
 * The network pack, run for real against this machine's loopback only (Linux: getent, iputils ping):
 * the tools themselves, then the same calls through the core under the sandbox they get
 * (`network: host`: this computer's own network, no Unix sockets), which always asks first.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SkilltrayCore } from '../../../src-main/core/api.js';
import { runTool } from '../../support/run-tool.js';
import { icmpAllowed, requireSandbox } from '../../support/sandbox.js';
import { tempDir, testHome } from '../../support/temp.js';
import { argv, pack, SKILLS_DIR } from './bundled-packs.js';

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

describe('network pack: contained, as every run of it is', () => {
  const cores: SkilltrayCore[] = [];
  afterEach(async () => {
    for (const core of cores.splice(0)) await core.close();
  });
  const contained = (): { core: SkilltrayCore; cwd: string } => {
    requireSandbox();
    const t = testHome({ bundled: SKILLS_DIR });
    const core = new SkilltrayCore(t.config());
    cores.push(core);
    return { core, cwd: t.work };
  };
  const run = (core: SkilltrayCore, tool: string, args: Record<string, string>, cwd: string) =>
    core.runs.run({ skill: 'network', tool, args, surface: 'cli', cwd }, { approval: { kind: 'preapproved', actor: 'network pack test' } });

  it("shares this computer's network, and asks every time even though it is bundled", () => {
    const { core, cwd } = contained();
    const dry = core.runs.dryRun({ skill: 'network', tool: 'resolve_host', args: { name: 'localhost' }, surface: 'mcp', cwd });
    expect(dry.sandbox).toMatchObject({ name: 'read-only', network: true, hosts: 'host', contained: true, mechanism: 'bubblewrap' });
    expect(dry).toMatchObject({
      decision: 'ask',
      reason:
        "'network/resolve_host' shares this computer's own network (ICMP and the system resolver, no Unix sockets), so every run asks unless a rule of yours allows it",
    });
  });

  it('resolve_host resolves localhost in its sandbox', async () => {
    const { core, cwd } = contained();
    const report = await run(core, 'resolve_host', { name: 'localhost' }, cwd);
    expect(report.sandbox).toMatchObject({ hosts: 'host', contained: true });
    expect(report.result.stdout).toMatch(/^(127\.0\.0\.1|::1)\s+localhost\b/m);
  });

  const icmp = icmpAllowed(process.getgid?.() ?? -1);
  it.skipIf(!icmp)(
    `ping_host pings 127.0.0.1 in its sandbox${icmp ? '' : ' (skipped: net.ipv4.ping_group_range excludes this group, see docs/runner.md)'}`,
    async () => {
      const { core, cwd } = contained();
      const report = await run(core, 'ping_host', { host: '127.0.0.1', count: '1' }, cwd);
      expect(report.result.exitCode, report.result.stderr).toBe(0);
      expect(report.result.stdout).toContain('1 packets transmitted, 1 received, 0% packet loss');
    },
  );
});
