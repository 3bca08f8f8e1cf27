import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../../src-main/shared/runs.js';
import { listRuns } from '../../../src-main/core/store/run-queries.js';
import { openStateDb } from '../../../src-main/core/store/state-db.js';
import { cliProcess } from '../../support/cli.js';
import { testHome, writeSkill, type TestHome } from '../../support/temp.js';
import { isDead, liveInGroup } from '../process/process-helpers.js';
import { requireSandbox } from '../../support/sandbox.js';
import { callTool, startMcp } from '../mcp/mcp-session.js';
import { BIN, NODE, onCleanup, serve, toolSkill, waitFor } from './helpers.js';

/**
 * A home with a user tool that sleeps ten minutes (five before its timeout) (writing nothing, so a dead owner's closed pipes do not end it), and a rule that
 * lets it run unasked.
 */
async function setup(): Promise<TestHome> {
  const t = testHome();
  writeSkill(t.skills, 'slow', toolSkill('slow', 'sleep 600', { timeout: 300 }));
  expect((await cliProcess(['rules', 'add', 'allow', 'tool:slow/go'], t.env)).code).toBe(0);
  return t;
}

/** The home's runs, newest first, read from its state.db as another process would. */
async function history(t: TestHome): Promise<RunSummary[]> {
  const db = openStateDb(join(t.home, 'state.db'));
  try {
    return listRuns(db);
  } finally {
    db.close();
  }
}

/** The one run of the home once its tool is running, with its process group recorded; the tool is killed after the test if still alive. */
/** The command name of a process, or '' when it is gone. */
function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

async function running(t: TestHome): Promise<RunSummary & { pgid: number }> {
  const run = await waitFor(async () => {
    const [first] = await history(t);
    return first?.status === 'running' && first.pgid !== null ? (first as RunSummary & { pgid: number }) : undefined;
  }, 20_000);
  onCleanup(async () => {
    // The tool this test started, by its recorded pid, if a failing test left it behind.
    if (!isDead(run.pgid)) process.kill(-run.pgid, 'SIGKILL');
  });
  return run;
}

describe('no tool outlives the process that owns it', () => {
  it('serve stops on SIGHUP (a closed terminal): the tool dies, the run is interrupted, server.json is gone', { timeout: 90_000 }, async () => {
    const t = await setup();
    const server = await serve(t);
    const caller = cliProcess(['run', 'slow', 'go'], t.env, t.work);
    const run = await running(t);
    expect(isDead(run.pgid)).toBe(false);
    server.child.kill('SIGHUP');
    const stopped = await server.child;
    expect(stopped.exitCode).toBe(0);
    expect(stopped.stderr).toContain('SIGHUP: stopping');
    expect(isDead(run.pgid)).toBe(true);
    expect(existsSync(join(t.home, 'server.json'))).toBe(false);
    await caller;
    const [after] = await history(t);
    expect(after).toMatchObject({ id: run.id, status: 'interrupted', errorCode: 'E705', ownerPid: server.child.pid });
    expect(after?.reason).toBe('the process that owned the run stopped before it finished (the skilltray serve API is stopping)');
  });

  it(
    'after serve is killed (SIGKILL) an uncontained tool runs on; the next owner to start kills it and marks the run interrupted',
    { timeout: 90_000 },
    async () => {
      const t = await setup();
      // Out of the sandbox: a contained tool dies with its owner by itself (the next test).
      expect((await cliProcess(['rules', 'unsandbox', 'slow'], t.env)).code).toBe(0);
      // The rule was made for the sandboxed tool; it allows the unsandboxed one only once made again.
      expect((await cliProcess(['rules', 'add', 'allow', 'tool:slow/go'], t.env)).stdout).toContain('for slow: the user skill in');
      const first = await serve(t);
      const caller = cliProcess(['run', 'slow', 'go'], t.env, t.work);
      const run = await running(t);
      first.child.kill('SIGKILL');
      await first.child;
      await caller;
      // Orphaned: reparented, still sleeping, its run still said to be running, the owner file left behind.
      expect(isDead(run.pgid)).toBe(false);
      expect((await history(t))[0]).toMatchObject({ id: run.id, status: 'running' });
      expect(existsSync(join(t.home, 'server.json'))).toBe(true);
      // Looking for the owner finds it dead and removes its file.
      expect((await cliProcess(['approvals'], t.env)).stderr).toContain('error[E807]');
      expect(existsSync(join(t.home, 'server.json'))).toBe(false);

      const second = await serve(t);
      expect(isDead(run.pgid)).toBe(true);
      const [after] = await history(t);
      expect(after).toMatchObject({ id: run.id, status: 'interrupted', errorCode: 'E705' });
      expect(after?.reason).toBe(
        `its owner (pid ${first.child.pid}) stopped before the run finished; its tool (process group ${run.pgid}) was still running and was stopped`,
      );
      second.child.kill('SIGTERM');
      expect((await second.child).exitCode).toBe(0);
    },
  );

  it.runIf(process.platform === 'linux')(
    'after serve is killed (SIGKILL) a contained tool dies with it (bubblewrap, --die-with-parent); the next owner marks the run interrupted',
    { timeout: 90_000 },
    async () => {
      requireSandbox();
      const t = await setup();
      const first = await serve(t);
      const caller = cliProcess(['run', 'slow', 'go'], t.env, t.work);
      const run = await running(t);
      // The recorded group is bwrap's: bwrap, the namespace's init and the tool inside. As root the tool
      // starts only once its cgroup holds it (docs/runner.md, "Limits"): kill the owner once it has.
      await waitFor(() => (liveInGroup(run.pgid).some((pid) => commandOf(pid) === 'sleep') ? true : undefined), 20_000);
      expect(liveInGroup(run.pgid).length).toBeGreaterThan(1);
      first.child.kill('SIGKILL');
      await first.child;
      await caller;
      await waitFor(() => (liveInGroup(run.pgid).length === 0 ? true : undefined), 20_000);
      expect((await history(t))[0]).toMatchObject({ id: run.id, status: 'running' });

      const second = await serve(t);
      const [after] = await history(t);
      expect(after).toMatchObject({ id: run.id, status: 'interrupted', errorCode: 'E705' });
      expect(after?.reason).toBe(`its owner (pid ${first.child.pid}) stopped before the run finished; its tool was no longer running`);
      second.child.kill('SIGTERM');
      expect((await second.child).exitCode).toBe(0);
    },
  );

  it('a CLI running the tool itself (--yes) stops it on SIGHUP and records the run interrupted', { timeout: 60_000 }, async () => {
    const t = await setup();
    const cli = execa(NODE, [BIN, 'run', 'slow', 'go', '--yes'], { env: t.env, cwd: t.work, extendEnv: false, stdin: 'ignore', reject: false });
    onCleanup(async () => {
      if (cli.exitCode === null) cli.kill('SIGKILL');
      await cli;
    });
    const run = await running(t);
    cli.kill('SIGHUP');
    const ended = await cli;
    expect(ended.stderr).toContain('SIGHUP: stopping the run');
    expect(isDead(run.pgid)).toBe(true);
    expect((await history(t))[0]).toMatchObject({
      id: run.id,
      status: 'interrupted',
      surface: 'cli',
      errorCode: 'E705',
      reason: 'the process that owned the run stopped before it finished (SIGHUP to the skilltray command)',
    });
  });

  it('skilltray mcp running a tool itself stops it on SIGHUP and records the run interrupted', { timeout: 60_000 }, async () => {
    const t = await setup();
    const session = await startMcp(t.env, { keep: true });
    const transport = session.client.transport as { pid: number | null } | undefined;
    const pid = transport?.pid ?? null;
    if (pid === null) throw new Error('the MCP bridge has no pid');
    const call = callTool(session, 'run', { skill: 'slow', tool: 'go' }).catch((error: unknown) => error);
    const run = await running(t);
    process.kill(pid, 'SIGHUP');
    await waitFor(async () => ((await history(t))[0]?.status === 'interrupted' ? true : undefined), 20_000);
    expect(isDead(run.pgid)).toBe(true);
    await session.close();
    await call;
  });
});
