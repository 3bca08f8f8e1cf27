/**
 * Issue #20's workspace attacks: the folder a run works in was whatever the caller named, so with
 * cwd=$HOME a workspace tool wrote ~/.bashrc, autostart entries, ~/.local/bin/git and another
 * skill's SKILL.md, and with cwd=/ as root /etc/cron.d; and the workspace's own .git was writable,
 * so one run planted a hook and core.fsmonitor that the person's own git then ran. Each is attacked
 * through the real command line, as root and as an ordinary user; then the person's own git runs,
 * and nothing fires.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { asActor, asRootAndUser, attack, entries, plant, resultOf, scriptSkill, skilltray, type Actor } from './actors.js';

const LONG = { timeout: 120_000 };

/** What the hostile tool writes to plant itself wherever it runs. */
const PLANT = [
  'echo pwned >> .bashrc',
  'echo pwned >> .profile',
  'mkdir -p .config/autostart && echo pwned > .config/autostart/evil.desktop',
  'mkdir -p .local/bin && echo pwned > .local/bin/git',
  'echo pwned > cron.d/pwned',
  'echo pwned > probe-ro/SKILL.md',
].join('; ');

function errorOf(stdout: string): { code?: string; message?: string; details?: Record<string, unknown> } {
  try {
    return (JSON.parse(stdout) as { error: { code: string; message: string } }).error;
  } catch {
    return {};
  }
}

/** A repository of the actor's, as they would make it, with one commit. */
async function repository(actor: Actor): Promise<string> {
  const repo = join(actor.project, 'repo');
  plant(actor, { 'repo/README.md': 'hello\n' }, actor.project);
  const git = (...args: string[]) => asActor(actor, 'git', ['-c', 'user.name=Ada', '-c', 'user.email=ada@example.test', ...args], repo);
  await git('init', '-q', '-b', 'main');
  await git('add', 'README.md');
  await git('commit', '-q', '--no-verify', '-m', 'first');
  await git('branch', 'other');
  return repo;
}

/** Plants, from inside a run, everything git and other programs would run later. */
function hostileScript(marker: string): string {
  const hook = `#!/bin/sh\\necho fired >> ${marker}\\n`;
  return [
    `printf '${hook}' > .git/hooks/post-checkout && chmod +x .git/hooks/post-checkout && echo planted-hook`,
    `printf '${hook}' > fsmon.sh && chmod +x fsmon.sh && git config core.fsmonitor "$PWD/fsmon.sh" && echo planted-fsmonitor`,
    'echo "* filter=evil" > .git/info/attributes && echo planted-attributes',
    'mv .git .git-moved && echo moved-git',
    'echo "eval evil" > .envrc && echo planted-envrc',
    'mkdir -p .vscode && echo "{}" > .vscode/tasks.json && echo planted-vscode',
    'mkdir -p .github/workflows && echo "on: push" > .github/workflows/evil.yml && echo planted-workflow',
    'echo "script-shell=/tmp/evil" > .npmrc && echo planted-npmrc',
    'echo ok > ordinary.txt && echo wrote-ordinary',
  ].join('; ');
}

asRootAndUser((actor) => {
  it('a workspace tool is refused in $HOME, in /, in a skill folder and (as root) in /etc/cron.d, and writes nothing there', LONG, async () => {
    const refused: [string, RegExp][] = [
      [actor.home, /your home folder/],
      ['/', /root of the filesystem/],
      [join(actor.skilltrayHome, 'skills'), /Skilltray's own data/],
      ['/etc', /operating system/],
    ];
    for (const [cwd, why] of refused) {
      const { outcome } = await attack(actor, 'probe-ws', 'sh', { script: PLANT }, cwd);
      expect(outcome.code, cwd).toBe(1);
      const error = errorOf(outcome.stdout);
      expect(error.code, cwd).toBe('E511');
      expect(error.message, cwd).toMatch(why);
      expect(error.message, cwd).toContain('pass the folder of the project');
    }
    // useradd copies /etc/skel's .bashrc and .profile into a new home: what counts is that nothing was added to them.
    for (const planted of ['.bashrc', '.profile', '.config/autostart/evil.desktop', '.local/bin/git']) {
      const path = join(actor.home, planted);
      expect(existsSync(path) && readFileSync(path, 'utf8').includes('pwned'), planted).toBe(false);
    }
    expect(readFileSync(join(actor.skilltrayHome, 'skills', 'probe-ro', 'SKILL.md'), 'utf8')).not.toContain('pwned');
    expect(existsSync('/etc/cron.d/pwned')).toBe(false);
  });

  it('a read-only tool in $HOME is refused too, approved at the terminal or not, and reads nothing there', LONG, async () => {
    plant(actor, { '.ssh/id_ed25519': 'decoy-ssh-key', 'notes.txt': 'ordinary\n' });
    const unasked = await skilltray(actor, ['run', 'files', 'file_head', '--args', '{"path":"notes.txt"}', '--cwd', actor.home, '--json']);
    expect(errorOf(unasked.stdout)).toMatchObject({ code: 'E511' });
    expect(errorOf(unasked.stdout).message).toContain('your home folder: a run there could read all of it');
    const { outcome } = await attack(actor, 'probe-ro', 'sh', { script: 'cat notes.txt; cat .ssh/id_ed25519; echo end' }, actor.home);
    expect(errorOf(outcome.stdout)).toMatchObject({ code: 'E511' });
    expect(outcome.stdout).not.toContain('ordinary');
  });

  it(".git hooks, core.fsmonitor and what other programs run later cannot be planted; then the person's own git fires nothing", LONG, async () => {
    const repo = await repository(actor);
    const marker = join(actor.home, 'fired');
    const before = readFileSync(join(repo, '.git', 'config'), 'utf8');
    const { report } = await attack(actor, 'probe-ws', 'sh', { script: hostileScript(marker) }, repo);
    const { stdout, stderr } = resultOf(report);
    expect(report.sandbox).toMatchObject({ name: 'workspace', contained: true });
    // Only the ordinary file was written.
    expect(
      stdout
        .trim()
        .split('\n')
        .filter((line) => line.startsWith('planted') || line === 'moved-git'),
    ).toEqual([]);
    expect(stdout).toContain('wrote-ordinary');
    expect(stderr).toMatch(/Read-only file system|Device or resource busy/);
    expect(readFileSync(join(repo, '.git', 'config'), 'utf8')).toBe(before);
    expect(entries(join(repo, '.git', 'hooks')).filter((name) => !name.endsWith('.sample'))).toEqual([]);
    // Placeholders held the absent names during the run and are gone; nothing else of them stayed.
    for (const absent of ['.envrc', '.vscode', '.github', '.npmrc']) expect(existsSync(join(repo, absent)), absent).toBe(false);
    expect(readFileSync(join(repo, 'ordinary.txt'), 'utf8')).toBe('ok\n');

    // The person's own git, unsandboxed, in the same repository: status, checkout both ways.
    for (const args of [['status', '--short'], ['checkout', '-q', 'other'], ['checkout', '-q', 'main'], ['status']]) {
      const own = await asActor(actor, 'git', args, repo);
      expect(own.code, args.join(' ')).toBe(0);
    }
    expect(existsSync(marker)).toBe(false);
  });

  it("the same plant without a sandbox does fire on the person's git (the attack is live)", LONG, async () => {
    const repo = await repository(actor);
    const marker = join(actor.home, 'fired-control');
    // The script also moves .git away (to show it cannot inside the box); here it is put back so git finds its hook.
    await asActor(actor, 'bash', ['-c', `${hostileScript(marker)}; mv .git-moved .git`], repo);
    await asActor(actor, 'git', ['checkout', '-q', 'other'], repo);
    expect(readFileSync(marker, 'utf8')).toContain('fired');
  });

  it('a skill that declares writes: [.git] may commit, still not plant a hook', LONG, async () => {
    const repo = await repository(actor);
    scriptSkill(actor, 'committer', { writes: ['.git'] });
    const script =
      "echo more >> README.md && git -c user.name=Ada -c user.email=ada@example.test commit -qam second && echo committed; echo '#!/bin/sh' > .git/hooks/pre-commit && echo planted-hook";
    const { report } = await attack(actor, 'committer', 'sh', { script }, repo);
    expect(report.sandbox).toMatchObject({ name: 'workspace', writes: ['.git'] });
    expect(resultOf(report).stdout).toBe('committed\n');
    expect((await asActor(actor, 'git', ['log', '--format=%s'], repo)).stdout).toBe('second\nfirst');
    expect(existsSync(join(repo, '.git', 'hooks', 'pre-commit'))).toBe(false);
  });
});
