/**
 * Issue #20: an "Always" given in ~/proj ran unasked with cwd=$HOME. A remembered approval is pinned
 * to the folder it was given in: the same tool in another folder asks again, "in any folder" is
 * refused (E626) for a tool that can change files, and holds for a read-only one. Played through the real
 * command line against a running `skilltray serve`, answered with `skilltray approve`, as root and
 * as an ordinary user.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { PendingEntry, RunReport } from '../../../../src-main/shared/runs.js';
import { asRootAndUser, plant, serveAs, skilltray, type Actor, type Outcome } from './actors.js';

const LONG = { timeout: 120_000 };

/** The one pending approval, once `skilltray approvals` lists it. */
async function pending(actor: Actor): Promise<PendingEntry> {
  for (;;) {
    const listed = JSON.parse((await skilltray(actor, ['approvals', '--json'])).stdout) as PendingEntry[];
    if (listed.length > 0) return listed[0] as PendingEntry;
  }
}

/** A run forwarded to serve, in `cwd`; the caller answers it (or it runs unasked). */
function forwarded(actor: Actor, skill: string, cwd: string): Promise<Outcome> {
  return skilltray(actor, ['run', skill, 'sh', '--args', JSON.stringify({ script: 'pwd' }), '--cwd', cwd, '--json'], cwd);
}

const reportOf = (outcome: Outcome): RunReport => JSON.parse(outcome.stdout) as RunReport;

asRootAndUser((actor) => {
  it('an "Always" from one folder asks again in another; "in any folder" only for a read-only tool', LONG, async () => {
    await serveAs(actor);
    const here = join(actor.project, 'here');
    const there = join(actor.project, 'there');
    for (const dir of [here, there]) mkdirSync(dir, { recursive: true });
    plant(actor, {}, actor.project);

    // A workspace tool, always allowed in one folder.
    const first = forwarded(actor, 'probe-ws', here);
    const asked = await pending(actor);
    expect(asked.cwd).toBe(here);
    expect((await skilltray(actor, ['approve', asked.id, '--always'])).stdout).toContain('always for this tool in its folder, until revoked');
    expect(reportOf(await first).decision).toMatchObject({ outcome: 'approved', by: 'user' });
    expect(reportOf(await forwarded(actor, 'probe-ws', here)).decision).toMatchObject({ outcome: 'auto', by: 'remembered' });

    // Another folder asks again, and says why.
    const elsewhere = forwarded(actor, 'probe-ws', there);
    const again = await pending(actor);
    expect(again.cwd).toBe(there);
    expect(again.reason).toContain(`you allowed it in ${here}, and this run is in ${there}`);
    // "In any folder" is refused for a tool that can change files; the approval still waits.
    const wide = await skilltray(actor, ['approve', again.id, '--always', '--anywhere', '--json']);
    expect(wide.code).toBe(1);
    expect(JSON.parse(wide.stdout).error).toMatchObject({ code: 'E626' });
    expect(JSON.parse(wide.stdout).error.message).toContain('can be always allowed only in its folder');
    await skilltray(actor, ['deny', again.id]);
    expect((await elsewhere).code).toBe(1);

    // A read-only tool given "in any folder" runs unasked in another.
    const ro = forwarded(actor, 'probe-ro', here);
    await skilltray(actor, ['approve', (await pending(actor)).id, '--always', '--anywhere']);
    await ro;
    expect(reportOf(await forwarded(actor, 'probe-ro', there)).decision).toMatchObject({ outcome: 'auto', by: 'remembered' });
    const listed = (await skilltray(actor, ['remembered'])).stdout;
    expect(listed).toContain(`in ${here}`);
    expect(listed).toContain('in any folder');
  });
});
