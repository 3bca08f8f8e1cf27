/** The git pack, run for real against a repository made for each test. */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, readFileSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SkilltrayCore } from '../../../src-main/core/api.js';
import { decide } from '../../../src-main/core/policy/decide.js';
import { profileFor } from '../../../src-main/core/policy/profile.js';
import { pinsFor } from '../../../src-main/core/policy/pins.js';
import type { Tool } from '../../../src-main/shared/model.js';
import type { Rule, SandboxView } from '../../../src-main/shared/runs.js';
import { runTool } from '../../support/run-tool.js';
import { ordinaryDir, requireSandbox } from '../../support/sandbox.js';
import { tempDir, testHome, writeFiles } from '../../support/temp.js';
import { SKILLS_DIR, argv, pack } from './bundled-packs.js';

const skill = pack('git');

function git(cwd: string, ...args: string[]): string {
  // stderr is kept off the test output (the hostile fixtures make git and its programs complain on purpose); a failure still carries it.
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: 'pipe' });
}

/**
 * Two commits on main (README.md, then src/app.txt), a branch `feature`, a remote-tracking ref,
 * a staged edit of README.md, an unstaged edit of src/app.txt and an untracked notes.txt.
 * The identity lives in the repository's config: tools get a filtered environment.
 */
function makeRepo(): string {
  const dir = tempDir();
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.name', 'Ada Tester');
  git(dir, 'config', 'user.email', 'ada@example.test');
  git(dir, 'config', 'commit.gpgsign', 'false');
  writeFiles(dir, { 'README.md': 'hello\n' });
  git(dir, 'add', 'README.md');
  git(dir, 'commit', '-q', '--no-verify', '--date=2024-05-01T10:00:00Z', '-m', 'Add README');
  writeFiles(dir, { 'src/app.txt': 'one\n' });
  git(dir, 'add', 'src/app.txt');
  git(dir, 'commit', '-q', '--no-verify', '--date=2024-05-02T10:00:00Z', '-m', 'Add app');
  git(dir, 'branch', 'feature');
  git(dir, 'update-ref', 'refs/remotes/origin/main', 'HEAD');
  writeFiles(dir, { 'README.md': 'hello\nstaged line\n' });
  git(dir, 'add', 'README.md');
  writeFiles(dir, { 'src/app.txt': 'one\nunstaged line\n', 'notes.txt': 'scratch\n' });
  return dir;
}

let repo: string;
beforeEach(() => {
  repo = makeRepo();
});

const lines = (text: string) => text.split('\n').filter((line) => line !== '');

describe('git pack: rendering', () => {
  /** What every command sets first: no fsmonitor, no hooks, no signature checks. */
  const HARDENED = ['git', '-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null', '-c', 'log.showSignature=false'];

  it.each([
    ['git_status', {}, [...HARDENED, '-C', '.', 'status', '--short', '--branch']],
    ['git_log', {}, [...HARDENED, '-C', '.', 'log', '--no-ext-diff', '--no-textconv', '-n', '10', '--date=short', '--format=%h %ad %an: %s', '--']],
    [
      'git_log',
      { count: 3, path: 'src' },
      [...HARDENED, '-C', '.', 'log', '--no-ext-diff', '--no-textconv', '-n', '3', '--date=short', '--format=%h %ad %an: %s', '--', 'src'],
    ],
    ['git_diff', {}, [...HARDENED, '-C', '.', 'diff', '--no-ext-diff', '--no-textconv', '--']],
    ['git_diff', { staged: true, file: 'a b.txt' }, [...HARDENED, '-C', '.', 'diff', '--no-ext-diff', '--no-textconv', '--staged', '--', 'a b.txt']],
    ['git_branch', { all: false }, [...HARDENED, '-C', '.', 'branch', '-v']],
    ['git_branch', { all: true, repo: '/r' }, [...HARDENED, '-C', '/r', 'branch', '--all', '-v']],
    ['git_show', {}, [...HARDENED, '-C', '.', 'show', '--no-ext-diff', '--no-textconv', 'HEAD', '--']],
    ['git_show', { revision: 'v1.0~2', stat: true }, [...HARDENED, '-C', '.', 'show', '--no-ext-diff', '--no-textconv', '--stat', 'v1.0~2', '--']],
  ])('%s %j', (tool, args, expected) => {
    expect(argv(skill, tool, args)).toEqual(expected);
  });

  it.each([
    ['git_show', { revision: '--output=/tmp/pwned' }, 'E504'],
    ['git_diff', { file: '--output=/tmp/pwned' }, 'E504'],
    ['git_log', { count: -1 }, 'E504'],
    ['git_log', { count: 'five' }, 'E503'],
    ['git_status', { repo: '--git-dir=/tmp' }, 'E504'],
    ['git_branch', { all: 'yes' }, 'E503'],
    ['git_status', { verbose: true }, 'E502'],
  ])('%s %j is refused with %s', (tool, args, code) => {
    expect(() => argv(skill, tool, args)).toThrow(expect.objectContaining({ code }));
  });
});

describe('git pack: real runs', () => {
  it('git_status shows the branch, the staged, unstaged and untracked files', async () => {
    const { result } = await runTool(skill, 'git_status', {}, repo);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('## main\nM  README.md\n M src/app.txt\n?? notes.txt\n');
  });

  it('git_status reads the repository named by repo, whatever the working directory', async () => {
    const { result } = await runTool(skill, 'git_status', { repo }, tempDir());
    expect(result.exitCode).toBe(0);
    expect(lines(result.stdout)[0]).toBe('## main');
  });

  it('git_log lists commits newest first with date and author, bounded by count and path', async () => {
    const all = await runTool(skill, 'git_log', {}, repo);
    expect(all.result.exitCode).toBe(0);
    expect(lines(all.result.stdout)).toEqual([
      expect.stringMatching(/^[0-9a-f]{7,} 2024-05-02 Ada Tester: Add app$/),
      expect.stringMatching(/^[0-9a-f]{7,} 2024-05-01 Ada Tester: Add README$/),
    ]);
    const one = await runTool(skill, 'git_log', { count: 1 }, repo);
    expect(lines(one.result.stdout)).toEqual([expect.stringMatching(/Add app$/)]);
    const readme = await runTool(skill, 'git_log', { path: 'README.md' }, repo);
    expect(lines(readme.result.stdout)).toEqual([expect.stringMatching(/Add README$/)]);
  });

  it('git_diff shows unstaged changes, or staged ones with staged, optionally for one file', async () => {
    const unstaged = await runTool(skill, 'git_diff', {}, repo);
    expect(unstaged.result.exitCode).toBe(0);
    expect(unstaged.result.stdout).toContain('diff --git a/src/app.txt b/src/app.txt');
    expect(unstaged.result.stdout).toContain('+unstaged line');
    expect(unstaged.result.stdout).not.toContain('README.md');

    const staged = await runTool(skill, 'git_diff', { staged: true }, repo);
    expect(staged.result.stdout).toContain('diff --git a/README.md b/README.md');
    expect(staged.result.stdout).toContain('+staged line');
    expect(staged.result.stdout).not.toContain('src/app.txt');

    const oneFile = await runTool(skill, 'git_diff', { file: 'README.md' }, repo);
    expect(oneFile.result).toMatchObject({ exitCode: 0, stdout: '' });
  });

  it('git_branch marks the current branch; all adds remote-tracking branches', async () => {
    const local = await runTool(skill, 'git_branch', {}, repo);
    expect(local.result.exitCode).toBe(0);
    expect(lines(local.result.stdout)).toEqual([
      expect.stringMatching(/^ {2}feature +[0-9a-f]{7,} Add app$/),
      expect.stringMatching(/^\* main +[0-9a-f]{7,} Add app$/),
    ]);
    const all = await runTool(skill, 'git_branch', { all: true }, repo);
    expect(all.result.stdout).toMatch(/^ {2}remotes\/origin\/main +[0-9a-f]{7,} Add app$/m);
  });

  it('git_show shows HEAD with its patch, a revision, or only the stat', async () => {
    const head = await runTool(skill, 'git_show', {}, repo);
    expect(head.result.exitCode).toBe(0);
    expect(head.result.stdout).toContain('Author: Ada Tester <ada@example.test>');
    expect(head.result.stdout).toContain('    Add app');
    expect(head.result.stdout).toContain('+one');

    const stat = await runTool(skill, 'git_show', { stat: true }, repo);
    expect(stat.result.stdout).toMatch(/^ src\/app\.txt \| 1 \+$/m);
    expect(stat.result.stdout).not.toContain('@@');

    const previous = await runTool(skill, 'git_show', { revision: 'HEAD~1' }, repo);
    expect(previous.result.stdout).toContain('    Add README');
    expect(previous.result.stdout).toContain('+hello');
  });

  it('git_show reports an unknown revision as a failed run, not an error', async () => {
    const { result } = await runTool(skill, 'git_show', { revision: 'no-such-branch' }, repo);
    expect(result.exitCode).toBe(128);
    expect(result.stderr).toContain('no-such-branch');
  });

  it('refuses an option smuggled in as a revision before any process starts', async () => {
    const target = join(tempDir(), 'pwned');
    await expect(runTool(skill, 'git_show', { revision: `--output=${target}` }, repo)).rejects.toMatchObject({ code: 'E504' });
    expect(existsSync(target)).toBe(false);
  });

  it('leaves the repository as it was after every tool has run', async () => {
    const snapshot = () => ({
      status: git(repo, 'status', '--porcelain=v2', '--branch', '--untracked-files=all'),
      refs: git(repo, 'for-each-ref'),
      staged: git(repo, 'diff', '--staged'),
      config: readFileSync(join(repo, '.git', 'config'), 'utf8'),
      files: ['README.md', 'src/app.txt', 'notes.txt'].map((file) => readFileSync(join(repo, file), 'utf8')),
    });
    const before = snapshot();
    for (const tool of skill.tools) {
      const { result } = await runTool(skill, tool.name, {}, repo);
      expect(result.exitCode, tool.name).toBe(0);
    }
    expect(snapshot()).toEqual(before);
  });
});

/** Where the hostile repository's programs leave their marks: one file per program that ran. */
let markers: string;

/** A script that records it ran (in `markers/<name>`); `textconv` also prints its file, as a textconv must. */
function markerScript(dir: string, name: string): string {
  const path = join(dir, `${name}.sh`);
  const body = name === 'textconv' ? 'cat "$1"\n' : '';
  writeFiles(dir, { [`${name}.sh`]: `#!/bin/sh\necho "$0 $*" >> '${join(markers, name)}'\n${body}` });
  chmodSync(path, 0o755);
  return path;
}

/**
 * makeRepo plus everything a repository can set to make a reading command run a program: an
 * fsmonitor, a diff driver with a textconv and an external command (named by `.gitattributes` for
 * README.md, which has staged changes), an external diff (for src/app.txt, changed unstaged), a
 * signed HEAD commit with log.showSignature and gpg.program, and a post-index-change hook (which
 * runs when status refreshes the index, so the files' stat data is made stale). Each program writes
 * its own marker.
 */
function makeHostileRepo(): string {
  const dir = makeRepo();
  const scripts = tempDir();
  // A commit with a gpgsig header (gpg.program only runs for a commit that carries a signature).
  const tree = git(dir, 'write-tree').trim();
  const parent = git(dir, 'rev-parse', 'HEAD').trim();
  const signed = [
    `tree ${tree}`,
    `parent ${parent}`,
    'author Ada Tester <ada@example.test> 1714644000 +0000',
    'committer Ada Tester <ada@example.test> 1714644000 +0000',
    'gpgsig -----BEGIN PGP SIGNATURE-----',
    ' ',
    ' iQEzBAABCAAdFiEEAAAAAAAAAAAAAAAAAAAAAAAAAAAFAmYAAAAACgkQAAAAAAAAAAAA',
    ' -----END PGP SIGNATURE-----',
    '',
    'Signed change',
    '',
  ].join('\n');
  const commit = execFileSync('git', ['hash-object', '-t', 'commit', '-w', '--stdin'], { cwd: dir, input: signed, encoding: 'utf8' }).trim();
  git(dir, 'update-ref', 'refs/heads/main', commit);
  writeFiles(dir, { 'README.md': 'hello\nstaged line\nstaged again\n', '.gitattributes': '*.md diff=evil\n' });
  git(dir, 'add', 'README.md');
  git(dir, 'config', 'core.fsmonitor', markerScript(scripts, 'fsmonitor'));
  git(dir, 'config', 'diff.evil.textconv', markerScript(scripts, 'textconv'));
  git(dir, 'config', 'diff.evil.command', markerScript(scripts, 'diff-driver'));
  git(dir, 'config', 'diff.external', markerScript(scripts, 'external-diff'));
  git(dir, 'config', 'log.showSignature', 'true');
  git(dir, 'config', 'gpg.program', markerScript(scripts, 'gpg'));
  const hook = join(dir, '.git', 'hooks', 'post-index-change');
  copyFileSync(markerScript(scripts, 'hook'), hook);
  chmodSync(hook, 0o755);
  const past = new Date('2024-01-01T00:00:00Z');
  for (const file of ['README.md', 'src/app.txt']) utimesSync(join(dir, file), past, past);
  return dir;
}

const ran = (): string[] => readdirSync(markers).sort();

describe('git pack: a repository that names programs to run', () => {
  beforeEach(() => {
    markers = tempDir();
  });

  it('the hostile repository does make plain git run its programs (the fixture is live)', () => {
    const hostile = makeHostileRepo();
    const after = (...args: string[]): string[] => {
      for (const name of ran()) rmSync(join(markers, name));
      git(hostile, ...args);
      return ran();
    };
    expect(after('status', '--short')).toEqual(['fsmonitor', 'hook']);
    // Each program stands on its own: status writes the index, and so runs the hook, without the fsmonitor too.
    expect(after('-c', 'core.fsmonitor=false', 'status', '--short')).toEqual(['hook']);
    // diff refreshes the index too, so it also asks the fsmonitor.
    expect(after('diff')).toEqual(['external-diff', 'fsmonitor']);
    expect(after('diff', '--staged')).toContain('diff-driver');
    expect(after('diff', '--staged', '--no-ext-diff')).toContain('textconv');
    expect(after('show', 'HEAD')).toEqual(['gpg', 'textconv']);
    expect(after('log', '-n', '1')).toEqual(['gpg']);
  });

  it('no tool of the pack runs any of them, whatever the arguments', async () => {
    const hostile = makeHostileRepo();
    const calls: [string, Record<string, unknown>][] = [
      ['git_status', {}],
      ['git_log', {}],
      ['git_log', { path: 'README.md' }],
      ['git_diff', {}],
      ['git_diff', { staged: true }],
      ['git_branch', { all: true }],
      ['git_show', {}],
      ['git_show', { stat: true }],
      ['git_show', { revision: 'HEAD~1' }],
    ];
    for (const [tool, args] of calls) {
      const { result } = await runTool(skill, tool, args, hostile);
      expect(result.exitCode, `${tool} ${JSON.stringify(args)}: ${result.stderr}`).toBe(0);
      expect(ran(), `${tool} ${JSON.stringify(args)}`).toEqual([]);
    }
  });

  it('still shows the diffs and the signed commit, as plain text', async () => {
    const hostile = makeHostileRepo();
    const diff = await runTool(skill, 'git_diff', {}, hostile);
    expect(diff.result.stdout).toContain('+unstaged line');
    const show = await runTool(skill, 'git_show', {}, hostile);
    expect(show.result.stdout).toContain('    Signed change');
    expect(show.result.stdout).toContain('+staged line');
  });
});

describe('git pack: policy', () => {
  const tool = (name: string) => skill.tools.find((candidate) => candidate.name === name) as Tool;
  const sandbox = (contained: boolean): SandboxView =>
    contained
      ? { ...profileFor(skill, false), contained: true, mechanism: 'bubblewrap', why: null }
      : { ...profileFor(skill, false), contained: false, mechanism: null, why: 'no sandbox here' };
  const decideFor = (name: string, contained: boolean, rules: Rule[] = []) =>
    decide({
      skill,
      tool: tool(name),
      mode: 'Dev',
      paused: false,
      rules,
      remembered: null,
      cwd: '/home/me/proj',
      programPath: '/usr/bin/git',
      resolveBin: () => '/usr/bin/git',
      env: {},
      enabled: true,
      sandbox: sandbox(contained),
    });

  it('runs every tool unasked when contained (read-only, no network), and asks when it cannot be contained', () => {
    expect(skill.trust).toBe('bundled');
    expect(skill.readOnly).toBe(true);
    expect(profileFor(skill, false)).toMatchObject({ name: 'read-only', network: false, hosts: [], reads: ['~/.config/git/ignore'], writes: [] });
    for (const { name } of skill.tools) {
      expect(decideFor(name, true).outcome, name).toBe('auto');
      expect(decideFor(name, false).outcome, name).toBe('ask');
    }
  });

  it('an allow rule still lets a tool run on its own, contained or not', () => {
    const rule: Rule = {
      id: 1,
      pattern: 'tool:git/git_status',
      effect: 'allow',
      createdAt: 0,
      pins: pinsFor('tool:git/git_status', [skill], () => profileFor(skill, false)),
    };
    expect(decideFor('git_status', false, [rule])).toMatchObject({ outcome: 'auto', by: 'rule' });
    expect(decideFor('git_log', false, [rule]).outcome).toBe('ask');
  });
});

describe('git pack: what a hostile repository makes Git run stays in the sandbox', () => {
  const cores: SkilltrayCore[] = [];
  afterEach(async () => {
    for (const core of cores.splice(0)) await core.close();
  });

  it('a clean filter no flag turns off runs, and can neither write outside nor read a key', async () => {
    requireSandbox();
    const outside = ordinaryDir();
    const dir = makeRepo();
    const t = testHome({ bundled: SKILLS_DIR });
    writeFiles(t.userHome, { '.ssh/id_test': 'PRIVATE KEY\n' });
    // The filter says it ran, tries to leave a mark outside and to copy a key there; then it acts as a filter.
    // It lies in the repository: the sandbox shows nothing else of the machine a repository could name.
    const filter = join(dir, 'filter.sh');
    writeFiles(dirname(filter), {
      'filter.sh': `#!/bin/sh\necho filter-ran-here >&2\necho ran > '${outside}/filter-ran'\ncat '${t.userHome}/.ssh/id_test' > '${outside}/stolen-key'\ncat\n`,
    });
    chmodSync(filter, 0o755);
    // A committed file whose timestamps then change: status must read it again, through the filter.
    writeFiles(dir, { 'data.txt': 'same\n' });
    git(dir, 'add', 'data.txt');
    git(dir, 'commit', '-q', '--no-verify', '-m', 'Add data');
    writeFiles(dir, { '.gitattributes': '*.txt filter=evil\n' });
    git(dir, 'config', 'filter.evil.clean', filter);
    const stale = (when: string): void => utimesSync(join(dir, 'data.txt'), new Date(when), new Date(when));
    // The fixture is live: plain git runs the filter, which leaves both marks.
    stale('2024-01-01T00:00:00Z');
    git(dir, '-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null', 'status', '--short');
    expect(readdirSync(outside).sort()).toEqual(['filter-ran', 'stolen-key']);
    for (const name of readdirSync(outside)) rmSync(join(outside, name));
    stale('2023-01-01T00:00:00Z');

    const core = new SkilltrayCore(t.config());
    cores.push(core);
    const report = await core.runs.run({ skill: 'git', tool: 'git_status', surface: 'mcp', cwd: dir }, { approval: { kind: 'none' } });
    expect(report.decision).toMatchObject({ outcome: 'auto', by: 'policy' });
    expect(report.sandbox).toMatchObject({ name: 'read-only', network: false, contained: true });
    expect(report.result.exitCode).toBe(0);
    expect(lines(report.result.stdout)[0]).toBe('## main');
    expect(report.result.stderr).toContain('filter-ran-here');
    expect(readdirSync(outside)).toEqual([]);
  });
});

describe('git pack: your own git setup, contained', () => {
  const cores: SkilltrayCore[] = [];
  afterEach(async () => {
    for (const core of cores.splice(0)) await core.close();
  });

  it('a global gitconfig with a credential helper and a token stays out; your global ignore patterns apply', async () => {
    requireSandbox();
    const dir = makeRepo();
    const t = testHome({ bundled: SKILLS_DIR });
    // A person's global setup: ignore patterns, and a gitconfig that holds a token and a credential helper.
    writeFiles(t.userHome, {
      '.config/git/ignore': '*.log\n',
      '.gitconfig': '[credential]\n\thelper = store\n[url "https://x-access-token:ghp_SECRET@github.com/"]\n\tinsteadOf = https://github.com/\n',
    });
    writeFiles(dir, { 'debug.log': 'noise\n' });
    // A clean filter the repository names tries to read the person's gitconfig.
    writeFiles(dir, { 'steal.sh': `#!/bin/sh\ncat '${t.userHome}/.gitconfig' "$HOME/.gitconfig" >&2\ncat\n` });
    chmodSync(join(dir, 'steal.sh'), 0o755);
    git(dir, 'config', 'filter.steal.clean', join(dir, 'steal.sh'));
    writeFiles(dir, { '.gitattributes': 'src/* filter=steal\n' });
    utimesSync(join(dir, 'src', 'app.txt'), new Date('2023-01-01T00:00:00Z'), new Date('2023-01-01T00:00:00Z'));
    // The control: the person's own git honours both files, and the filter reads the token.
    const own = execFileSync('git', ['-c', 'core.fsmonitor=false', 'status', '--short'], {
      cwd: dir,
      env: { ...process.env, HOME: t.userHome, XDG_CONFIG_HOME: join(t.userHome, '.config') },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(own).not.toContain('debug.log');

    const core = new SkilltrayCore(t.config());
    cores.push(core);
    const report = await core.runs.run({ skill: 'git', tool: 'git_status', surface: 'mcp', cwd: dir }, { approval: { kind: 'none' } });
    expect(report.decision).toMatchObject({ outcome: 'auto', by: 'policy' });
    expect(report.sandbox).toMatchObject({ name: 'read-only', contained: true, reads: ['~/.config/git/ignore'] });
    expect(report.result.exitCode).toBe(0);
    expect(lines(report.result.stdout)).toContain(' M src/app.txt');
    expect(report.result.stdout).not.toContain('debug.log');
    expect(report.result.stdout).toContain('?? notes.txt');
    expect(report.result.stderr).not.toContain('ghp_SECRET');
  });

  it('in a worktree whose .git names the repository elsewhere, sees nothing outside (git says so, the run names that .git); from a folder holding both it works', async () => {
    requireSandbox();
    const dir = makeRepo();
    const elsewhere = join(tempDir(), 'wt');
    git(dir, 'worktree', 'add', '-q', elsewhere, 'feature');
    git(dir, 'worktree', 'add', '-q', join(dir, 'inside'), 'main', '--force');
    const t = testHome({ bundled: SKILLS_DIR });
    const core = new SkilltrayCore(t.config());
    cores.push(core);
    const apart = await core.runs.run({ skill: 'git', tool: 'git_log', args: { count: 1 }, surface: 'mcp', cwd: elsewhere }, { approval: { kind: 'none' } });
    expect(apart.sandbox.gitOutside).toEqual(['.git']);
    expect(apart.result.stderr).toMatch(/not a git repository/);
    const held = await core.runs.run(
      { skill: 'git', tool: 'git_log', args: { count: 1, repo: 'inside' }, surface: 'mcp', cwd: dir },
      { approval: { kind: 'none' } },
    );
    expect(held.sandbox.gitOutside).toBeUndefined();
    expect(held.result.stderr).toBe('');
    expect(lines(held.result.stdout)).toEqual([expect.stringMatching(/Add app$/)]);
  });
});
