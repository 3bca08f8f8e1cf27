import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addRule } from '../../../src-main/core/store/rules.js';
import { recordRequest } from '../../../src-main/core/store/run-records.js';
import { openStateDb } from '../../../src-main/core/store/state-db.js';
import { cli, cliProcess } from '../../support/cli.js';
import { testHome, writeSkill, type TestHome } from '../../support/temp.js';
import { serve, toolSkill } from '../server/helpers.js';
import { damagePage, pagesOf } from '../store/damage.js';
import { thisProcess } from '../../../src-main/core/process-identity.js';

describe('a state.db damaged while in use', () => {
  it('history still reads, the run that meets the damage fails with E901 and a notice said once, and the next run works with the rules kept', async () => {
    const t = testHome();
    writeSkill(t.bundled, 'echoes', toolSkill('echoes', 'echo <<a>>', { read_only: true }));
    t.sealBundled();
    const path = join(t.home, 'state.db');
    const db = openStateDb(path);
    addRule(db, 'skill:danger*', 'deny');
    for (let i = 0; i < 400; i++)
      recordRequest(
        db,
        {
          traceId: `t${i}`,
          surface: 'mcp',
          skill: 'echoes',
          tool: 'go',
          args: { a: `${i}` },
          command: null,
          programPath: null,
          skillHash: 'h',
          requestedAt: 1_000 + i,
        },
        thisProcess(),
      );
    db.close();
    // The root of an index every new run is written into, but that listing history does not read.
    damagePage(path, pagesOf(path, 'runs_by_status', 'internal', /^\/$/)[0] as number, 5);

    expect((await cli(['history', '--limit', '3'], t)).code).toBe(0);
    const failed = await cli(['run', 'echoes', 'go', '--arg', 'a=first', '--yes'], t);
    expect(failed.code).toBe(1);
    expect(failed.stderr.match(/notice\[E901\]/g)).toHaveLength(1);
    expect(failed.stderr).toMatch(/error\[E901\]: state\.db .* Try again\.\n/);
    // Met twice in that call (finishing dead owners' runs, then recording the run), recovered once.
    expect(readdirSync(t.home).filter((f) => /^state\.db\.corrupt-.*Z$/.test(f))).toHaveLength(1);

    const again = await cli(['run', 'echoes', 'go', '--arg', 'a=second', '--yes'], t);
    expect(again).toMatchObject({ code: 0, stdout: 'second\n' });
    expect(again.stderr).not.toContain('E901');
    expect(JSON.parse((await cli(['rules', '--json'], t)).stdout)).toMatchObject([{ effect: 'deny', pattern: 'skill:danger*' }]);
    expect(JSON.parse((await cli(['history', '--json', '--limit', '1000'], t)).stdout)).toHaveLength(401);
  });
});

describe('a state.db found damaged when serve starts', () => {
  it('is recovered before serve listens: the notice is in its log once, and among the notices its UI shows', { timeout: 60_000 }, async () => {
    const t = testHome();
    const path = join(t.home, 'state.db');
    const db = openStateDb(path);
    addRule(db, 'skill:danger*', 'deny');
    for (let i = 0; i < 300; i++)
      recordRequest(
        db,
        {
          traceId: `t${i}`,
          surface: 'mcp',
          skill: 'echoes',
          tool: 'go',
          args: { a: `${i}` },
          command: null,
          programPath: null,
          skillHash: 'h',
          requestedAt: 1_000 + i,
        },
        thisProcess(),
      );
    db.close();
    const leaves = pagesOf(path, 'runs', 'leaf');
    damagePage(path, leaves[1] as number, 9);

    const server = await serve(t);
    expect(await ownerNotices(server.url, t)).toMatchObject([
      { code: 'E901', message: expect.stringContaining('1 rule, 0 remembered approvals, your settings') },
    ]);
    expect(JSON.parse((await cliProcess(['rules', '--json'], t.env)).stdout)).toMatchObject([{ effect: 'deny', pattern: 'skill:danger*' }]);
    server.child.kill('SIGTERM');
    const stopped = await server.child;
    expect(stopped.stderr.match(/notice\[E901\]: state\.db was damaged/g)).toHaveLength(1);
  });
});

/** The notices the running owner shows. */
async function ownerNotices(url: string, t: TestHome): Promise<unknown> {
  const token = readFileSync(join(t.home, 'token'), 'utf8').trim();
  const response = await fetch(`${url}/api/notices`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  return ((await response.json()) as { value: unknown }).value;
}
