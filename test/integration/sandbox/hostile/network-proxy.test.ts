/**
 * Hostile: a tool with the network reaches exactly its listed hosts, through the filtering proxy
 * Skilltray runs outside the sandbox, and nothing else — on the real CLI and runner, as root and
 * as an ordinary user. Each refused connection is recorded on the run (its report, `history <id>`
 * and its JSON). A control shows each target is reachable without a sandbox, so a refusal inside
 * means something; loopback listeners count every connection they get.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireSandbox } from '../../../support/sandbox.js';
import { loopbackListener, unsandboxed } from '../probe.js';
import { networkHome, recorded, runProbe, skilltray, whoRuns } from './network-probes.js';

let allowed: Awaited<ReturnType<typeof loopbackListener>>;
let other: Awaited<ReturnType<typeof loopbackListener>>;
beforeAll(async () => {
  requireSandbox();
  allowed = await loopbackListener();
  other = await loopbackListener();
});
afterAll(async () => {
  await allowed.close();
  await other.close();
});

describe.each(whoRuns())('a network tool, $label', (who) => {
  it('reaches its listed loopback host by http_proxy, CONNECT and SOCKS5, and nothing else; the refusals are on the run', async () => {
    const t = networkHome({ 'net-list': [`127.0.0.1:${allowed.port}`] }, who);
    for (const port of [allowed.port, other.port]) {
      expect((await unsandboxed(`curl -sS --noproxy '*' http://127.0.0.1:${port}/`, t.userHome, t.env)).stdout, 'the control reaches it').toBe('reached');
    }
    const dry = await skilltray(t, who, ['run', 'net-list', 'sh', '--arg', 'script=true', '--dry-run', '--json']);
    expect(JSON.parse(dry.stdout)).toMatchObject({ sandbox: { name: 'read-only', network: true, hosts: [`127.0.0.1:${allowed.port}`], contained: true } });

    const reachedBefore = allowed.connections();
    const otherBefore = other.connections();
    const url = `http://127.0.0.1:${allowed.port}`;
    const report = await runProbe(
      t,
      who,
      'net-list',
      [
        `curl -sS ${url}/plain`,
        `curl -sS --proxytunnel ${url}/tunnel`,
        `curl -sS -x "$ALL_PROXY" ${url}/socks`,
        // Refused: another port of the same host, another host by name, and a direct connection.
        `curl -sS http://127.0.0.1:${other.port}/other`,
        `curl -sS --proxytunnel https://denied.example/ || echo "tunnel refused: $?"`,
        `(echo probe > /dev/tcp/127.0.0.1/${allowed.port}) 2>/dev/null || echo "direct refused"`,
      ].join('\n'),
    );
    expect(report.sandbox).toMatchObject({ network: true, hosts: [`127.0.0.1:${allowed.port}`], contained: true, mechanism: 'bubblewrap' });
    expect(report.result.stdout).toBe(
      [
        'reached',
        'reached',
        'reached',
        `Skilltray's network allow-list refused "127.0.0.1" port ${other.port}: not in the skill's network list`,
        'tunnel refused: 56',
        'direct refused',
        '',
      ].join('\n'),
    );
    expect(allowed.connections() - reachedBefore).toBe(3);
    expect(other.connections()).toBe(otherBefore);

    const refusals = [
      { host: '127.0.0.1', port: other.port, why: "not in the skill's network list", count: 1 },
      { host: 'denied.example', port: 443, why: "not in the skill's network list", count: 1 },
    ];
    expect(report.networkDenied).toEqual(refusals);
    const history = await recorded(t, who, report.id);
    expect(history.record.networkDenied).toEqual(refusals);
    expect(history.text).toContain(`sandbox     read-only, network to 127.0.0.1:${allowed.port} (bubblewrap)`);
    expect(history.text).toContain(`refused     127.0.0.1:${other.port}: not in the skill's network list`);
    expect(history.text).toContain("refused     denied.example:443: not in the skill's network list");
  });

  it('with any host (network: true), reaches no service on this computer, by address or by name', async () => {
    const t = networkHome({ 'net-any': true }, who);
    const before = allowed.connections();
    const report = await runProbe(
      t,
      who,
      'net-any',
      [
        `curl -sS http://127.0.0.1:${allowed.port}/`,
        `curl -sS -x "$ALL_PROXY" http://localhost:${allowed.port}/ || echo "socks refused: $?"`,
        `(echo probe > /dev/tcp/127.0.0.1/${allowed.port}) 2>/dev/null || echo "direct refused"`,
      ].join('\n'),
    );
    expect(report.sandbox).toMatchObject({ network: true, hosts: ['*'], contained: true });
    expect(report.result.stdout).toBe(
      [
        `Skilltray's network allow-list refused "127.0.0.1" port ${allowed.port}: 127.0.0.1 is this computer (loopback, 127.0.0.0/8); only a list that names this address reaches it`,
        'socks refused: 97',
        'direct refused',
        '',
      ].join('\n'),
    );
    expect(allowed.connections()).toBe(before);
    expect(report.networkDenied.map((d) => `${d.host}:${d.port}`)).toEqual([`127.0.0.1:${allowed.port}`, `localhost:${allowed.port}`]);
  });
});
