import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PendingEntry } from '../../../src-main/shared/runs.js';
import { cliProcess } from '../../support/cli.js';
import { testHome, writeSkill, type TestHome } from '../../support/temp.js';
import { NODE, PRINT_ARGV, serve, toolSkill, waitFor } from './helpers.js';

function setup(): TestHome {
  const t = testHome();
  writeSkill(t.skills, 'asks', toolSkill('asks', `${NODE} ${PRINT_ARGV} <<a>>`));
  return t;
}

async function pending(t: TestHome): Promise<PendingEntry> {
  return waitFor(async () => {
    const listed = JSON.parse((await cliProcess(['approvals', '--json'], t.env)).stdout) as PendingEntry[];
    return listed[0];
  }, 20_000);
}

describe('skilltray serve, as a real process', () => {
  it('owns runs: forwarded runs wait for approve/deny; a second serve is refused; SIGTERM stops it cleanly', { timeout: 90_000 }, async () => {
    const t = setup();
    const server = await serve(t);
    const record = JSON.parse(readFileSync(join(t.home, 'server.json'), 'utf8'));
    expect(record).toMatchObject({ pid: server.child.pid, url: server.url, owner: 'serve' });
    expect(server.stdout()).toBe(`Skilltray API on ${server.url} (token in ${join(t.home, 'token')})\n`);

    expect(JSON.parse((await cliProcess(['approvals', '--json'], t.env)).stdout)).toEqual([]);

    const approved = cliProcess(['run', 'asks', 'go', '--arg', 'a=approve me'], t.env, t.work);
    const first = await pending(t);
    expect(first).toMatchObject({ skill: 'asks', tool: 'go', argv: [PRINT_ARGV, 'approve me'] });
    expect(await cliProcess(['approve', first.id], t.env)).toMatchObject({ code: 0 });
    const ran = await approved;
    expect(ran.code).toBe(0);
    expect(JSON.parse(ran.stdout)).toEqual(['approve me']);

    const refused = cliProcess(['run', 'asks', 'go', '--arg', 'a=deny me'], t.env, t.work);
    expect(await cliProcess(['deny', (await pending(t)).id], t.env)).toMatchObject({ code: 0 });
    const denied = await refused;
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain("error[E603]: the person at the desktop denied 'asks/go'");

    const second = await cliProcess(['serve', '--port', '0'], t.env);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`error[E809]: 'skilltray serve' already owns runs for ${t.home} at ${server.url}`);

    // A run still waiting when the server stops is withdrawn, and its caller told so.
    const orphan = cliProcess(['run', 'asks', 'go', '--arg', 'a=orphan'], t.env, t.work);
    await pending(t);
    server.child.kill('SIGTERM');
    const stopped = await server.child;
    expect(stopped.exitCode).toBe(0);
    expect(stopped.stderr).toContain('SIGTERM: stopping');
    expect(existsSync(join(t.home, 'server.json'))).toBe(false);
    const withdrawn = await orphan;
    expect(withdrawn.code).toBe(1);
    expect(withdrawn.stderr).toContain('error[E613]');

    const history = JSON.parse((await cliProcess(['history', '--json'], t.env)).stdout) as { status: string; surface: string }[];
    expect(history.map((r) => [r.status, r.surface])).toEqual([
      ['refused', 'cli'],
      ['denied', 'cli'],
      ['succeeded', 'cli'],
    ]);
  });

  it('exits 0 on SIGINT too, with nothing waiting', { timeout: 60_000 }, async () => {
    const t = setup();
    const server = await serve(t);
    server.child.kill('SIGINT');
    expect((await server.child).exitCode).toBe(0);
    expect(existsSync(join(t.home, 'server.json'))).toBe(false);
  });
});
