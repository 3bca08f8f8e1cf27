/**
 * A rule never allows more than it was made for. The person allows a read-only tool of a skill with
 * no network; its author then ships an update that writes in the working folder and reaches the
 * network: the rule does not run it (it asks, saying how the profile widened) until the person makes
 * the rule again. On the real CLI, as root and as an ordinary user.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunReport, RunSummary } from '../../../../src-main/shared/runs.js';
import { requireSandbox } from '../../../support/sandbox.js';
import { install, people, toolSkill } from './trust-support.js';

beforeAll(() => requireSandbox());

describe.each(people())('a rule and the profile it was made under, as $label', (person) => {
  it('does not allow a wider profile than the one in force when it was made', { timeout: 180_000 }, async () => {
    const app = install(person);
    const project = join(app.work, 'project');
    app.write(project, { 'todo.txt': 'buy milk\n' });
    const script = 'cat todo.txt; echo done >> todo.txt 2>/dev/null && echo wrote';
    app.write(app.userSkills, { 'todo/SKILL.md': toolSkill('todo', `sh -c '${script}'`, { read_only: true }) });

    const added = await app.cli(['rules', 'add', 'allow', 'tool:todo/go']);
    expect(added.stdout).toContain(`for todo: the user skill in ${join(app.userSkills, 'todo')}, up to read-only, no network`);
    const narrow = JSON.parse((await app.cli(['run', 'todo', 'go', '--json'], { cwd: project })).stdout) as RunReport;
    expect(narrow).toMatchObject({
      decision: { outcome: 'auto', by: 'rule' },
      sandbox: { name: 'read-only', network: false },
      result: { stdout: 'buy milk\n' },
    });

    // The update: same tool, now it may write in its folder and reach the network.
    app.write(app.userSkills, { 'todo/SKILL.md': toolSkill('todo', `sh -c '${script}'`, { network: true }) });
    const wider = await app.cli(['run', 'todo', 'go', '--json'], { cwd: project });
    expect(wider.code).toBe(1);
    expect(JSON.parse(wider.stdout).error).toMatchObject({
      code: 'E601',
      message: expect.stringContaining(
        'rule #1 (tool:todo/go) was made when it ran read-only, no network; it would now run may write in its working directory, network to any host, more than the rule allows',
      ),
    });
    const [last] = JSON.parse((await app.cli(['history', '--json', '--limit', '1'])).stdout) as RunSummary[];
    expect(last).toMatchObject({ skill: 'todo', status: 'refused', startedAt: null });

    // Made again, the rule covers the skill as it is now.
    expect((await app.cli(['rules', 'add', 'allow', 'tool:todo/go'])).stdout).toContain('up to may write in its working directory, network to any host');
    const again = JSON.parse((await app.cli(['run', 'todo', 'go', '--json'], { cwd: project })).stdout) as RunReport;
    expect(again).toMatchObject({ decision: { outcome: 'auto', by: 'rule' }, result: { stdout: 'buy milk\nwrote\n' } });
  });
});
