/**
 * Issue #38's invariants, over generated workspaces rather than known cases: folders with links to
 * the home, to secret files, to Skilltray's token and to /; `.git` files naming any of them with
 * `gitdir:`; `.git` folders whose core.worktree is one of them; `..` in names and `..` and `//` in
 * the paths tools are handed; as root, an alias of the home bind-mounted inside. Every bundled
 * read-only tool, a probe that cats and lists what it is pointed at, and a writing probe run in each,
 * as root and as an ordinary user. Whatever the workspace: no byte of a marker kept outside it
 * appears in any output, and nothing outside it changes.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { asRootAndUser, drive, plant, type Actor, type DriverRequest } from './actors.js';
import { treeDigest } from './tree-digest.js';

const LONG = { timeout: 600_000 };

/** Workspaces per actor: each is ~30 runs through the core, so the file stays within a few minutes on two busy cores. */
const WORKSPACES = 10;

/** Where a generated link, .git file or core.worktree points, outside the workspace. */
type Target = 'home' | 'ssh' | 'key' | 'token' | 'root' | 'outside' | 'up';

/** One thing in a generated workspace, at `dir` (segments below its top). */
type Entry =
  | { kind: 'file'; dir: string[]; name: string }
  | { kind: 'link'; dir: string[]; name: string; to: Target }
  | { kind: 'gitfile'; dir: string[]; to: Target }
  | { kind: 'gitdir'; dir: string[]; worktree: Target }
  | { kind: 'alias'; dir: string[] };

const segment = fc.constantFrom('a', 'b', 'a..b', '.hidden', 'sub', 'x y', '.git', 'deep');
const dir = fc.array(segment, { maxLength: 5 });
const name = fc.constantFrom('f.txt', '.envrc', 'n..m', 'link', '.git', 'data');
const target = fc.constantFrom<Target>('home', 'ssh', 'key', 'token', 'root', 'outside', 'up');
const entry: fc.Arbitrary<Entry> = fc.oneof(
  fc.record({ kind: fc.constant('file' as const), dir, name }),
  fc.record({ kind: fc.constant('link' as const), dir, name, to: target }),
  fc.record({ kind: fc.constant('gitfile' as const), dir, to: target }),
  fc.record({ kind: fc.constant('gitdir' as const), dir, worktree: target }),
  fc.record({ kind: fc.constant('alias' as const), dir }),
);
/** Paths handed to the tools: a generated entry's folder, with `..` and `//` mixed in. */
const twist = fc.constantFrom('', '/..', '//..//..', '/../../..', '//', '/./.git');

/** The world outside the workspace: a fake home full of markers (HOME for the runs), a sibling folder, and Skilltray's token. */
interface World {
  base: string;
  home: string;
  workspace: string;
  targets: Record<Target, string>;
  markers: string[];
}

function world(actor: Actor): World {
  const base = mkdtempSync(join(tmpdir(), 'skilltray-prop-'));
  const home = join(base, 'home');
  const markers = ['marker-home-note', 'marker-ssh-key', 'marker-aws', 'marker-outside', 'marker-docs', 'decoy-skilltray-api-token'];
  plant(
    actor,
    {
      'home/notes.txt': 'marker-home-note\n',
      'home/.ssh/id_ed25519': 'marker-ssh-key\n',
      'home/.aws/credentials': 'marker-aws\n',
      'home/Documents/doc.txt': 'marker-docs\n',
      'home/projects/.keep': '',
      'outside/secret.txt': 'marker-outside\n',
    },
    base,
  );
  const targets: Record<Target, string> = {
    home,
    ssh: join(home, '.ssh'),
    key: join(home, '.ssh', 'id_ed25519'),
    token: join(actor.skilltrayHome, 'token'),
    root: '/',
    outside: join(base, 'outside', 'secret.txt'),
    up: '../../../..',
  };
  return { base, home, workspace: join(home, 'projects', 'ws'), targets, markers };
}

/** Lays the entries out in the workspace (as root, then the actor's); returns the aliases mounted, to unmount. */
function build(actor: Actor, w: World, entries: readonly Entry[]): string[] {
  mkdirSync(w.workspace, { recursive: true });
  writeFileSync(join(w.workspace, 'readme.txt'), 'workspace\n');
  const aliasAt: string[] = [];
  for (const e of entries) {
    const folder = join(w.workspace, ...e.dir);
    try {
      mkdirSync(folder, { recursive: true });
      if (e.kind === 'file') writeFileSync(join(folder, e.name), 'workspace-file\n', { flag: 'wx' });
      else if (e.kind === 'link') symlinkSync(w.targets[e.to], join(folder, e.name));
      else if (e.kind === 'gitfile') writeFileSync(join(folder, '.git'), `gitdir: ${w.targets[e.to]}\n`, { flag: 'wx' });
      else if (e.kind === 'gitdir') {
        const git = join(folder, '.git');
        for (const sub of ['objects', 'refs/heads']) mkdirSync(join(git, sub), { recursive: true });
        writeFileSync(join(git, 'HEAD'), 'ref: refs/heads/main\n');
        writeFileSync(join(git, 'config'), `[core]\n\trepositoryformatversion = 0\n\tworktree = ${w.targets[e.worktree]}\n`);
      } else if (process.getuid?.() === 0 && aliasAt.length === 0) {
        mkdirSync(join(folder, 'alias'));
        aliasAt.push(join(folder, 'alias'));
      }
    } catch {
      // A generated entry that collides with another (a file where a folder must go): the workspace simply lacks it.
    }
  }
  // Owned by the actor before the home is mounted inside itself (chown would walk the loop).
  plant(actor, {}, w.base);
  const mounted: string[] = [];
  for (const alias of aliasAt) {
    execFileSync('mount', ['--bind', w.home, alias]);
    mounted.push(alias);
  }
  return mounted;
}

/** Where an entry is, from the top of the workspace. */
const pathOf = (e: Entry): string => `${['.', ...e.dir].join('/')}${'name' in e ? `/${e.name}` : e.kind === 'alias' ? '/alias' : ''}`;

/** The probes pointed at `probed` (every entry, and the twisted paths), and every bundled read-only tool at each of `paths`. */
function requests(w: World, paths: readonly string[], probed: readonly string[]): DriverRequest[] {
  const cwd = w.workspace;
  const quoted = probed.map((path) => `'${path.replaceAll("'", "'\\''")}'`).join(' ');
  const absolute = [...Object.values(w.targets).filter((path) => path.startsWith('/')), join(w.home, 'notes.txt')].map((path) => `'${path}'`).join(' ');
  const list: DriverRequest[] = [
    {
      skill: 'probe-ro',
      tool: 'sh',
      args: { script: `for p in ${quoted} ${absolute}; do ls -la -- "$p"; cat -- "$p" "$p"/* "$p"/.*/*; done 2>&1 | head -c 200000; true` },
      cwd,
    },
    { skill: 'probe-ws', tool: 'sh', args: { script: `for p in ${quoted} ${absolute}; do echo pwned >> "$p"; echo pwned > "$p/pwned"; done 2>&1; true` }, cwd },
    { skill: 'system', tool: 'system_uptime', args: {}, cwd },
    { skill: 'system', tool: 'memory_usage', args: {}, cwd },
    { skill: 'system', tool: 'list_processes', args: {}, cwd },
    { skill: 'system', tool: 'disk_usage', args: {}, cwd },
  ];
  for (const path of paths) {
    list.push(
      { skill: 'files', tool: 'list_directory', args: { path }, cwd },
      { skill: 'files', tool: 'file_head', args: { path }, cwd },
      { skill: 'files', tool: 'find_files', args: { dir: path, pattern: '*' }, cwd },
      { skill: 'files', tool: 'word_count', args: { path }, cwd },
      { skill: 'artifact-checksum', tool: 'checksum_artifact', args: { path }, cwd },
      { skill: 'git', tool: 'git_status', args: { repo: path }, cwd },
      { skill: 'git', tool: 'git_diff', args: { repo: path }, cwd },
      { skill: 'git', tool: 'git_log', args: { repo: path }, cwd },
      { skill: 'git', tool: 'git_show', args: { repo: path }, cwd },
    );
  }
  return list;
}

asRootAndUser((actor) => {
  it('in any generated workspace, no marker kept outside it reaches an output, and nothing outside it changes', LONG, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(entry, { minLength: 1, maxLength: 8 }),
        fc.array(fc.tuple(fc.nat(), twist), { minLength: 1, maxLength: 3 }),
        async (entries, picks) => {
          const w = world(actor);
          const aliases: string[] = [];
          try {
            aliases.push(...build(actor, w, entries));
            const before = {
              home: treeDigest(w.home, ['projects']),
              outside: treeDigest(join(w.base, 'outside')),
              token: readFileSync(w.targets.token, 'utf8'),
            };
            const paths = picks.map(([n, tail]) => `${pathOf(entries[n % entries.length] as Entry)}${tail}`);
            const env = { ...actor.env, HOME: w.home };
            for (const outcome of await drive(actor, env, requests(w, paths, [...new Set([...entries.map(pathOf), ...paths])]), 2)) {
              const text = `${outcome.stdout ?? ''}${outcome.stderr ?? ''}${outcome.message ?? ''}`;
              for (const marker of w.markers) expect(text, JSON.stringify({ entries, paths, outcome })).not.toContain(marker);
            }
            for (const alias of aliases) execFileSync('umount', [alias]);
            aliases.length = 0;
            expect(treeDigest(w.home, ['projects'])).toBe(before.home);
            expect(treeDigest(join(w.base, 'outside'))).toBe(before.outside);
            expect(readFileSync(w.targets.token, 'utf8')).toBe(before.token);
          } finally {
            for (const alias of aliases) execFileSync('umount', [alias]);
            rmSync(w.base, { recursive: true, force: true });
          }
        },
      ),
      // A failure stops at the first workspace that breaks an invariant (printed whole): shrinking would rerun dozens of workspaces.
      { numRuns: WORKSPACES, endOnFailure: true },
    );
  });
});
