/**
 * Issue #38's workspace places: only `/var` itself was refused, so bundled tools read root-only files
 * under /var unasked, and a bind-mounted alias of the home (or of Skilltray's home) was not known for
 * what it is. A run's folder is now an allow-list: inside the home (not the home, nor a hidden folder
 * of it), inside a shared temporary folder, on a data or removable mount, or under a top-level folder
 * the system does not own; never in the system's own trees, another user's home, Skilltray's home;
 * compared by device and inode. Attacked through the real command line, as root and as an ordinary
 * user; the aliases as root, who can make them (and removes them).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { reachableDir } from '../../../support/reachable.js';
import { asRootAndUser, attack, plant, resultOf, type Actor } from './actors.js';

const LONG = { timeout: 180_000 };
const CHECKOUT = join(import.meta.dirname, '..', '..', '..', '..');

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

/** A fresh folder where `parent` is, owned by the actor, removed after the test. */
function folderIn(actor: Actor, parent: string): string {
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, 'skilltray-place-'));
  execFileSync('chown', [`${actor.uid}:${actor.gid}`, dir]);
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** `target` bind-mounted at a fresh folder under the checkout's test-results (a top-level folder the system does not own). */
function bindAlias(target: string): string {
  // Where the ordinary user reaches it too, wherever the checkout lives.
  const alias = reachableDir('alias-');
  execFileSync('mount', ['--bind', target, alias]);
  cleanups.push(() => {
    execFileSync('umount', [alias]);
    rmdirSync(alias);
  });
  return alias;
}

/** The refusal of a run in `cwd`: E511 with why, or E510 for a folder the actor cannot even open; nothing of it shown. */
async function refusedIn(actor: Actor, cwd: string, skill = 'files', tool = 'list_directory', args: Record<string, unknown> = {}): Promise<string> {
  const { outcome } = await attack(actor, skill, tool, args, cwd);
  expect(outcome.code, cwd).toBe(1);
  const error = (JSON.parse(outcome.stdout) as { error: { code: string; message: string } }).error;
  expect(error.code, `${cwd}: ${error.message}`).toMatch(/^E51[01]$/);
  expect(outcome.stdout, cwd).not.toContain('decoy-');
  return error.code === 'E510' ? 'could not be opened' : error.message;
}

/** A user's home as passwd has it, or null. */
function passwdHome(name: string): string | null {
  try {
    return execFileSync('getent', ['passwd', name], { encoding: 'utf8' }).trim().split(':')[5] ?? null;
  } catch {
    return null;
  }
}

asRootAndUser((actor) => {
  it(
    "the home itself, a hidden folder of it, the system's trees, /var/lib and another user's home are refused, for a bundled read-only tool too",
    LONG,
    async () => {
      plant(actor, { '.ssh/id_ed25519': 'decoy-ssh', '.config/tool/token': 'decoy-config-token', 'notes.txt': 'decoy-notes' });
      expect(await refusedIn(actor, actor.home)).toContain('your home folder');
      expect(await refusedIn(actor, actor.home, 'probe-ws', 'sh', { script: 'echo pwned > planted.txt' })).toContain('your home folder');
      expect(await refusedIn(actor, join(actor.home, '.config'))).toContain('hidden folder of your home');
      expect(await refusedIn(actor, join(actor.home, '.config', 'tool'))).toContain('hidden folder of your home');
      expect(existsSync(join(actor.home, 'planted.txt'))).toBe(false);
      for (const system of ['/var/lib', '/var/log', '/usr/share', '/etc/ssl', '/boot', '/srv', '/opt', '/proc/self', '/sys/kernel', '/run', '/dev/shm']) {
        if (existsSync(system)) expect(await refusedIn(actor, system)).toMatch(/system|kernel|temporary|could not be opened/);
      }
      // Another person's home: for root the ordinary user's (made by the suite), for the user root's own.
      const other = actor.name === 'root' ? passwdHome(`skt${process.pid}`) : '/root';
      if (other !== null) {
        const inside = join(other, actor.name === 'root' ? 'proj' : '');
        expect(await refusedIn(actor, inside)).toMatch(/another user|could not be opened/);
      }
    },
  );

  it('a folder inside the home, inside a shared temporary folder, under a top-level folder of its own, and on a data mount works', LONG, async () => {
    const places = [join(actor.project, 'inside-home'), folderIn(actor, tmpdir())];
    mkdirSync(places[0] as string, { recursive: true });
    plant(actor, {}, actor.project);
    if (actor.name === 'root') places.push(folderIn(actor, join(CHECKOUT, 'test-results')), folderIn(actor, '/mnt'));
    for (const cwd of places) {
      plant(actor, { 'here.txt': 'present\n' }, cwd);
      const { report } = await attack(actor, 'files', 'file_head', { path: 'here.txt' }, cwd);
      expect(resultOf(report).stdout, cwd).toBe('present\n');
    }
  });

  it("a bind-mounted alias of the home or of Skilltray's home is known for what it is", LONG, async () => {
    if (process.getuid?.() !== 0) return; // only root can make a bind mount; the ordinary user's half has none to attack
    plant(actor, { '.ssh/id_ed25519': 'decoy-ssh', 'notes.txt': 'decoy-notes', 'proj/inside.txt': 'inside\n' });
    const home = bindAlias(actor.home);
    expect(await refusedIn(actor, home)).toContain('your home folder');
    expect(await refusedIn(actor, join(home, '.ssh'))).toContain('hidden folder of your home');
    expect(await refusedIn(actor, bindAlias(actor.skilltrayHome))).toContain("Skilltray's own data");
    // A project reached through the alias is a folder inside the home: it works, and sees only itself.
    const { report } = await attack(
      actor,
      'probe-ro',
      'sh',
      { script: 'cat inside.txt; cat ../notes.txt ../.ssh/id_ed25519 2>&1; echo end' },
      join(home, 'proj'),
    );
    expect(resultOf(report).stdout).toContain('inside\n');
    expect(resultOf(report).stdout).not.toContain('decoy-');
  });
});
