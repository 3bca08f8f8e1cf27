/**
 * Issue #38's binds: files in the workspace and declarations widened the box. A `.git` file naming
 * `gitdir: ~/.ssh/id_ed25519` (or the home, or /) bound its target, and a repository whose
 * core.worktree is the home then printed the keys through bundled git_diff, unasked; declared reads
 * of secrets, a read through a link to the home, `/var//run`, and a program kept under ~/.ssh were
 * bound unmasked. Each is attacked through the real command line, as root and as an ordinary user;
 * and the bundled read-only tools still do their work in an ordinary repository.
 */
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { toolSection } from '../../../support/tool-section.js';
import { asActor, asRootAndUser, attack, plant, resultOf, skilltray, type Actor } from './actors.js';

const LONG = { timeout: 180_000 };

/** Secrets of the home, each with its own recognisable content. */
const DECOYS: Record<string, string> = {
  '.ssh/id_ed25519': 'decoy-ssh-key',
  '.aws/credentials': 'decoy-aws-secret',
  '.netrc': 'machine x password decoy-netrc',
  '.config/gh/hosts.yml': 'oauth_token: decoy-gh-token',
  '.bash_history': 'decoy-bash-history',
  '.pgpass': 'db:5432:*:app:decoy-pgpass',
};

/** git as the actor, with an identity, in `cwd`. */
const git = (actor: Actor, cwd: string, ...args: string[]) => asActor(actor, 'git', ['-c', 'user.name=Ada', '-c', 'user.email=ada@example.test', ...args], cwd);

/** A SKILL.md of the actor's own: one tool running `command` (a Command block line), with `frontmatter` added. */
function ownSkill(actor: Actor, name: string, frontmatter: string, command: string): void {
  plant(actor, {
    [`.local/share/skilltray/skills/${name}/SKILL.md`]: [
      '---',
      `name: ${name}`,
      'description: Reads what it declares. Use when testing.',
      'version: 1.0.0',
      'read_only: true',
      frontmatter,
      '---',
      '',
      ...toolSection('sh', command),
    ].join('\n'),
  });
}

function errorOf(stdout: string): { code?: string; message?: string } {
  try {
    return (JSON.parse(stdout) as { error: { code: string; message: string } }).error;
  } catch {
    return {};
  }
}

const allDecoys = (): string[] => [...Object.values(DECOYS), 'decoy-skilltray-api-token'];

asRootAndUser((actor) => {
  it('a .git naming a secret, the home or / adds no bind, and a repository whose core.worktree is the home shows none of it', LONG, async () => {
    plant(actor, DECOYS);
    const secrets = [...Object.keys(DECOYS), '.local/share/skilltray/token'];
    // A repository whose work tree is the home, with the secrets tracked as empty files: git diff would print each.
    const repo = join(actor.project, 'repo');
    plant(actor, { 'repo/README.md': 'hello\n' }, actor.project);
    await git(actor, repo, 'init', '-q', '-b', 'main');
    await git(actor, repo, 'config', 'core.worktree', actor.home);
    for (const rel of secrets) await git(actor, repo, 'update-index', '--add', '--cacheinfo', `100644,e69de29bb2d1d6434b8b29ae775ad8c2e48c5391,${rel}`);
    // One .git file per secret, one naming the home, one naming /.
    const gitFiles: Record<string, string> = { 'home/.git': `gitdir: ${actor.home}\n`, 'root/.git': 'gitdir: /\n' };
    secrets.forEach((rel, i) => (gitFiles[`m${i}/.git`] = `gitdir: ${join(actor.home, rel)}\n`));
    plant(actor, gitFiles, actor.project);

    const runs: [string, string, Record<string, unknown>][] = [
      ['git', 'git_diff', { repo: 'repo' }],
      ['git', 'git_status', { repo: 'repo' }],
      ['git', 'git_show', { repo: 'repo' }],
      ['git', 'git_status', { repo: 'home' }],
      ['files', 'file_head', { path: join(actor.home, '.bash_history') }],
      ['files', 'file_head', { path: join(actor.home, '.ssh', 'id_ed25519') }],
    ];
    for (const [skill, tool, args] of runs) {
      const { outcome, report } = await attack(actor, skill, tool, args);
      // The git tools run unasked; file_head of a path in the home asks (approved here at the terminal).
      if (skill === 'git') expect(report.decision, `${tool} ${JSON.stringify(args)}`).toMatchObject({ outcome: 'auto', by: 'policy' });
      for (const decoy of allDecoys()) expect(outcome.stdout + outcome.stderr, `${tool} ${JSON.stringify(args)}`).not.toContain(decoy);
    }
    const paths = secrets.map((rel) => join(actor.home, rel)).join(' ');
    const probe = await attack(actor, 'probe-ro', 'sh', { script: `cat ${paths} 2>&1; ls -A / ${actor.home} 2>&1; echo end` });
    for (const decoy of allDecoys()) expect(resultOf(probe.report).stdout).not.toContain(decoy);
    expect(resultOf(probe.report).stdout.split('\n')).not.toContain('root');
    // The dry run names each .git that points outside: git sees nothing there.
    const dry = await skilltray(actor, ['run', 'git', 'git_status', '--args', '{}', '--cwd', actor.project, '--dry-run', '--json']);
    const outside = (JSON.parse(dry.stdout) as { sandbox: { gitOutside?: string[] } }).sandbox.gitOutside ?? [];
    expect(outside).toEqual(expect.arrayContaining(['home/.git', 'root/.git', 'm0/.git']));
  });

  it(
    "declared reads of a secret, of Skilltray's home or through a link to the home, /var//run, and a program under ~/.ssh are refused, naming the path",
    LONG,
    async () => {
      plant(actor, { ...DECOYS, 'dotfiles/gitconfig': '[core]\n\tpager = less\n' });
      symlinkSync(actor.home, join(actor.home, 'everything'));
      symlinkSync(join(actor.home, 'dotfiles', 'gitconfig'), join(actor.home, '.gitconfig'));
      const script = join(actor.home, '.ssh', 'tool.sh');
      writeFileSync(script, '#!/bin/sh\n# decoy-ssh-program\ncat "$0"\n', { mode: 0o755 });
      plant(actor, {});
      const cases: [string, string, string, string][] = [
        ['reads-key', 'reads: [~/.ssh/id_ed25519]', 'bash -c "cat -- ~/.ssh/id_ed25519"', join(actor.home, '.ssh', 'id_ed25519')],
        ['reads-aws', 'reads: [~/.aws/credentials]', 'bash -c "cat -- ~/.aws/credentials"', join(actor.home, '.aws', 'credentials')],
        ['reads-token', 'reads: [~/.local/share/skilltray/token]', 'bash -c "cat -- ~/.local/share/skilltray/token"', join(actor.skilltrayHome, 'token')],
        ['reads-everything', 'reads: [~/everything]', 'bash -c "cat -- ~/everything/.bash_history"', actor.home],
        ['reads-run', 'reads: [/var//run]', 'ls -A /var//run', '/run'],
        ['program-ssh', '', script, script],
      ];
      for (const [name, frontmatter, command, real] of cases) {
        ownSkill(actor, name, frontmatter, command);
        const { outcome } = await attack(actor, name, 'sh', {});
        expect(outcome.code, name).toBe(1);
        for (const decoy of [...allDecoys(), 'decoy-ssh-program']) expect(outcome.stdout + outcome.stderr, name).not.toContain(decoy);
        const error = errorOf(outcome.stdout);
        expect(error.code, name).toMatch(/^E\d+$/);
        // Named by where it leads (the run's refusal, E512), or as declared (a check of the skill that refuses it first).
        const declared = /\[(.*)\]/.exec(frontmatter)?.[1] ?? real;
        expect(
          [real, declared].some((path) => (error.message ?? '').includes(path)),
          `${name}: ${error.message ?? ''}`,
        ).toBe(true);
      }
      // A read through a link is shown by where it leads.
      ownSkill(actor, 'reads-gitconfig', 'reads: [~/.gitconfig]', 'bash -c "cat -- ~/.gitconfig"');
      const dry = await skilltray(actor, ['run', 'reads-gitconfig', 'sh', '--args', '{}', '--dry-run', '--json']);
      const shown = (JSON.parse(dry.stdout) as { sandbox: { reads: string[]; readsAt: string[] } }).sandbox;
      expect(shown).toMatchObject({ reads: ['~/.gitconfig'], readsAt: [join(actor.home, 'dotfiles', 'gitconfig')] });
      const { report } = await attack(actor, 'reads-gitconfig', 'sh', {});
      expect(resultOf(report).stdout).toContain('pager = less');
    },
  );

  it('the bundled read-only tools do their work in an ordinary repository, unasked', LONG, async () => {
    const repo = join(actor.project, 'work');
    plant(actor, { 'work/README.md': 'hello\nworld\n', 'work/src/main.c': 'int main(void) { return 0; }\n' }, actor.project);
    await git(actor, repo, 'init', '-q', '-b', 'main');
    await git(actor, repo, 'add', '.');
    await git(actor, repo, 'commit', '-q', '--no-verify', '-m', 'first commit');
    plant(actor, { 'work/README.md': 'hello\nthere\n' }, actor.project);
    const expected: [string, string, Record<string, unknown>, string][] = [
      ['git', 'git_status', {}, ' M README.md'],
      ['git', 'git_log', {}, 'first commit'],
      ['git', 'git_diff', {}, '+there'],
      ['git', 'git_branch', {}, 'main'],
      ['git', 'git_show', {}, 'first commit'],
      ['files', 'file_head', { path: 'README.md' }, 'hello\nthere'],
      ['files', 'list_directory', {}, 'README.md'],
      ['files', 'word_count', { path: 'README.md' }, '2'],
      ['files', 'find_files', { pattern: '*.c' }, 'src/main.c'],
    ];
    for (const [skill, tool, args, shows] of expected) {
      const { report } = await attack(actor, skill, tool, args, repo);
      expect(report.decision, tool).toMatchObject({ outcome: 'auto' });
      expect(resultOf(report).exitCode, `${tool}: ${resultOf(report).stderr}`).toBe(0);
      expect(resultOf(report).stdout, tool).toContain(shows);
    }
  });
});
