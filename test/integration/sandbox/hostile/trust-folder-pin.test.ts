/**
 * A remembered "Always" is pinned to the folder it was given in. A hostile caller that got a tool
 * always allowed in one project names another folder (a sibling, the folder around it) as the run's
 * working directory: the run asks again, saying where the Always holds. Inside the project it still
 * runs unasked. "In any folder" is offered only to a read-only tool. On the real CLI and `serve`, as
 * root and as an ordinary user.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Remembered, RunReport } from '../../../../src-main/shared/runs.js';
import { requireSandbox } from '../../../support/sandbox.js';
import { install, people, serve, toolSkill } from './trust-support.js';

beforeAll(() => requireSandbox());

describe.each(people())('an Always and its folder, as $label', (person) => {
  it('holds in its folder and the folders inside it, and asks in any other, saying where it holds', { timeout: 180_000 }, async () => {
    const app = install(person);
    const project = join(app.work, 'project');
    const inside = join(project, 'src');
    const other = join(app.work, 'other');
    app.write(app.work, { 'project/src/.keep': '', 'other/.keep': '' });
    app.write(app.userSkills, { 'notes/SKILL.md': toolSkill('notes', 'sh -c "echo noted >> notes.txt"') });
    const server = await serve(app);

    const first = app.cli(['run', 'notes', 'go', '--json'], { cwd: project });
    const asked = await server.nextApproval();
    expect(asked).toMatchObject({ skill: 'notes', cwd: project, rememberScopes: ['folder'], sandbox: { name: 'workspace' } });
    const approved = await app.cli(['approve', asked.id, '--always']);
    expect(approved.stdout).toBe(`run ${asked.id} approved (always for this tool in its folder, until revoked)`);
    expect((JSON.parse((await first).stdout) as RunReport).result.exitCode).toBe(0);
    const remembered = await app.cli(['remembered']);
    expect(remembered.stdout).toContain(`notes/go  in ${project} and the folders inside it  `);
    expect((JSON.parse((await app.cli(['remembered', '--json'])).stdout) as Remembered[])[0]).toMatchObject({
      folder: project,
      identity: { rootKind: 'home', path: join(app.userSkills, 'notes'), trust: 'user' },
    });

    // Inside the folder it was given in: unasked.
    const nested = JSON.parse((await app.cli(['run', 'notes', 'go', '--json'], { cwd: inside })).stdout) as RunReport;
    expect(nested.decision).toMatchObject({ outcome: 'auto', by: 'remembered' });
    expect(readFileSync(join(inside, 'notes.txt'), 'utf8')).toBe('noted\n');

    // A sibling folder and the folder around the project: each asks, and says where the Always holds.
    for (const cwd of [other, app.work]) {
      const elsewhere = app.cli(['run', 'notes', 'go', '--json'], { cwd });
      const again = await server.nextApproval();
      expect(again.cwd).toBe(cwd);
      expect(again.reason).toContain(`you allowed it in ${project}, and this run is in ${cwd}`);
      expect((await app.cli(['deny', again.id])).code).toBe(0);
      expect(JSON.parse((await elsewhere).stdout).error).toMatchObject({ code: 'E603' });
      expect(existsSync(join(cwd, 'notes.txt'))).toBe(false);
    }
  });

  it('"in any folder" is offered to a read-only tool, and refused (E626) for one that may write', { timeout: 180_000 }, async () => {
    const app = install(person);
    const [one, two] = [join(app.work, 'one'), join(app.work, 'two')];
    app.write(app.work, { 'one/a.txt': 'a\n', 'two/b.txt': 'b\n' });
    app.write(app.userSkills, {
      'peek/SKILL.md': toolSkill('peek', 'ls', { read_only: true }),
      'notes/SKILL.md': toolSkill('notes', 'sh -c "echo noted >> notes.txt"'),
    });
    const server = await serve(app);

    const peek = app.cli(['run', 'peek', 'go', '--json'], { cwd: one });
    const asked = await server.nextApproval();
    expect(asked.rememberScopes).toEqual(['folder', 'anywhere']);
    expect((await app.cli(['approve', asked.id, '--always', '--anywhere'])).code).toBe(0);
    expect((JSON.parse((await peek).stdout) as RunReport).result.stdout).toBe('a.txt\n');
    const elsewhere = JSON.parse((await app.cli(['run', 'peek', 'go', '--json'], { cwd: two })).stdout) as RunReport;
    expect(elsewhere).toMatchObject({ decision: { outcome: 'auto', by: 'remembered' }, result: { stdout: 'b.txt\n' } });

    const notes = app.cli(['run', 'notes', 'go', '--json'], { cwd: one });
    const writer = await server.nextApproval();
    expect(writer.rememberScopes).toEqual(['folder']);
    const refused = await app.cli(['approve', writer.id, '--always', '--anywhere']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("error[E626]: 'notes/go' can be always allowed only in its folder");
    // Still waiting: the person answers it properly.
    expect((await app.cli(['deny', writer.id])).code).toBe(0);
    expect(JSON.parse((await notes).stdout).error).toMatchObject({ code: 'E603' });
  });
});
