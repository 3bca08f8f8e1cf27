import { cpSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it, vi } from 'vitest';
import { runCli } from '../../../src-main/cli/main.js';
import { tokenPath } from '../../../src-main/core/credentials/person-token.js';
import type { ServerEvent } from '../../../src-main/shared/contract.js';
import type { PendingEntry, RunReport } from '../../../src-main/shared/runs.js';
import { cli } from '../../support/cli.js';
import { testHome } from '../../support/temp.js';
import { BIN } from '../contract/fixture.js';
import { raw, serverHome, waitFor, WEB_FIXTURE } from './helpers.js';

describe('skilltray token', () => {
  it('prints where the token is, the token only with --show, and rotates it with --rotate', async () => {
    const h = await serverHome();
    const path = tokenPath(h.core.config.home);
    const plain = await cli(['token'], h.t);
    expect(plain).toMatchObject({ code: 0, stdout: `${path}\n` });
    expect(plain.stdout + plain.stderr).not.toContain(h.server.token());
    const shown = await cli(['token', '--show', '--json'], h.t);
    expect(JSON.parse(shown.stdout)).toEqual({ path, rotated: false, token: h.server.token(), assistants: [] });
    const old = h.server.token();
    const rotated = await cli(['token', '--rotate', '--json'], h.t);
    expect(JSON.parse(rotated.stdout)).toEqual({ path, rotated: true, assistants: [] });
    expect(readFileSync(path, 'utf8').trim()).not.toBe(old);
    const refused = await raw(h.server.port, {
      method: 'POST',
      path: '/api/health',
      headers: { authorization: `Bearer ${old}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(refused.status).toBe(401);
  });
});

describe('approvals, approve, deny and run against the running owner', () => {
  it('say how to start an owner when none runs (E807)', async () => {
    const t = testHome();
    for (const argv of [['approvals'], ['approve', 'some-run'], ['deny', 'some-run']]) {
      const outcome = await cli(argv, t);
      expect(outcome.code).toBe(1);
      expect(outcome.stderr).toMatch(/^error\[E807\]: nothing owns runs for .*: start the Skilltray app or skilltray serve\n$/);
    }
  });

  it('forwards a run to the owner, where approvals lists it and approve lets it run', async () => {
    const h = await serverHome();
    const running = cli(['run', 'asks', 'go', '--arg', 'a=from the terminal'], h.t);
    const [pending] = await waitFor(async () => {
      const listed = JSON.parse((await cli(['approvals', '--json'], h.t)).stdout) as PendingEntry[];
      return listed.length === 1 ? listed : undefined;
    });
    expect(pending).toMatchObject({ skill: 'asks', tool: 'go', surface: 'cli', args: { a: 'from the terminal' } });
    const text = await cli(['approvals'], h.t);
    expect(text.stdout).toContain(`run ${pending?.id}`);
    expect(text.stdout).toContain('  arg 2     "from the terminal"');
    expect(await cli(['approve', pending?.id as string], h.t)).toMatchObject({ code: 0, stdout: `run ${pending?.id} approved once\n` });
    const outcome = await running;
    expect(outcome.code).toBe(0);
    expect(JSON.parse(outcome.stdout)).toEqual(['from the terminal']);
    expect(outcome.stderr).toContain('forwarded to skilltray serve at');
    expect(outcome.stderr).toContain(`run ${pending?.id}`);
    expect(h.core.runs.getRun(pending?.id as string)).toMatchObject({
      status: 'succeeded',
      surface: 'cli',
      outcome: 'approved',
      decidedBy: 'user',
      actor: 'cli',
    });
  });

  it("a forwarded run that waits says so: its id, and where to answer it (serve's address, or skilltray approve)", async () => {
    const h = await serverHome();
    const child = execa(process.execPath, [BIN, 'run', 'asks', 'go'], { env: h.t.env, extendEnv: false, reject: false, stdin: 'ignore' });
    let stderr = '';
    const waiting = new Promise<string>((resolve) => {
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
        const line = /^run (\S+) waits for your approval .*$/m.exec(stderr);
        if (line) resolve(line[1] as string);
      });
    });
    const id = await waiting;
    expect(h.core.broker.list().map((p) => p.id)).toEqual([id]);
    expect(stderr).toContain(`forwarded to skilltray serve at ${h.server.url}\n`);
    expect(stderr).toContain(
      `run ${id} waits for your approval at ${h.server.url}/#/approvals (the browser UI of skilltray serve --web); or answer it here: skilltray approve ${id} (or deny ${id})\n`,
    );
    h.core.broker.resolve(id, 'deny', 'test');
    expect((await child).exitCode).toBe(1);
  });

  it('returns the denial to the forwarded run (E603), and approve --always remembers the tool', async () => {
    const h = await serverHome();
    const next = async (): Promise<PendingEntry> => waitFor(() => h.core.broker.list()[0]);
    const denied = cli(['run', 'asks', 'go', '--json'], h.t);
    const deniedId = (await next()).id;
    expect(await cli(['deny', deniedId, '--json'], h.t)).toMatchObject({ code: 0 });
    const refusal = await denied;
    expect(refusal.code).toBe(1);
    expect(refusal.stderr).toMatch(/^error\[E603\]: the person at the desktop denied 'asks\/go'/);
    expect(JSON.parse(refusal.stdout).error).toMatchObject({ code: 'E603', kind: 'denied_by_user' });
    expect(h.core.runs.getRun(deniedId)).toMatchObject({ status: 'denied', outcome: 'denied', decidedBy: 'user', actor: 'cli' });
    const always = cli(['run', 'asks', 'go', '--json'], h.t);
    expect((await cli(['approve', (await next()).id, '--always'], h.t)).stdout).toContain('approved (always for this tool in its folder, until revoked)');
    const report = JSON.parse((await always).stdout) as RunReport;
    expect(report.decision).toMatchObject({ outcome: 'approved', by: 'user' });
    expect(h.core.policy.remembered()).toMatchObject([{ skill: 'asks', tool: 'go' }]);
    const again = await cli(['run', 'asks', 'go', '--json'], h.t);
    expect(JSON.parse(again.stdout).decision).toMatchObject({ outcome: 'auto', by: 'remembered' });
  });

  it('sends --yes through the owner: the terminal answers its question once, the owner runs and records it; --dry-run stays here', async () => {
    const h = await serverHome();
    const events: ServerEvent[] = [];
    h.core.on('event', (event: ServerEvent) => events.push(event));
    const yes = await cli(['run', 'asks', 'go', '--arg', 'a=here', '--yes', '--json'], h.t);
    expect(yes.code).toBe(0);
    const report = JSON.parse(yes.stdout) as RunReport;
    expect(JSON.parse(report.result.stdout)).toEqual(['here']);
    // Approved by the person, answering from the terminal (actor cli), and run by the owner: this test's process.
    expect(report.decision).toMatchObject({ outcome: 'approved', by: 'user', actor: 'cli' });
    expect(h.core.runs.getRun(report.id)).toMatchObject({ surface: 'cli', answer: 'once', ownerPid: process.pid });
    expect(events).toContainEqual({ type: 'approval.resolved', id: report.id, outcome: 'verdict' });
    const said = await cli(['run', 'asks', 'go', '--yes'], h.t);
    expect(said.code).toBe(0);
    expect(said.stderr).toMatch(/^forwarded to skilltray serve at .*\nrun (\S+) approved here \(--yes\); skilltray serve runs it\n/);
    expect(h.core.runs.history()).toHaveLength(2);
    // Never over a deny: the owner refuses without asking, so there is nothing to answer.
    await cli(['rules', 'add', 'deny', 'skill:asks'], h.t);
    const denied = await cli(['run', 'asks', 'go', '--yes', '--json'], h.t);
    expect(denied.code).toBe(1);
    expect(JSON.parse(denied.stdout).error).toMatchObject({ code: 'E602' });
    const dry = await cli(['run', 'asks', 'go', '--dry-run', '--json'], h.t);
    expect(JSON.parse(dry.stdout)).toMatchObject({ decision: 'deny' });
    expect(h.core.runs.history()).toHaveLength(3);
    expect(h.core.broker.list()).toEqual([]);
  });
});

describe('settings and records from the CLI while an owner runs', () => {
  it('pause, resume and mode change the owner, which tells its tray and UI', async () => {
    const h = await serverHome();
    const events: ServerEvent[] = [];
    h.core.on('event', (event: ServerEvent) => events.push(event));
    expect(await cli(['pause'], h.t)).toMatchObject({ code: 0, stdout: 'Runs are paused.\n' });
    expect(h.core.preferences.settings().paused).toBe(true);
    expect(events).toContainEqual({ type: 'settings', settings: expect.objectContaining({ paused: true }) });
    expect(JSON.parse((await cli(['resume', '--json'], h.t)).stdout)).toMatchObject({ paused: false });
    expect(events).toContainEqual({ type: 'settings', settings: expect.objectContaining({ paused: false }) });
    expect(await cli(['mode', 'dev'], h.t)).toMatchObject({ code: 0, stdout: 'Dev\n' });
    expect(events).toContainEqual({ type: 'settings', settings: expect.objectContaining({ mode: 'Dev' }) });
    expect(await cli(['mode'], h.t)).toMatchObject({ code: 0, stdout: 'Dev\n' });
    expect((await cli(['mode', 'Work'], h.t)).stderr).toMatch(/^error\[E610\]/);
  });

  it('rules and remembered approvals are read and changed through the owner', async () => {
    const h = await serverHome();
    const spies = (['rules', 'addRule', 'removeRule', 'remembered', 'revokeRemembered'] as const).map(
      (method) => [method, vi.spyOn(h.core.policy, method)] as const,
    );
    expect((await cli(['rules', 'add', 'deny', 'skill:par*'], h.t)).stdout).toBe('rule #1: deny skill:par*\n');
    expect(JSON.parse((await cli(['rules', '--json'], h.t)).stdout)).toEqual([expect.objectContaining({ id: 1, effect: 'deny', pattern: 'skill:par*' })]);
    expect((await cli(['rules', 'add', 'allow', 'tool:skill_exec'], h.t)).stderr).toMatch(/^error\[E609\]/);
    expect((await cli(['rules', 'remove', '1'], h.t)).code).toBe(0);
    expect((await cli(['rules', 'remove', '1'], h.t)).stderr).toMatch(/^error\[E614\]/);
    expect(JSON.parse((await cli(['remembered', '--json'], h.t)).stdout)).toEqual([]);
    expect((await cli(['remembered', 'revoke', '7'], h.t)).stderr).toMatch(/^error\[E615\]/);
    expect(Object.fromEntries(spies.map(([method, spy]) => [method, spy.mock.calls]))).toEqual({
      rules: [[]],
      addRule: [
        ['skill:par*', 'deny'],
        ['tool:skill_exec', 'allow'],
      ],
      removeRule: [[1], [1]],
      remembered: [[]],
      revokeRemembered: [[7]],
    });
  });
});

describe('skilltray serve --web', () => {
  it('says to build the UI when it is not built', async () => {
    const outcome = await cli(['serve', '--port', '0', '--web'], testHome());
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('run npm run build:web');
  });

  it('serves the UI next to the bundled skills and prints its address with the token, until SIGINT', async () => {
    const t = testHome();
    cpSync(WEB_FIXTURE, join(dirname(t.bundled), 'dist', 'web'), { recursive: true });
    let out = '';
    let err = '';
    const serving = runCli(['serve', '--port', '0', '--web'], {
      cwd: t.home,
      env: t.env,
      bundledDir: t.bundled,
      version: '0.0.0-test',
      io: {
        out: (text) => void (out += text),
        err: (text) => void (err += text),
        interactive: false,
        stdoutIsTty: false,
        stderrIsTty: false,
        ask: async () => '',
      },
    });
    const [, url, token] = await waitFor(() => /^Open (http:\/\/127\.0\.0\.1:\d+)\/#token=([A-Za-z0-9_-]{43}) in your browser$/m.exec(out) ?? undefined);
    expect(token).toBe(readFileSync(tokenPath(t.home), 'utf8').trim());
    const page = await fetch(`${url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('fixture UI');
    // Only serve's own listener hears this: the signal is emitted, not sent.
    process.emit('SIGINT', 'SIGINT');
    expect(await serving).toBe(0);
    expect(err).toContain('SIGINT: stopping');
    await expect(fetch(`${url}/`)).rejects.toThrow();
  });
});
