/**
 * Pack sources the tests build themselves (no network): skills, local git repositories (signed with
 * SSH keys the tests generate), and archives written entry by entry — so hostile ones (paths that
 * climb out, setuid bits, symlinks, 100,000 entries) can be made exactly.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync, crc32 } from 'node:zlib';
import { execa } from 'execa';
import { Header } from 'tar';
import { skillMd, writeFiles } from './temp.js';

/** A SKILL.md with one tool `run_it` running `command` (its placeholders declared as optional strings), or none. */
export function toolSkill(name: string, command: string | null, extra: Record<string, unknown> = {}, body = ''): string {
  const params = [...new Set([...(command ?? '').matchAll(/<<(\w+)/g)].map((m) => m[1]))];
  const table = params.length === 0 ? 'None.' : `| Name | Type | Required | Description |\n|---|---|---|---|\n${params.map((p) => `| ${p} | string | no | the ${p} |`).join('\n')}`;
  const tool = command === null ? '' : `\n## Tools\n\n### run_it\n\nRuns it.\n\n#### Parameters\n\n${table}\n\n#### Command\n\n\`\`\`\n${command}\n\`\`\`\n`;
  return skillMd({ name, description: `The ${name} skill. Use it for tests.`, version: '1.0.0', ...extra }, `${body}${tool}`);
}

const gitEnv = (home: string): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' });

/** Runs git in `dir` with a clean config (HOME is `home`). */
export async function git(dir: string, home: string, ...args: string[]): Promise<string> {
  const result = await execa('git', args, { cwd: dir, env: gitEnv(home), extendEnv: false });
  return result.stdout.trim();
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

/** One archive entry as written: a file (default), a folder, or a symlink to `target`; `mode` as given (setuid included). */
export interface ArchiveEntry {
  name: string;
  data?: string | Buffer;
  mode?: number;
  type?: 'file' | 'directory' | 'symlink' | 'fifo';
  target?: string;
}

/** A .tar.gz written header by header with node-tar's Header (no path sanitising: hostile names stay). */
export function tarGz(path: string, entries: Iterable<ArchiveEntry>): string {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const data = Buffer.from(entry.data ?? '');
    const type = entry.type ?? 'file';
    const header = new Header({
      path: entry.name,
      mode: entry.mode ?? (type === 'directory' ? 0o755 : 0o644),
      size: type === 'file' ? data.length : 0,
      type: type === 'file' ? 'File' : type === 'directory' ? 'Directory' : type === 'symlink' ? 'SymbolicLink' : 'FIFO',
      ...(entry.target === undefined ? {} : { linkpath: entry.target }),
      mtime: new Date(0),
      uid: 0,
      gid: 0,
    });
    const block = Buffer.alloc(512);
    header.encode(block, 0);
    blocks.push(block);
    if (type === 'file' && data.length > 0) blocks.push(data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  writeFileSync(path, gzipSync(Buffer.concat(blocks)));
  return path;
}

/** A .zip (stored, not deflated) written entry by entry, with Unix modes in the external attributes. */
export function zip(path: string, entries: readonly ArchiveEntry[]): string {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const type = entry.type ?? 'file';
    const name = Buffer.from(type === 'directory' && !entry.name.endsWith('/') ? `${entry.name}/` : entry.name);
    const data = type === 'symlink' ? Buffer.from(entry.target ?? '') : Buffer.from(entry.data ?? '');
    const kind = type === 'directory' ? 0o040000 : type === 'symlink' ? 0o120000 : 0o100000;
    const mode = kind | (entry.mode ?? (type === 'directory' ? 0o755 : 0o644));
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE((mode << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  writeFileSync(path, Buffer.concat([...locals, directory, end]));
  return path;
}
