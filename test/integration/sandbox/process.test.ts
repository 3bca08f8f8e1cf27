/**
 * What the runner promises keeps working inside the sandbox: no_new_privs and a fresh PID namespace,
 * the timeout and cancellation killing the whole sandboxed tree (setsid children included), the
 * environment allow-list and the output cap.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../../src-main/shared/runs.js';
import { ordinaryDir, requireSandbox } from '../../support/sandbox.js';
import { probe, probeHome } from './probe.js';

beforeAll(() => requireSandbox());

/** Host pids of live processes whose command line contains `needle`. */
function processesWith(needle: string): number[] {
  const found: number[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
      if (cmdline.includes(needle) && state !== 'Z') found.push(Number(pid));
    } catch {
      // exited meanwhile
    }
  }
  return found;
}

describe('inside the sandbox', () => {
  it('no_new_privs is set, the PID namespace is fresh and capabilities are gone', async () => {
    const { t, core } = probeHome();
    const report = await probe(core, 'probe-ro', 'grep -E "^(CapEff|NoNewPrivs)" /proc/self/status; cat /proc/1/comm; ls /proc | grep -cE "^[0-9]+$"', t.work);
    const [capEff, noNewPrivs, init, count] = report.result.stdout.trim().split('\n');
    expect(noNewPrivs).toBe('NoNewPrivs:\t1');
    expect(capEff).toBe('CapEff:\t0000000000000000');
    expect(init).toBe('bwrap');
    // bwrap's init, bash, grep/ls: a handful of processes, not the host's table.
    expect(Number(count)).toBeLessThan(8);
  });

  it("the tool holds none of the run's descriptors: not its folder, a declared read, the socket filter or the relay's report", async () => {
    const { t, core } = probeHome();
    mkdirSync(join(t.userHome, '.config', 'app'), { recursive: true });
    const script = 'for fd in $(seq 3 20); do [ -e /proc/$$/fd/$fd ] && echo "fd $fd: $(readlink /proc/$$/fd/$fd)"; done; echo checked';
    for (const skill of ['probe-ro', 'probe-ws', 'probe-reads'] as const) {
      const report = await probe(core, skill, script, t.work);
      expect(report.sandbox, skill).toMatchObject({ contained: true });
      expect(report.result.stdout, skill).toBe('checked\n');
    }
  });

  it('the read-only root cannot be remounted writable', async () => {
    const { core } = probeHome();
    const cwd = ordinaryDir();
    const report = await probe(core, 'probe-ro', 'mount -o remount,rw,bind / ; mount -o remount,rw,bind . ; touch escaped', cwd);
    expect(report.result.stderr).toMatch(/Read-only file system/);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('a sandboxed tree dies at its timeout, setsid children included', async () => {
    const { t, core } = probeHome();
    const marker = `${process.pid % 1000}${Date.now() % 100000}`;
    const report = await probe(core, 'probe-slow', `sleep 9${marker}1 & setsid sleep 9${marker}2 & echo started; wait`, t.work);
    expect(report.result).toMatchObject({ timedOut: true, stdout: 'started\n' });
    expect(processesWith(`sleep 9${marker}`)).toEqual([]);
  });

  it('what the tool leaves running when it exits dies with it (the PID namespace ends)', async () => {
    const { t, core } = probeHome();
    const marker = `${process.pid % 1000}${Date.now() % 100000}`;
    const report = await probe(core, 'probe-ro', `sleep 7${marker}1 & setsid sleep 7${marker}2 & (trap '' TERM; exec sleep 7${marker}3) & echo left`, t.work);
    expect(report.result).toMatchObject({ exitCode: 0, stdout: 'left\n', timedOut: false });
    expect(processesWith(`sleep 7${marker}`)).toEqual([]);
  });

  it('cancelling kills the sandboxed tree', async () => {
    const { t, core } = probeHome();
    const marker = `${process.pid % 1000}${Date.now() % 100000}`;
    const started = new Promise<string>((resolve) => {
      const listener = (event: RunEvent): void => {
        if (event.type === 'output' && event.text.includes('started')) {
          core.runs.service.off('run', listener);
          resolve(event.id);
        }
      };
      core.runs.service.on('run', listener);
    });
    const run = probe(core, 'probe-ws', `setsid sleep 8${marker}1 & sleep 8${marker}2 & echo started; wait`, t.work);
    core.runs.service.cancel(await started);
    const report = await run;
    expect(report.result.cancelled).toBe(true);
    expect(processesWith(`sleep 8${marker}`)).toEqual([]);
  });

  it('only the allow-listed environment reaches the tool, with the private temp as TMPDIR', async () => {
    const { t, core } = probeHome({ AWS_SECRET_ACCESS_KEY: 'leak', GITHUB_TOKEN: 'leak', LANG: 'C.UTF-8' });
    const report = await probe(core, 'probe-ro', 'env', t.work);
    const names = report.result.stdout
      .trim()
      .split('\n')
      .map((line) => line.split('=')[0]);
    expect(names).not.toContain('AWS_SECRET_ACCESS_KEY');
    expect(names).not.toContain('GITHUB_TOKEN');
    expect(names.filter((name) => name?.startsWith('SKILLTRAY_'))).toEqual([]);
    expect(report.result.stdout).toContain('LANG=C.UTF-8');
    expect(report.result.stdout).toContain('TMPDIR=/tmp');
  });

  it('the output cap holds', async () => {
    const { t, core } = probeHome();
    const report = await probe(core, 'probe-ro', 'head -c 3000000 /dev/zero | tr "\\0" a', t.work);
    expect(report.result.droppedBytes.stdout).toBe(3_000_000 - 1024 * 1024);
    expect(report.result.exitCode).toBe(0);
  });
});
