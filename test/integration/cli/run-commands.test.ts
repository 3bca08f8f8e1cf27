import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cli, cliProcess } from '../../support/cli.js';
import { skillMd, tempDir, testHome, writeSkill } from '../../support/temp.js';

const PRINT_ARGV = fileURLToPath(new URL('../../fixtures/processes/print-argv.mjs', import.meta.url));

function home() {
  const t = testHome();
  const tool = (name: string, extra: Record<string, unknown>) =>
    skillMd(
      { name, description: `The ${name} skill.`, version: '1.0.0', ...extra },
      `\n### say\n\nSays it.\n\n#### Parameters\n\n| Name | Type | Required | Description |\n|---|---|---|---|\n| words | string | yes | What to say |\n| times | integer | no | How often |\n\n#### Command\n\n\`\`\`\n${process.execPath} ${PRINT_ARGV} <<words>> --times=<<times>>\n\`\`\`\n`,
    );
  writeSkill(t.skills, 'parrot', tool('parrot', {}));
  writeSkill(t.bundled, 'echo', tool('echo', { read_only: true }));
  writeSkill(t.skills, 'prompt', skillMd({ name: 'prompt', description: 'Reviews.', version: '1.0.0' }, 'Review $ARGUMENTS carefully.\n'));
  t.sealBundled();
  return t;
}

describe('skilltray run', () => {
  it('runs a bundled read-only tool with --arg values typed by the Parameters table', async () => {
    const { code, stdout } = await cli(['run', 'echo', 'say', '--arg', 'words=hello there', '--arg', 'times=3', '--json'], home());
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    expect(JSON.parse(report.result.stdout)).toEqual(['hello there', '--times=3']);
    expect(report.decision).toMatchObject({ outcome: 'auto', by: 'policy' });
  });

  it('without a TTY, a tool that needs approval fails with the structured error', async () => {
    const { code, stderr, stdout } = await cli(['run', 'parrot', 'say', '--args', '{"words":"hi"}', '--json'], home());
    expect(code).toBe(1);
    expect(stderr).toBe(
      "error[E601]: 'parrot/say' needs approval from the person at the desktop (skill 'parrot' is a user skill, so its runs need approval), and nobody can be asked here: start the Skilltray app (or 'skilltray serve') so it can ask\nhint: approve this one call yourself with --yes\n",
    );
    expect(JSON.parse(stdout).error).toMatchObject({ code: 'E601', kind: 'approval_required', details: { runId: expect.any(String) } });
  });

  it('--yes approves this one call', async () => {
    const { code, stdout } = await cli(['run', 'parrot', 'say', '--arg', 'words=hi', '--yes'], home());
    expect(code).toBe(0);
    expect(stdout).toBe('["hi"]\n');
  });

  it('on a TTY shows the program path and each argument on its own line, then runs once on y', async () => {
    const { code, stdout, stderr } = await cli(['run', 'parrot', 'say', '--arg', 'words=two words', '--arg', 'times=2'], home(), { answers: ['y'] });
    expect(code).toBe(0);
    expect(stderr).toContain(
      `  program   ${process.execPath}\n  arg 1     ${JSON.stringify(PRINT_ARGV)}\n  arg 2     "two words"   < from the caller\n  arg 3     "--times=2"   < from the caller\n`,
    );
    expect(stderr.split('\n')[0]).toBe(
      `The command line asks to run \`node …/print-argv.mjs 'two words' --times=2\` in ${process.cwd()} — can write in that folder, no network.`,
    );
    expect(stderr).toContain("  why       skill 'parrot' is a user skill");
    expect(stderr).toMatch(/^ {2}skill {5}parrot\/say: the user skill in \/.*\/skills\/parrot$/m);
    expect(stderr).toContain('  sandbox   can write in that folder, no network (bubblewrap)');
    // A tool that may write is offered Always in its folder only.
    expect(stdout).toContain('Run it? [y] once, [a] always in this folder (until revoked), [s] always in this folder for this session, [N] deny: ');
    expect(stdout).toContain('["two words","--times=2"]');
  });

  it('on a TTY anything but yes or always denies (E603)', async () => {
    const { code, stderr } = await cli(['run', 'parrot', 'say', '--arg', 'words=x'], home(), { answers: [''] });
    expect(code).toBe(1);
    expect(stderr).toContain("error[E603]: the person at the desktop denied 'parrot/say'");
  });

  it('--dry-run shows the rendered request and the decision, and runs nothing', async () => {
    const t = home();
    const { code, stdout } = await cli(['run', 'parrot', 'say', '--arg', 'words=hi', '--dry-run', '--json'], t);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({
      command: { program: process.execPath, args: [PRINT_ARGV, 'hi'], supplied: [1], cwd: process.cwd(), skill: 'parrot', tool: 'say' },
      decision: 'ask',
      sandbox: { name: 'workspace', network: false, contained: true, mechanism: 'bubblewrap', why: null },
    });
    expect(JSON.parse((await cli(['history', '--json'], t)).stdout)).toEqual([]);
  });

  it('bad argument input is coded: invalid JSON (E508), a wrong type (E503), an undeclared key (E502)', async () => {
    const t = home();
    expect((await cli(['run', 'echo', 'say', '--args', '{nope'], t)).stderr).toMatch(/^error\[E508\]: --args is not valid JSON/);
    expect((await cli(['run', 'echo', 'say', '--arg', 'words=a', '--arg', 'times=many'], t)).stderr).toMatch(/^error\[E503\]/);
    expect((await cli(['run', 'echo', 'say', '--arg', 'colour=red'], t)).stderr).toMatch(/^error\[E502\]/);
  });

  it('runs where it is started: `cd repo && skilltray run git git_status --yes` reports that repo', async () => {
    const t = home();
    const repo = tempDir();
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repo });
    git('init', '-q', '-b', 'trunk');
    writeFileSync(join(repo, 'untracked.txt'), 'x\n');
    const outcome = await cliProcess(['run', 'git', 'git_status', '--yes'], t.env, repo);
    expect(outcome.stderr).toMatch(/exit 0/);
    expect(outcome.stdout).toBe('## No commits yet on trunk\n?? untracked.txt');
    const dry = JSON.parse((await cliProcess(['run', 'git', 'git_status', '--dry-run', '--json'], t.env, repo)).stdout);
    expect(dry).toMatchObject({ command: { cwd: repo }, decision: 'auto', sandbox: { name: 'read-only', network: false, contained: true } });
    // A relative --cwd is taken from where the command runs.
    const sub = JSON.parse((await cliProcess(['run', 'git', 'git_status', '--cwd', '..', '--dry-run', '--json'], t.env, join(repo, '.git'))).stdout);
    expect(sub.command.cwd).toBe(repo);
  });

  it('[s] remembers "always" for this session only: the next process asks again', async () => {
    const t = home();
    const first = await cli(['run', 'parrot', 'say', '--arg', 'words=x', '--json'], t, { answers: ['s'] });
    expect(first.code).toBe(0);
    expect(JSON.parse((await cli(['history', '--json'], t)).stdout)[0]).toMatchObject({ answer: 'always-session', decidedBy: 'user' });
    expect((await cli(['remembered', '--json'], t)).stdout).toBe('[]\n');
    expect((await cli(['run', 'parrot', 'say', '--arg', 'words=y'], t)).stderr).toMatch(/^error\[E601\]/);
  });

  it('exits with the structured error as a real process, never hanging for a prompt without a TTY', async () => {
    const t = home();
    writeSkill(t.skills, 'parrot2', skillMd({ name: 'parrot2', description: 'x', version: '1.0.0' }, '\n### say\n\nSays.\n\n#### Command\n\n```\ntrue\n```\n'));
    const outcome = await cliProcess(['run', 'parrot2', 'say'], t.env, t.work);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toMatch(/^error\[E601\]/);
  });
});

describe('records and settings', () => {
  it('history lists runs newest first and shows one run whole', async () => {
    const t = home();
    await cli(['run', 'echo', 'say', '--arg', 'words=first'], t);
    await cli(['run', 'parrot', 'say', '--arg', 'words=second'], t);
    const runs = JSON.parse((await cli(['history', '--json'], t)).stdout);
    expect(runs.map((r: { skill: string; status: string }) => [r.skill, r.status])).toEqual([
      ['parrot', 'refused'],
      ['echo', 'succeeded'],
    ]);
    const one = JSON.parse((await cli(['history', runs[1].id, '--json'], t)).stdout);
    expect(one).toMatchObject({ stdout: '["first"]', decidedBy: 'policy' });
    expect((await cli(['history', '--status', 'refused', '--json'], t)).stdout).toContain('parrot');
    expect((await cli(['history', '--status', 'nope'], t)).stderr).toMatch(/^error\[E100\]/);
  });

  it('rules add/list/remove, and a deny rule refuses even --yes', async () => {
    const t = home();
    expect((await cli(['rules', 'add', 'deny', 'skill:par*'], t)).stdout).toBe('rule #1: deny skill:par*\n');
    expect((await cli(['run', 'parrot', 'say', '--arg', 'words=x', '--yes'], t)).stderr).toMatch(/^error\[E602\]: 'parrot\/say' is denied by rule #1/);
    expect(JSON.parse((await cli(['rules', '--json'], t)).stdout)).toEqual([expect.objectContaining({ id: 1, effect: 'deny', pattern: 'skill:par*' })]);
    expect((await cli(['rules', 'add', 'allow', 'tool:skill_exec'], t)).stderr).toMatch(/^error\[E609\]/);
    expect((await cli(['rules', 'remove', '1'], t)).code).toBe(0);
    expect((await cli(['rules', 'remove', '1'], t)).stderr).toMatch(/^error\[E614\]/);
  });

  it('always allow from the terminal is remembered and revocable', async () => {
    const t = home();
    await cli(['run', 'parrot', 'say', '--arg', 'words=x'], t, { answers: ['a'] });
    expect((await cli(['run', 'parrot', 'say', '--arg', 'words=y'], t)).code).toBe(0);
    const [entry] = JSON.parse((await cli(['remembered', '--json'], t)).stdout);
    expect(entry).toMatchObject({ skill: 'parrot', tool: 'say', programPath: process.execPath });
    await cli(['remembered', 'revoke', String(entry.id)], t);
    expect((await cli(['run', 'parrot', 'say', '--arg', 'words=z'], t)).stderr).toMatch(/^error\[E601\]/);
  });

  it('mode shows and sets the mode; pause refuses runs until resume', async () => {
    const t = home();
    expect((await cli(['mode'], t)).stdout).toBe('Global\n');
    expect((await cli(['mode', 'dev'], t)).stdout).toBe('Dev\n');
    expect((await cli(['run', 'echo', 'say', '--arg', 'words=x'], t)).stderr).toMatch(/^error\[E605\]: 'echo\/say' is not offered in Dev mode/);
    expect((await cli(['mode', 'Work'], t)).stderr).toMatch(/^error\[E610\]/);
    await cli(['mode', 'Global'], t);
    await cli(['pause'], t);
    expect((await cli(['run', 'echo', 'say', '--arg', 'words=x'], t)).stderr).toMatch(/^error\[E608\]/);
    await cli(['resume'], t);
    expect((await cli(['run', 'echo', 'say', '--arg', 'words=x'], t)).code).toBe(0);
  });

  it('resolve renders a prompt skill with $ARGUMENTS', async () => {
    expect((await cli(['resolve', 'prompt', 'src/a.ts', 'src/b.ts'], home())).stdout).toBe('Review src/a.ts src/b.ts carefully.\n');
  });
});
