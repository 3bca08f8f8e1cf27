/** What a run's box holds, found on a real disk: declared reads, programs from outside the system, guarded entries, sockets, placeholders. */
import { chmodSync, existsSync, lstatSync, mkdirSync, readlinkSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../../src-main/core/policy/resource-limits.js';
import { boxPlaces, programBinds, type BoxInput } from '../../../src-main/core/process/sandbox/box-places.js';
import type { SandboxProfile } from '../../../src-main/shared/runs.js';
import { tempDir, writeFiles } from '../../support/temp.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function socketAt(path: string): Promise<void> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(path, resolve));
  servers.push(server);
}

/** A person's home, a project in it, a skill and the run's private folders, all canonical. */
function world(profile: Partial<SandboxProfile> = {}): { home: string; project: string; input: BoxInput } {
  const base = realpathSync(tempDir());
  const home = join(base, 'ana');
  const project = join(home, 'code', 'app');
  const skill = join(base, 'skill');
  for (const dir of [project, skill, join(base, 'run', 'skill'), join(base, 'run', 'tmp'), join(base, 'run', 'home')]) mkdirSync(dir, { recursive: true });
  return {
    home,
    project,
    input: {
      profile: { name: 'workspace', network: false, hosts: [], reads: [], writes: [], limits: DEFAULT_LIMITS, ...profile },
      cwd: project,
      skillDir: skill,
      snapshotDir: join(base, 'run', 'skill'),
      tempDir: join(base, 'run', 'tmp'),
      homeDir: join(base, 'run', 'home'),
      env: { HOME: home },
      skilltrayHome: join(home, '.local', 'share', 'skilltray'),
      programs: [],
      platform: 'linux',
      asRoot: false,
      gated: false,
    },
  };
}

describe('programs from outside the system folders', () => {
  it("a system program or one of the skill's own needs nothing; /opt/<name> gets its folder; any other its file, and a script its interpreter", () => {
    const base = realpathSync(tempDir());
    expect(programBinds('/usr/bin/git', '/skills/x', 'linux')).toEqual([]);
    expect(programBinds('/skills/x/run.sh', '/skills/x', 'linux')).toEqual([]);
    expect(programBinds('/opt/google/chrome/chrome', '/skills/x', 'linux')).toEqual(['/opt/google']);
    writeFiles(base, {
      'venv/bin/python': 'ELF',
      'bin/tool': `#!${base}/venv/bin/python -u\nprint(1)\n`,
      'bin/plain': '#!/usr/bin/env node\n',
      'go/bin/static': 'ELF',
    });
    expect(programBinds(join(base, 'bin', 'tool'), '/skills/x', 'linux')).toEqual([join(base, 'bin', 'tool'), join(base, 'venv', 'bin', 'python')]);
    expect(programBinds(join(base, 'bin', 'plain'), '/skills/x', 'linux')).toEqual([join(base, 'bin', 'plain')]);
    expect(programBinds(join(base, 'go', 'bin', 'static'), '/skills/x', 'linux')).toEqual([join(base, 'go', 'bin', 'static')]);
  });
});

describe('declared reads', () => {
  it('bind what exists at its real place, link a symlinked one from the private home, skip what is missing or a socket, and mask secrets inside', async () => {
    const { home, input } = world({ reads: ['~/.config/git/ignore', '~/.gitconfig', '~/.missing', '~/.agent.sock', '~/.config/tool'] });
    writeFiles(home, { '.config/git/ignore': '*.log\n', 'dotfiles/gitconfig': '[core]\n', '.config/tool/settings': 'x\n', '.config/gh/hosts.yml': 'token\n' });
    symlinkSync(join(home, 'dotfiles', 'gitconfig'), join(home, '.gitconfig'));
    symlinkSync(join(home, '.config', 'gh'), join(home, '.config', 'tool', 'gh'));
    await socketAt(join(home, '.agent.sock'));
    await socketAt(join(home, '.config', 'tool', 'listen.sock'));
    const { places } = boxPlaces(input);
    expect(places.binds).toEqual([
      { path: join(home, '.config', 'git', 'ignore'), kind: 'file' },
      { path: join(home, 'dotfiles', 'gitconfig'), kind: 'file' },
      { path: join(home, '.config', 'tool'), kind: 'dir' },
    ]);
    expect(readlinkSync(join(input.homeDir, '.gitconfig'))).toBe(join(home, 'dotfiles', 'gitconfig'));
    expect(existsSync(join(input.homeDir, '.config', 'git', 'ignore'))).toBe(false);
    expect(places.sockets).toEqual([join(home, '.config', 'tool', 'listen.sock')]);
    expect(places.userHome).toBe(home);
    // The private home replaces the person's; a symlink inside a declared folder still finds ~/.config/gh masked.
    expect(places.masks).toEqual([]);
    expect(boxPlaces({ ...input, profile: { ...input.profile, reads: ['~/.config'] } }).places.masks).toEqual([
      { path: join(home, '.config', 'gh'), kind: 'dir' },
    ]);
  });
});

describe('the working directory', () => {
  it('keeps existing guarded entries read-only, at any depth, and a symlink by a guarded name leads to a guarded target', () => {
    const { project, input } = world();
    writeFiles(project, {
      '.git/config': '[core]\n',
      'vendor/lib/.git/config': '',
      '.github/workflows/ci.yml': 'on: push\n',
      'real-vscode/settings.json': '{}',
      'src/main.c': '',
    });
    symlinkSync(join(project, 'real-vscode'), join(project, '.vscode'));
    const { places, release } = boxPlaces(input);
    release();
    expect(places.guarded.map((entry) => entry.path)).toEqual(
      expect.arrayContaining([
        join(project, '.git'),
        join(project, '.github', 'workflows'),
        join(project, 'real-vscode'),
        join(project, 'vendor', 'lib', '.git'),
      ]),
    );
    expect(places.guarded.map((entry) => entry.path)).not.toContain(join(project, 'src'));
    expect(places.guarded.map((entry) => entry.path)).not.toContain(join(project, '.vscode'));
  });

  it('holds absent guarded names with placeholders during the run, removes them after if still empty, and never one it did not make', () => {
    const { project, input } = world();
    writeFiles(project, { '.envrc': 'mine\n' });
    const first = boxPlaces(input);
    const second = boxPlaces(input);
    const held = first.places.guarded.map((entry) => entry.path);
    expect(held).toEqual(expect.arrayContaining([join(project, '.git'), join(project, '.npmrc'), join(project, '.github'), join(project, '.envrc')]));
    expect(lstatSync(join(project, '.git')).isDirectory()).toBe(true);
    expect(lstatSync(join(project, '.npmrc')).size).toBe(0);
    first.release();
    // Another run still holds them.
    expect(existsSync(join(project, '.git'))).toBe(true);
    second.release();
    expect(existsSync(join(project, '.git'))).toBe(false);
    expect(existsSync(join(project, '.npmrc'))).toBe(false);
    expect(existsSync(join(project, '.envrc'))).toBe(true);
  });

  it('writes: [.git] opens .git but keeps its hooks and config read-only', () => {
    const { project, input } = world({ writes: ['.git'] });
    writeFiles(project, { '.git/config': '', '.git/hooks/pre-commit.sample': '', '.git/HEAD': '' });
    const { places, release } = boxPlaces(input);
    release();
    const paths = places.guarded.map((entry) => entry.path);
    expect(paths).toEqual(expect.arrayContaining([join(project, '.git', 'hooks'), join(project, '.git', 'config')]));
    expect(paths).not.toContain(join(project, '.git'));
  });

  it("a read-only run makes no placeholder; sockets are found in it; a worktree's git folder elsewhere is bound", async () => {
    const { project, home, input } = world({ name: 'read-only' });
    const main = join(home, 'main-repo', '.git');
    writeFiles(main, { 'worktrees/app/commondir': '../..\n', 'worktrees/app/HEAD': '' });
    writeFileSync(join(project, '.git'), `gitdir: ${join(main, 'worktrees', 'app')}\n`);
    mkdirSync(join(project, 'run'));
    await socketAt(join(project, 'run', 'dev.sock'));
    const { places } = boxPlaces(input);
    expect(places.guarded).toEqual([]);
    expect(existsSync(join(project, '.envrc'))).toBe(false);
    expect(places.sockets).toEqual([join(project, 'run', 'dev.sock')]);
    expect(places.binds.map((entry) => entry.path)).toEqual([join(main, 'worktrees', 'app'), main]);
    chmodSync(project, 0o755);
  });
});
