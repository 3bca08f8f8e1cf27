/**
 * Skilltray's home is private (issue 38): state.db holds every run's output and the token opens the
 * API, so another local account must read nothing of it. A home made before the rule (0755, state.db
 * 0644, as another account read it) is narrowed by the next command that opens it; a new one is made
 * private, SQLite's -wal and -shm included. Run through the real CLI as an ordinary user (nobody, when
 * the tests are root), and attacked as yet another account.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliAsOrdinaryUser, openTo, ordinaryUser } from '../../support/ordinary-user.js';
import { testHome } from '../../support/temp.js';

/** Another local account, who must read nothing of the home (root reads anything, so only when the tests are root). */
const OTHER = { uid: 65533, gid: 65533 };

const mode = (path: string): number => statSync(path).mode & 0o7777;

/** Every path under `dir`, `dir` included. */
function everything(dir: string): string[] {
  return [dir, ...readdirSync(dir, { recursive: true }).map((rel) => join(dir, String(rel)))];
}

/** Whether the other account can read `path` (cat a file, list a folder). */
function otherCanRead(path: string): boolean {
  const [program, arg] = statSync(path).isDirectory() ? ['ls', path] : ['cat', path];
  try {
    execFileSync('setpriv', [`--reuid=${OTHER.uid}`, `--regid=${OTHER.gid}`, '--clear-groups', '--', program as string, arg as string], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

/** Hands the test's folders to the ordinary user who runs the CLI. */
function giveAway(t: ReturnType<typeof testHome>): void {
  openTo(join(t.home, '..'), [t.userHome]);
  const user = ordinaryUser();
  if (user === null) return;
  for (const path of everything(t.home)) chownSync(path, user.uid, user.gid);
}

describe("Skilltray's home is private", () => {
  it('narrows a home made open (0755, state.db 0644): no other account reads a run record, the token or anything else', async () => {
    const t = testHome();
    giveAway(t);
    // An old home, as an earlier Skilltray left it: the CLI makes state.db and its WAL, the rest is written here.
    expect((await cliAsOrdinaryUser(['history', '--json'], t.env)).code).toBe(0);
    mkdirSync(join(t.home, 'runtime', 'demo'), { recursive: true });
    writeFileSync(join(t.home, 'token'), 'secret-token\n');
    writeFileSync(join(t.home, 'runtime', 'demo', 'index.db'), 'records');
    writeFileSync(join(t.home, 'runtime', 'demo', 'tool.sh'), '#!/bin/sh\n');
    for (const path of everything(t.home)) chmodSync(path, statSync(path).isDirectory() || path.endsWith('.sh') ? 0o755 : 0o644);
    giveAway(t);
    if (ordinaryUser() !== null) expect(otherCanRead(join(t.home, 'state.db'))).toBe(true);

    const listed = await cliAsOrdinaryUser(['history', '--json'], t.env);
    expect(listed.code, listed.stderr).toBe(0);
    for (const path of everything(t.home)) {
      const stats = statSync(path);
      expect(stats.mode & 0o077, path).toBe(0);
      if (stats.isDirectory()) expect(mode(path), path).toBe(0o700);
    }
    expect(mode(join(t.home, 'state.db'))).toBe(0o600);
    expect(mode(join(t.home, 'token'))).toBe(0o600);
    // A program keeps its owner's execute bit.
    expect(mode(join(t.home, 'runtime', 'demo', 'tool.sh'))).toBe(0o700);
    if (ordinaryUser() !== null) {
      for (const path of [t.home, join(t.home, 'state.db'), join(t.home, 'token'), join(t.home, 'runtime', 'demo', 'index.db')])
        expect(otherCanRead(path), path).toBe(false);
    }
  });

  it('makes a new home private, state.db and its -wal and -shm included', async () => {
    const t = testHome();
    const home = join(t.home, 'fresh');
    giveAway(t);
    const env = { ...t.env, SKILLTRAY_HOME: home };
    const result = await cliAsOrdinaryUser(['history', '--json'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(mode(home)).toBe(0o700);
    for (const file of ['state.db', 'state.db-wal', 'state.db-shm'].filter((name) => existsSync(join(home, name))))
      expect(mode(join(home, file)), file).toBe(0o600);
    expect(existsSync(join(home, 'state.db'))).toBe(true);
    if (ordinaryUser() !== null) expect(otherCanRead(join(home, 'state.db'))).toBe(false);
  });

  if (ordinaryUser() === null) it.skip('skipped: another account reads it only when the tests run as root, who can act as anyone', () => undefined);
});
