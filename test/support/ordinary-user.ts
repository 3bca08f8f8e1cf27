/**
 * Running the CLI as a person without special rights, to meet file permissions as people do:
 * root reads every file whatever its mode, so when the tests run as root the CLI runs as `nobody`
 * (its folders opened up to it); otherwise as the user the tests run as, whom mode 000 already stops.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import type { CliOutcome } from './cli.js';

/** The uid and gid of `nobody` when the tests run as root; null when they already run as an ordinary user. */
export function ordinaryUser(): { uid: number; gid: number } | null {
  return process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : null;
}

/**
 * Lets the ordinary user use `base` (a test's temp folder, made 0700 by root): it may traverse and
 * read it, and `writable` folders in it (the home) are its own.
 */
export function openTo(base: string, writable: readonly string[]): void {
  const user = ordinaryUser();
  if (user === null) return;
  chmodSync(base, 0o755);
  for (const dir of writable) chownSync(dir, user.uid, user.gid);
}

/** The built CLI run as the ordinary user from its HOME (where fallback access logs may go), output as text. */
export async function cliAsOrdinaryUser(argv: string[], env: NodeJS.ProcessEnv): Promise<CliOutcome> {
  const user = ordinaryUser();
  const result = await execa(process.execPath, [join(import.meta.dirname, '..', '..', 'bin', 'skilltray.js'), ...argv], {
    env,
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    ...(env.HOME === undefined ? {} : { cwd: env.HOME }),
    ...(user === null ? {} : { uid: user.uid, gid: user.gid }),
  });
  return { code: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}

/** A user's uid, gid and home as passwd has them; null when there is no such user. */
function passwdEntry(name: string): { uid: number; gid: number; home: string } | null {
  try {
    const entry = execFileSync('getent', ['passwd', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .trim()
      .split(':');
    return { uid: Number(entry[2]), gid: Number(entry[3]), home: entry[5] ?? '' };
  } catch {
    return null;
  }
}

/**
 * The user `name`, made with useradd when absent (the tests run as root): a system user with no home
 * and no login shell, or with `home`, a login user with a home of their own. Another test file may
 * race to make the same user; whoever loses finds it made. Throws when useradd cannot make it.
 */
export function madeUser(name: string, options: { home?: boolean } = {}): { uid: number; gid: number; home: string } {
  const existing = passwdEntry(name);
  if (existing !== null) return existing;
  const flags =
    options.home === true ? ['--create-home', '--user-group', '--shell', '/bin/bash'] : ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin'];
  try {
    execFileSync('useradd', [...flags, name], { stdio: 'pipe' });
  } catch (error) {
    if (passwdEntry(name) === null) throw error;
  }
  const made = passwdEntry(name);
  if (made === null) throw new Error(`useradd made no user '${name}'`);
  return made;
}
