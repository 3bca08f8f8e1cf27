/**
 * Issue 38's declarations, identity and committed secrets, played on the real CLI as root and as an
 * ordinary user: a skill that declares it reads keys, credentials or Skilltray's token (E433); a
 * `reads:` entry spelled to slip past E430 (`/var//run`); a Command whose program is a file in ~/.ssh
 * (E434), or reaches one through PATH (E707); a planted `~/.local/bin/git` first on PATH under
 * bundled trust; `git_show HEAD:.env` printing a committed secret unasked; and the pack scan saying
 * none of it.
 */
import { chmodSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { resolveProgram } from '../../../../src-main/core/process/resolve-program.js';
import { skillMd } from '../../../support/temp.js';
import { asActor, asRootAndUser, attack, plant, resultOf, skilltray, type Actor } from './actors.js';

const LONG = { timeout: 120_000 };

const DECOYS = { '.ssh/id_rsa': 'decoy-ssh-key', '.aws/credentials': 'aws_secret_access_key = decoy-aws' };

/** A user skill of the actor's (in Skilltray's home) with one tool, `sh`, running `command`. */
function plantSkill(actor: Actor, name: string, frontmatter: Record<string, unknown>, command = 'bash -c <<script>>'): void {
  const body = `\n### sh\n\nRuns the script.\n\n#### Parameters\n\n| Name | Type | Required | Description |\n|---|---|---|---|\n| script | string | no | bash script |\n\n#### Command\n\n\`\`\`\n${command}\n\`\`\`\n`;
  const text = skillMd({ name, description: `Reads what it declares (${name}).`, version: '1.0.0', ...frontmatter }, body);
  plant(actor, { [`skills/${name}/SKILL.md`]: text }, actor.skilltrayHome);
}

/** The error a `--json` command printed. */
function errorOf(stdout: string): { code: string; message: string } {
  return (JSON.parse(stdout) as { error: { code: string; message: string } }).error;
}

asRootAndUser((actor) => {
  it("a skill that declares keys, credentials and Skilltray's token is an error at check time (E433, at its line) and never runs", LONG, async () => {
    plant(actor, DECOYS);
    const token = join(actor.skilltrayHome, 'token');
    plantSkill(actor, 'declares', { read_only: true, reads: ['~/.ssh/id_rsa', '~/.aws/credentials', token, '~/.config'] });

    const check = await skilltray(actor, ['check', 'declares']);
    expect(check.code).toBe(1);
    for (const [entry, place] of [
      ['~/.ssh/id_rsa', 'lies in ~/.ssh'],
      ['~/.aws/credentials', 'lies in ~/.aws'],
      [token, "lies in Skilltray's home"],
      ['~/.config', 'holds ~/.config/gcloud'],
    ]) {
      expect(check.stdout).toContain(`error[E433] SKILL.md:6 reads entry '${entry}' ${place}`);
    }
    const listed = JSON.parse((await skilltray(actor, ['list', '--json'])).stdout) as { skills: { name: string; status: string }[] };
    expect(listed.skills.find((s) => s.name === 'declares')).toMatchObject({ status: 'error' });

    const { outcome } = await attack(actor, 'declares', 'sh', { script: `cat ~/.ssh/id_rsa ~/.aws/credentials ${token}` });
    expect(errorOf(outcome.stdout)).toMatchObject({ code: 'E507' });
    expect(outcome.stdout + outcome.stderr).not.toMatch(/decoy-/);
  });

  it('a reads entry spelled /var//run is refused (E430) and the host /run is never bound', LONG, async () => {
    plantSkill(actor, 'slashes', { read_only: true, reads: ['/var//run'] });
    const check = await skilltray(actor, ['check', 'slashes']);
    expect(check.stdout).toMatch(/error\[E430\] SKILL\.md:6 reads entry '\/var\/\/run' lies in \/var\/run, where sockets and devices live/);
    const { outcome } = await attack(actor, 'slashes', 'sh', { script: 'ls -A /var//run /run' });
    expect(errorOf(outcome.stdout)).toMatchObject({ code: 'E507' });
  });

  it('a Command whose program is a file in ~/.ssh is an error (E434); one that reaches there through PATH is refused (E707)', LONG, async () => {
    plant(actor, { ...DECOYS, '.ssh/helper': '#!/bin/sh\necho decoy-helper-ran\ncat "$HOME/.ssh/id_rsa"\n' });
    chmodSync(join(actor.home, '.ssh', 'helper'), 0o755);
    const control = await asActor(actor, join(actor.home, '.ssh', 'helper'), []);
    expect(control.stdout).toContain('decoy-helper-ran');

    plantSkill(actor, 'keyed', {}, join(actor.home, '.ssh', 'helper'));
    const check = await skilltray(actor, ['check', 'keyed']);
    expect(check.stdout).toContain(`error[E434] SKILL.md:20 tool sh: the program '${join(actor.home, '.ssh', 'helper')}' lies in ~/.ssh`);
    const written = await attack(actor, 'keyed', 'sh', {});
    expect(errorOf(written.outcome.stdout)).toMatchObject({ code: 'E507' });

    plantSkill(actor, 'pathed', {}, 'helper');
    const pathed = await skilltray({ ...actor, env: { ...actor.env, PATH: `${join(actor.home, '.ssh')}:${actor.env.PATH}` } }, [
      'run',
      'pathed',
      'sh',
      '--yes',
      '--json',
    ]);
    expect(errorOf(pathed.stdout)).toMatchObject({ code: 'E707', message: expect.stringContaining(`${join(actor.home, '.ssh', 'helper')} lies in ~/.ssh`) });
    expect(pathed.stdout + pathed.stderr).not.toContain('decoy-');
  });

  it("a planted ~/.local/bin/git first on PATH never runs on the bundled skill's trust", LONG, async () => {
    plant(actor, { '.local/bin/git': '#!/bin/sh\necho decoy-planted-git\n' });
    chmodSync(join(actor.home, '.local', 'bin', 'git'), 0o755);
    const first = { ...actor, env: { ...actor.env, PATH: `${join(actor.home, '.local', 'bin')}:${actor.env.PATH}` } };
    const control = await asActor(first, 'git', ['--version']);
    expect(control.stdout).toContain('decoy-planted-git');

    // On bundled trust the system's git runs, unasked, and the planted one never does.
    const run = await skilltray(first, ['run', 'git', 'git_status', '--json']);
    const report = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(report.decision).toMatchObject({ outcome: 'auto', by: 'policy' });
    expect(run.stdout).not.toContain('decoy-planted-git');

    // Where only the planted git is on PATH (bwrap, prlimit and the suite's setpriv reached through links of the person's), it asks and names it.
    const tools = join(actor.home, 'tools');
    mkdirSync(tools, { recursive: true });
    for (const name of ['bwrap', 'prlimit', 'true', 'setpriv']) symlinkSync(resolveProgram(name, process.env, '/') ?? `/usr/bin/${name}`, join(tools, name));
    const only = { ...actor, env: { ...actor.env, PATH: `${join(actor.home, '.local', 'bin')}:${tools}` } };
    const asked = await skilltray(only, ['run', 'git', 'git_status', '--json']);
    expect(errorOf(asked.stdout)).toMatchObject({
      code: 'E601',
      message: expect.stringContaining(`its program ${join(actor.home, '.local', 'bin', 'git')} is not in the system's folders`),
    });
    expect(asked.stdout).not.toContain('decoy-planted-git');
  });

  it('git_show of HEAD:.env (a committed secret) asks, exactly as file_head .env does; a visible file still shows unasked', LONG, async () => {
    const repo = join(actor.project, 'committed');
    plant(actor, { 'committed/.env': 'API_KEY=decoy-committed-env\n', 'committed/README.md': 'visible readme\n' }, actor.project);
    const git = (args: string[]) => asActor(actor, 'git', ['-c', 'user.name=t', '-c', 'user.email=t@example.org', '-C', repo, ...args], repo);
    expect((await git(['init', '-q'])).code).toBe(0);
    expect((await git(['add', '.env', 'README.md'])).code).toBe(0);
    expect((await git(['commit', '-q', '-m', 'x'])).code).toBe(0);

    for (const revision of ['HEAD:.env', ':0:.env', 'HEAD~0:./.env']) {
      const shown = await skilltray(actor, ['run', 'git', 'git_show', '--args', JSON.stringify({ revision }), '--cwd', repo, '--json'], repo);
      expect(errorOf(shown.stdout), revision).toMatchObject({ code: 'E601', message: expect.stringContaining("hidden path ('.env') in a git revision") });
      expect(shown.stdout, revision).not.toContain('decoy-committed-env');
    }
    const head = await skilltray(actor, ['run', 'files', 'file_head', '--args', JSON.stringify({ path: '.env' }), '--cwd', repo, '--json'], repo);
    expect(errorOf(head.stdout)).toMatchObject({ code: 'E601' });
    const visible = await skilltray(actor, ['run', 'git', 'git_show', '--args', JSON.stringify({ revision: 'HEAD:README.md' }), '--cwd', repo, '--json'], repo);
    expect(resultOf(JSON.parse(visible.stdout) as Record<string, unknown>).stdout).toContain('visible readme');
  });

  it(
    'a skill of more than 10,000 files is too big to hash whole: an edit past the 10,000th never hides behind an allow rule, since it asks',
    LONG,
    async () => {
      const files: Record<string, string> = {};
      for (let i = 0; i < 10_050; i++) files[`skills/big/data/f${String(i).padStart(5, '0')}.txt`] = `${i}\n`;
      plant(actor, files, actor.skilltrayHome);
      plantSkill(actor, 'big', { read_only: true });
      expect((await skilltray(actor, ['check', 'big'])).stdout).toContain(
        'warning[W413] SKILL.md:1 the skill is too big to hash whole (more than 10,000 files or 1 GiB in all)',
      );
      expect((await skilltray(actor, ['rules', 'add', 'allow', 'tool:big/sh'])).code).toBe(0);
      const asked = await skilltray(actor, ['run', 'big', 'sh', '--args', JSON.stringify({ script: 'cat data/f10049.txt' }), '--json']);
      expect(errorOf(asked.stdout)).toMatchObject({ code: 'E601', message: expect.stringContaining('too big to hash whole') });
      const dry = JSON.parse((await skilltray(actor, ['run', 'big', 'sh', '--dry-run', '--json'])).stdout) as { decision: string; reason: string };
      expect(dry).toMatchObject({ decision: 'ask', reason: expect.stringContaining('too big to hash whole') });
    },
  );

  it('the pack scan lists what each tool declares it reads, and a declared secret is a high finding: the install is refused', LONG, async () => {
    plant(actor, {
      'pack/leaky/SKILL.md': skillMd(
        { name: 'leaky', description: 'Reads keys.', version: '1.0.0', reads: ['~/.ssh/id_rsa', '~/.gitconfig'] },
        '\n### sh\n\nRuns.\n\n#### Command\n\n```\ncat /dev/null\n```\n',
      ),
    });
    const install = await skilltray(actor, ['install', join(actor.home, 'pack')]);
    expect(install.code).not.toBe(0);
    expect(install.stdout).toContain('    reads ~/.ssh/id_rsa, ~/.gitconfig');
    expect(install.stdout).toMatch(/HIGH\s+S312 leaky\/SKILL\.md:5 .*E433|HIGH\s+S312 leaky\/SKILL\.md:5 .*reads entry '~\/\.ssh\/id_rsa' lies in ~\/\.ssh/);
    expect(install.stderr).toContain('E303');
  });
});
