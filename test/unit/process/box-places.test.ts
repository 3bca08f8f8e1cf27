/**
 * What a run's box holds, found on a real disk from its box spec: declared reads and programs by
 * descriptor and real path (a secret refused), a writing run's hidden entries at any depth and
 * placeholders, sockets, `.git` files pointing out (named, never bound), and the sweep after the run.
 */
import { chmodSync, existsSync, lstatSync, mkdirSync, readlinkSync, realpathSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../../src-main/core/policy/resource-limits.js';
import { boxPlaces, mountsBelow, type BoxInput } from '../../../src-main/core/process/sandbox/box-places.js';
import { openBox, openWorkspace, type BoxSpec } from '../../../src-main/core/process/sandbox/box-spec.js';
import { programBinds } from '../../../src-main/core/process/sandbox/program-binds.js';
import { scanFolder } from '../../../src-main/core/process/sandbox/workspace-scan.js';
import { sweepWorkspace } from '../../../src-main/core/process/sandbox/workspace-sweep.js';
import type { SandboxProfile } from '../../../src-main/shared/runs.js';
import { tempDir, writeFiles } from '../../support/temp.js';

const servers: Server[] = [];
const specs: BoxSpec[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise<void>((resolve) => server.close(() => resolve()));
  for (const spec of specs.splice(0)) spec.dispose();
});

async function socketAt(path: string): Promise<void> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(path, resolve));
  servers.push(server);
}

/** A person's home, a project in it, a skill and the run's private folders, all canonical. */
function world(): { base: string; home: string; project: string } {
  const base = realpathSync(tempDir());
  const home = join(base, 'ana');
  const project = join(home, 'code', 'app');
  for (const dir of [project, join(base, 'skill'), join(base, 'run', 'skill'), join(base, 'run', 'tmp'), join(base, 'run', 'home')])
    mkdirSync(dir, { recursive: true });
  return { base, home, project };
}

/** The box of a run in `project` with `profile`, its spec opened as prepareRun opens it. */
function input(w: ReturnType<typeof world>, profile: Partial<SandboxProfile> = {}, programPath: string | null = null): BoxInput {
  const full: SandboxProfile = { name: 'workspace', network: false, hosts: [], reads: [], writes: [], limits: DEFAULT_LIMITS, ...profile };
  const spec = openBox(openWorkspace(w.project), {
    reads: full.reads ?? [],
    programPath,
    skillDir: join(w.base, 'skill'),
    userHome: w.home,
    skilltrayHome: join(w.home, '.local', 'share', 'skilltray'),
    platform: 'linux',
    otherHomes: [],
  });
  specs.push(spec);
  return {
    spec,
    profile: full,
    skillDir: join(w.base, 'skill'),
    snapshotDir: join(w.base, 'run', 'skill'),
    tempDir: join(w.base, 'run', 'tmp'),
    homeDir: join(w.base, 'run', 'home'),
    env: { HOME: w.home },
    skilltrayHome: join(w.home, '.local', 'share', 'skilltray'),
    platform: 'linux',
    asRoot: false,
    inCgroup: false,
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

  it('a program kept under a secret folder is refused (E512), naming it', () => {
    const w = world();
    writeFiles(w.home, { '.ssh/tool.sh': '#!/bin/sh\n' });
    expect(() => input(w, {}, join(w.home, '.ssh', 'tool.sh'))).toThrow(
      expect.objectContaining({ code: 'E512', message: expect.stringContaining('.ssh/tool.sh') }),
    );
  });
});

describe('declared reads', () => {
  it('bind by descriptor at the real place, link a symlinked one from the private home, skip what is missing or a socket, and mask secrets inside', async () => {
    const w = world();
    const { home } = w;
    writeFiles(home, { '.config/git/ignore': '*.log\n', 'dotfiles/gitconfig': '[core]\n', '.config/tool/settings': 'x\n', '.config/gh/hosts.yml': 'token\n' });
    symlinkSync(join(home, 'dotfiles', 'gitconfig'), join(home, '.gitconfig'));
    symlinkSync(join(home, '.config', 'gh'), join(home, '.config', 'tool', 'gh'));
    await socketAt(join(home, '.agent.sock'));
    await socketAt(join(home, '.config', 'tool', 'listen.sock'));
    const run = input(w, { reads: ['~/.config/git/ignore', '~/.gitconfig', '~/.missing', '~/.agent.sock', '~/.config/tool'] });
    const box = boxPlaces(run);
    box.dispose();
    expect(box.places.binds.map(({ path, kind }) => ({ path, kind }))).toEqual([
      { path: join(home, '.config', 'git', 'ignore'), kind: 'file' },
      { path: join(home, 'dotfiles', 'gitconfig'), kind: 'file' },
      { path: join(home, '.config', 'tool'), kind: 'dir' },
    ]);
    expect(box.places.binds.every((bind) => typeof bind.fd === 'number')).toBe(true);
    expect(readlinkSync(join(run.homeDir, '.gitconfig'))).toBe(join(home, 'dotfiles', 'gitconfig'));
    expect(box.places.sockets).toEqual([join(home, '.config', 'tool', 'listen.sock')]);
    expect(box.places.userHome).toBe(home);
    const wide = boxPlaces(input(w, { reads: ['~/.config'] }));
    wide.dispose();
    expect(wide.places.masks).toEqual([{ path: join(home, '.config', 'gh'), kind: 'dir' }]);
  });

  it("a read of a secret, of what lies in one, of Skilltray's home, of the whole home through a link, or of a kernel tree is refused (E512) by where it leads", () => {
    const w = world();
    writeFiles(w.home, { '.ssh/id_ed25519': 'key', '.aws/credentials': 'x', '.local/share/skilltray/token': 't' });
    symlinkSync(w.home, join(w.home, 'everything'));
    for (const [read, real] of [
      ['~/.ssh/id_ed25519', join(w.home, '.ssh', 'id_ed25519')],
      ['~/.ssh', join(w.home, '.ssh')],
      ['~/.local/share/skilltray/token', join(w.home, '.local', 'share', 'skilltray', 'token')],
      ['~/everything', w.home],
      ['/proc/self', '/proc/self'],
    ] as const) {
      expect(() => input(w, { reads: [read] }), read).toThrow(expect.objectContaining({ code: 'E512', message: expect.stringContaining(real) }));
    }
  });
});

describe('the working directory', () => {
  it("keeps every existing hidden entry read-only, at any depth, by descriptor; node_modules too; a hidden link's target in the folder is held", () => {
    const w = world();
    const { project } = w;
    writeFiles(project, {
      '.git/config': '[core]\n',
      'vendor/lib/.git/config': '',
      'a/b/c/d/e/f/g/.envrc': '',
      '.github/workflows/ci.yml': 'on: push\n',
      'real-vscode/settings.json': '{}',
      'node_modules/x/index.js': '',
      'src/main.c': '',
    });
    symlinkSync(join(project, 'real-vscode'), join(project, '.vscode'));
    const run = input(w);
    const box = boxPlaces(run);
    box.dispose();
    const held = box.places.guarded.map((entry) => entry.path);
    expect(held).toEqual(
      expect.arrayContaining([
        join(project, '.git'),
        join(project, '.github'),
        join(project, 'real-vscode'),
        join(project, 'vendor', 'lib', '.git'),
        join(project, 'a', 'b', 'c', 'd', 'e', 'f', 'g', '.envrc'),
        join(project, 'node_modules'),
      ]),
    );
    expect(held).not.toContain(join(project, 'src'));
    expect(held).not.toContain(join(project, '.vscode'));
    expect(box.places.workspaceFd).toBe(run.spec.workspace.fd);
    expect(box.places.guarded.every((entry) => typeof entry.fd === 'number')).toBe(true);
  });

  it('holds absent names with placeholders during the run, removes them after if still empty, and never one it did not make', () => {
    const w = world();
    const { project } = w;
    writeFiles(project, { '.envrc': 'mine\n' });
    const first = boxPlaces(input(w));
    const second = boxPlaces(input(w));
    const held = first.places.guarded.map((entry) => entry.path);
    expect(held).toEqual(expect.arrayContaining([join(project, '.git'), join(project, '.npmrc'), join(project, '.cargo'), join(project, '.envrc')]));
    expect(lstatSync(join(project, '.git')).isDirectory()).toBe(true);
    expect(lstatSync(join(project, '.npmrc')).size).toBe(0);
    first.dispose();
    // Another run still holds them.
    expect(existsSync(join(project, '.git'))).toBe(true);
    second.dispose();
    expect(existsSync(join(project, '.git'))).toBe(false);
    expect(existsSync(join(project, '.npmrc'))).toBe(false);
    expect(existsSync(join(project, '.envrc'))).toBe(true);
  });

  it("a hidden link's missing target in the folder is held by a placeholder made through the folder's handle, and removed after", () => {
    const w = world();
    mkdirSync(join(w.project, 'env'));
    symlinkSync('env/local', join(w.project, '.envrc'));
    const box = boxPlaces(input(w));
    expect(box.places.guarded.map((entry) => entry.path)).toContain(join(w.project, 'env', 'local'));
    expect(lstatSync(join(w.project, 'env', 'local')).size).toBe(0);
    box.dispose();
    expect(existsSync(join(w.project, 'env', 'local'))).toBe(false);
  });

  it('writes: [.git] opens .git but keeps its hooks and config read-only, bound after it', () => {
    const w = world();
    writeFiles(w.project, { '.git/config': '', '.git/hooks/pre-commit.sample': '', '.git/HEAD': '' });
    const box = boxPlaces(input(w, { writes: ['.git'] }));
    box.dispose();
    expect(box.places.writable?.map((entry) => entry.path)).toEqual([join(w.project, '.git')]);
    expect(box.places.guardedInside?.map((entry) => entry.path).sort()).toEqual([join(w.project, '.git', 'config'), join(w.project, '.git', 'hooks')]);
    expect(box.places.guarded.map((entry) => entry.path)).not.toContain(join(w.project, '.git'));
  });

  it("a read-only run makes no placeholder; sockets are found in it; a worktree's git folder elsewhere is named, never bound", async () => {
    const w = world();
    const { project, home } = w;
    const main = join(home, 'main-repo', '.git');
    writeFiles(main, { 'worktrees/app/commondir': '../..\n', 'worktrees/app/HEAD': '' });
    writeFileSync(join(project, '.git'), `gitdir: ${join(main, 'worktrees', 'app')}\n`);
    writeFiles(project, { 'sub/.git': `gitdir: ${home}\n`, 'inner/.git': 'gitdir: ../inner-git\n' });
    mkdirSync(join(project, 'run'));
    await socketAt(join(project, 'run', 'dev.sock'));
    const spec = input(w, { name: 'read-only' }).spec;
    expect(spec.gitOutside.sort()).toEqual(['.git', 'sub/.git']);
    const box = boxPlaces(input(w, { name: 'read-only' }));
    box.dispose();
    expect(box.places.guarded).toEqual([]);
    expect(existsSync(join(project, '.envrc'))).toBe(false);
    expect(box.places.sockets).toEqual([join(project, 'run', 'dev.sock')]);
    expect(box.places.binds).toEqual([]);
    expect(box.baseline).toBeNull();
    chmodSync(project, 0o755);
  });

  it('refuses (E513) a writing run whose folder is deeper than it can hold, and reads the mounts below a folder from the kernel table', () => {
    const w = world();
    let deep = w.project;
    for (let i = 0; i < 260; i++) deep = join(deep, 'd');
    mkdirSync(deep, { recursive: true });
    expect(() => boxPlaces(input(w))).toThrow(expect.objectContaining({ code: 'E513', message: expect.stringContaining('more than 256 folders deep') }));
    expect(mountsBelow('/', '/proc/self/mountinfo')).toContain('/proc');
  });
});

describe('the sweep after a writing run', () => {
  it('removes hidden paths the run made or put in place of old ones, keeps what was there (even moved), what it declared and placeholders', () => {
    const w = world();
    const { project } = w;
    writeFiles(project, { 'sub/.git/config': 'original', '.cargo/config.toml': 'original', 'keep/.envrc': 'original' });
    const run = input(w, { writes: ['.tool-cache'] });
    const box = boxPlaces(run);
    // What the tool does inside its box, played on the host: new hidden paths, a moved folder with a new .git in its place.
    renameSync(join(project, 'sub'), join(project, 'sub-moved'));
    writeFiles(project, {
      'sub/.git/config': 'planted',
      'build/cache/.git': 'gitdir: /',
      'x/y/.envrc': 'planted',
      '.tool-cache/state': 'declared',
      'visible.txt': 'ok',
    });
    const baseline = box.baseline;
    expect(baseline).not.toBeNull();
    const swept = sweepWorkspace(run.spec.workspace, baseline as NonNullable<typeof baseline>, ['.tool-cache']);
    box.dispose();
    expect(swept).toEqual(['build/cache/.git', 'sub/.git', 'x/y/.envrc']);
    expect(existsSync(join(project, 'sub-moved', '.git', 'config'))).toBe(true);
    expect(existsSync(join(project, '.tool-cache', 'state'))).toBe(true);
    expect(existsSync(join(project, 'keep', '.envrc'))).toBe(true);
    expect(existsSync(join(project, 'visible.txt'))).toBe(true);
    // The placeholders it held are gone with the run.
    expect(existsSync(join(project, '.git'))).toBe(false);
  });

  it('a read-only scan looks four folders deep for sockets and .git files only', () => {
    const w = world();
    writeFiles(w.project, { 'a/b/c/d/.git': 'gitdir: /x\n', 'a/b/c/d/e/.git': 'gitdir: /y\n' });
    const spec = input(w, { name: 'read-only' }).spec;
    const scan = scanFolder(spec.workspace, { writable: false, writes: [], mounts: [] });
    expect(scan.gitOutside).toEqual(['a/b/c/d/.git']);
    expect(scan.readOnly).toEqual([]);
  });
});
