/**
 * Codex-style network probes on the real runner: under `read-only` (and `workspace`) nothing reaches
 * a listener the test runs on loopback, by any program. Each probe first succeeds without a sandbox
 * (the control), so its failure inside means something. A probe whose program is not installed is
 * skipped, and says so in its name. What a skill that declares the network reaches, and what it
 * does not, is in hostile/network-proxy.test.ts and hostile/network-sockets.test.ts.
 */
import { execaSync } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireSandbox } from '../../support/sandbox.js';
import { installed, loopbackListener, probe, probeHome, unsandboxed } from './probe.js';

let listener: Awaited<ReturnType<typeof loopbackListener>>;
beforeAll(async () => {
  requireSandbox();
  listener = await loopbackListener();
});
afterAll(async () => listener.close());

const PROBES: { program: string; script: (port: number) => string }[] = [
  { program: 'curl', script: (port) => `curl -sS --max-time 5 http://127.0.0.1:${port}/` },
  { program: 'wget', script: (port) => `wget -q -T 5 -t 1 -O - http://127.0.0.1:${port}/` },
  { program: 'nc', script: (port) => `nc -z -w 5 127.0.0.1 ${port}` },
  { program: 'bash', script: (port) => `echo probe > /dev/tcp/127.0.0.1/${port}` },
];

/** A name that needs DNS (not in /etc/hosts), and whether this machine's resolver answers for it at all. */
const DNS_NAME = 'example.com';
const dnsAnswers = (() => {
  try {
    return execaSync('getent', ['hosts', DNS_NAME], { reject: false, timeout: 10_000 }).exitCode === 0;
  } catch {
    return false;
  }
})();

describe('no network in read-only and workspace', () => {
  for (const { program, script } of PROBES) {
    const absent = !installed(program);
    it.skipIf(absent)(`${program} cannot reach a loopback listener${absent ? ` (skipped: ${program} is not installed)` : ''}`, async () => {
      const { t, core } = probeHome();
      const control = await unsandboxed(script(listener.port), t.work, t.env);
      expect(control.exitCode, `${program} reaches the listener without a sandbox`).toBe(0);
      const before = listener.connections();
      for (const skill of ['probe-ro', 'probe-ws'] as const) {
        const report = await probe(core, skill, script(listener.port), t.work);
        expect(report.sandbox).toMatchObject({ contained: true, mechanism: 'bubblewrap', network: false });
        expect(report.result.exitCode, `${program} under ${skill}`).not.toBe(0);
      }
      expect(listener.connections()).toBe(before);
    });
  }

  it.skipIf(!installed('getent'))(
    `getent hosts cannot reach a DNS resolver${dnsAnswers ? '' : ' (no resolver answers on this machine: only the failure inside is shown)'}`,
    async () => {
      const { t, core } = probeHome();
      const report = await probe(core, 'probe-ro', `getent hosts ${DNS_NAME}`, t.work);
      expect(report.result.exitCode).not.toBe(0);
      expect(report.result.stdout).toBe('');
      if (dnsAnswers) expect((await unsandboxed(`getent hosts ${DNS_NAME}`, t.work, t.env)).exitCode).toBe(0);
      // Names in /etc/hosts still resolve: the files are readable, only the network is gone.
      expect((await probe(core, 'probe-ro', 'getent hosts localhost', t.work)).result.exitCode).toBe(0);
    },
  );
});
