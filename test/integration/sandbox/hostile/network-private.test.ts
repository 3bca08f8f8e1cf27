/**
 * Hostile (#38): `network: true` means the public internet. In a network of the test's own (two
 * namespaces, see network-namespaces.ts), a service on another computer's private, CGNAT or ULA address,
 * and a service listening on every address of this computer reached at one of its own non-loopback
 * addresses, each answer a direct connection (the control) but never a tool with any host; a list
 * that names such an address still reaches it. On the real CLI and runner, as root and as an
 * ordinary user, with Skilltray itself running in the test's namespace. Needs root (ip netns).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireSandbox } from '../../../support/sandbox.js';
import { networkHome, outside, runProbe, whoRuns } from './network-probes.js';
import { HERE, makeTestNetwork, THERE, type NamespaceListener, type TestNetwork } from './network-namespaces.js';

const root = process.getuid?.() === 0;
let net: TestNetwork;
let there: NamespaceListener;
let here: NamespaceListener;

beforeAll(async () => {
  if (!root) return;
  requireSandbox();
  net = makeTestNetwork(String(process.pid % 100_000));
  there = await net.listen(net.there);
  here = await net.listen(net.here);
});
afterAll(() => net?.remove());

/** The URLs of each non-public place a tool with any host must not reach. */
const targets = (): string[] => [
  `http://${THERE.private}:${there.port}/`,
  `http://${THERE.cgnat}:${there.port}/`,
  `http://[${THERE.ula}]:${there.port}/`,
  `http://${HERE.own}:${here.port}/`,
  `http://${HERE.private}:${here.port}/`,
];

describe.skipIf(!root)(`network: true in a network of the test's own${root ? '' : ' (skipped: making network namespaces needs root)'}`, () => {
  describe.each(root ? whoRuns() : [])('$label', (who) => {
    const inside = { ...who, netns: '' };
    beforeAll(() => {
      inside.netns = net.here;
    });

    it("reaches no private, CGNAT or ULA address, nor this computer's own, each of which answers directly", async () => {
      const t = networkHome({ 'net-any': true }, inside);
      const curl = (url: string): string => `curl -sS --max-time 5 ${url.includes('[') ? '-g ' : ''}'${url}'`;
      // The control: each answers a tool outside any sandbox, in the same namespace.
      expect(
        await outside(
          t,
          inside,
          targets()
            .map((url) => `${curl(url)} --noproxy '*'`)
            .join('\n'),
        ),
      ).toBe(
        targets()
          .map(() => 'reached')
          .join('\n'),
      );
      const [thereBefore, hereBefore] = [there.connections(), here.connections()];

      const report = await runProbe(t, inside, 'net-any', targets().map(curl).join('\n'));
      expect(report.sandbox).toMatchObject({ network: true, hosts: ['*'], contained: true });
      expect(report.result.stdout).not.toContain('reached');
      expect(there.connections()).toBe(thereBefore);
      expect(here.connections()).toBe(hereBefore);
      const why = Object.fromEntries(report.networkDenied.map((denial) => [denial.host, denial.why]));
      expect(Object.keys(why).sort()).toEqual([THERE.private, THERE.cgnat, `[${THERE.ula}]`, HERE.own, HERE.private].sort());
      expect(why[THERE.private]).toContain('private');
      expect(why[THERE.cgnat]).toContain('shared address space');
      expect(why[`[${THERE.ula}]`]).toContain('private');
      expect(why[HERE.own]).toContain("this computer's own");
      expect(why[HERE.private]).toContain("this computer's own");
    });

    it('a list that names a private address reaches it', async () => {
      const t = networkHome({ 'net-list': [`${THERE.private}:${there.port}`, `[${THERE.ula}]`] }, inside);
      const before = there.connections();
      const report = await runProbe(
        t,
        inside,
        'net-list',
        `curl -sS http://${THERE.private}:${there.port}/\ncurl -sS -g 'http://[${THERE.ula}]:${there.port}/'`,
      );
      expect(report.result.stdout).toBe('reached\nreached\n');
      expect(there.connections()).toBe(before + 2);
    });
  });
});
