/**
 * Pack sources the tests build themselves (no network): skills, local git repositories signed with
 * SSH keys the tests generate, and (from archives.ts) archives written entry by entry.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { skillMd, writeFiles } from './temp.js';

export { tar, tarGz, zip, type ArchiveEntry } from './archives.js';

/** A SKILL.md with one tool `run_it` running `command` (its placeholders declared as optional strings), or none. */
export function toolSkill(name: string, command: string | null, extra: Record<string, unknown> = {}, body = ''): string {
  const params = [...new Set([...(command ?? '').matchAll(/<<(\w+)/g)].map((m) => m[1]))];
  const table =
    params.length === 0
      ? 'None.'
      : `| Name | Type | Required | Description |\n|---|---|---|---|\n${params.map((p) => `| ${p} | string | no | the ${p} |`).join('\n')}`;
  const tool = command === null ? '' : `\n## Tools\n\n### run_it\n\nRuns it.\n\n#### Parameters\n\n${table}\n\n#### Command\n\n\`\`\`\n${command}\n\`\`\`\n`;
  return skillMd({ name, description: `The ${name} skill. Use it for tests.`, version: '1.0.0', ...extra }, `${body}${tool}`);
}

const gitEnv = (home: string): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' });

/** Runs git in `dir` with a clean config (HOME is `home`). */
export async function git(dir: string, home: string, ...args: string[]): Promise<string> {
  const result = await execa('git', args, { cwd: dir, env: gitEnv(home), extendEnv: false });
  return result.stdout.trim();
}

/**
 * A repository in `base`/repo whose one commit holds `entries` (git mode, content, path), written
 * straight into the index: thousands of entries cost no checkout. Its git dir and commit.
 */
export async function repoOfEntries(
  base: string,
  entries: readonly { mode: '100644' | '120000'; content: string; path: string }[],
): Promise<{ gitDir: string; commit: string }> {
  const dir = join(base, 'repo');
  mkdirSync(dir);
  await git(dir, base, 'init', '-q', '-b', 'main');
  const run = async (args: string[], input: string): Promise<string> =>
    (await execa('git', args, { cwd: dir, input, env: gitEnv(base), extendEnv: false })).stdout.trim();
  const blobs = new Map<string, string>();
  for (const { content } of entries) if (!blobs.has(content)) blobs.set(content, await run(['hash-object', '-w', '--stdin'], content));
  await run(['update-index', '--index-info'], entries.map((e) => `${e.mode} ${blobs.get(e.content) as string}\t${e.path}\n`).join(''));
  const tree = await run(['write-tree'], '');
  const commit = await run(['-c', 'user.email=a@example.com', '-c', 'user.name=A', 'commit-tree', tree, '-m', 'entries'], '');
  return { gitDir: join(dir, '.git'), commit };
}

/** An SSH signing key made for the test: its private key path, public key line and email. */
export interface SigningKey {
  path: string;
  publicKey: string;
  email: string;
}

/** Generates an ed25519 key pair (no passphrase) under `dir` with `email` as its comment. */
export async function sshKey(dir: string, email: string): Promise<SigningKey> {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, email.replace(/\W/g, '_'));
  await execa('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', email, '-f', path]);
  return { path, publicKey: readFileSync(`${path}.pub`, 'utf8').trim(), email };
}

/** A git repository at `dir` whose first commit holds `files`; signed with `key` when given. */
export async function gitRepo(dir: string, home: string, files: Record<string, string | Buffer>, key?: SigningKey): Promise<string> {
  mkdirSync(dir, { recursive: true });
  await git(dir, home, 'init', '-q', '-b', 'main');
  await git(dir, home, 'config', 'user.email', key?.email ?? 'author@example.com');
  await git(dir, home, 'config', 'user.name', 'Author');
  if (key !== undefined) {
    await git(dir, home, 'config', 'gpg.format', 'ssh');
    await git(dir, home, 'config', 'user.signingkey', `${key.path}.pub`);
  }
  return commitFiles(dir, home, files, 'first', key !== undefined);
}

/** Writes `files` into the repository and commits them (signed when asked); returns the commit. */
export async function commitFiles(dir: string, home: string, files: Record<string, string | Buffer>, message: string, sign = false): Promise<string> {
  writeFiles(dir, files);
  await git(dir, home, 'add', '-A');
  await git(dir, home, 'commit', '-q', ...(sign ? ['-S'] : []), '-m', message);
  return git(dir, home, 'rev-parse', 'HEAD');
}
