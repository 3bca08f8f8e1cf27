/**
 * Fetching a pack from git and checking its signature, through the `git` program (execa, an argv,
 * never a shell). Only https, ssh (`git@host:path`, `ssh://`) and file transports are allowed, so
 * a source can never name `ext::` or another transport that runs commands. Nothing is checked
 * out: the clone is bare, the commit's tree is listed and counted first (`ls-tree -r -l`, so a
 * bomb of 100,000 paths is refused having written only its objects), and its blobs are read with
 * `cat-file --batch` into the one extraction (extraction.ts).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { execa } from 'execa';
import type { SkilltrayError } from '../../shared/skilltray-error.js';
import { packErrors } from '../../shared/error-messages/packs.js';
import type { PackSignature } from '../../shared/packs.js';
import type { EntryBudget } from './entry-budget.js';
import type { EntryWalk } from './extraction.js';
import { finding, MAX_TARGET_BYTES } from './findings.js';
import { gnupgHome, trustedKeysPath } from './layout.js';

/** The environment git runs with: no prompts (a missing credential fails instead of hanging), safe transports only. */
function gitEnv(env: NodeJS.ProcessEnv, home: string): NodeJS.ProcessEnv {
  return { ...env, GIT_TERMINAL_PROMPT: '0', GIT_ALLOW_PROTOCOL: 'file:https:ssh', GNUPGHOME: gnupgHome(home), LC_ALL: 'C' };
}

/** Config every git call gets: signatures are checked against Skilltray's own trusted keys, never the user's. */
function gitConfig(home: string): string[] {
  return [
    '-c',
    `gpg.ssh.allowedSignersFile=${trustedKeysPath(home)}`,
    '-c',
    'core.hooksPath=/dev/null',
    '-c',
    'protocol.allow=never',
    '-c',
    'protocol.file.allow=always',
    '-c',
    'protocol.https.allow=always',
    '-c',
    'protocol.ssh.allow=always',
  ];
}

type GitContext = { cwd?: string; env: NodeJS.ProcessEnv; home: string };

function gitOptions(options: GitContext) {
  return {
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    env: gitEnv(options.env, options.home),
    extendEnv: false,
    reject: false,
    timeout: 10 * 60 * 1000,
  } as const;
}

async function git(args: string[], options: GitContext) {
  return execa('git', [...gitConfig(options.home), ...args], { ...gitOptions(options), stdin: 'ignore' });
}

const firstLine = (text: string): string =>
  text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '') ?? '';

function fetchFailed(source: string, what: string, stderr: string): SkilltrayError {
  return packErrors.fetchFailed(
    source,
    `${what}${stderr.trim() === '' ? '' : ` (${firstLine(stderr.replace(/^(fatal|error): /gm, ''))})`}`,
    stderr.slice(0, 2000),
  );
}

/** A ref that can only be a commit id, which a shallow clone by branch name cannot reach. */
const looksLikeCommit = (ref: string): boolean => /^[0-9a-f]{7,40}$/i.test(ref);

/** Clones `url` bare into `dir` (objects only, nothing checked out) and returns the commit `ref` names (the default branch's when null). */
export async function cloneAt(url: string, ref: string | null, dir: string, ctx: { env: NodeJS.ProcessEnv; home: string }): Promise<string> {
  if (ref !== null && ref.startsWith('-')) throw packErrors.refInvalid(ref);
  let cloned = false;
  if (ref === null || !looksLikeCommit(ref)) {
    const shallow = await git(['clone', '--quiet', '--bare', '--depth', '1', '--no-tags', ...(ref === null ? [] : ['--branch', ref]), '--', url, dir], ctx);
    cloned = shallow.exitCode === 0;
    // A shallow clone by branch name cannot reach every ref; anything else is a real failure.
    if (!cloned && ref === null) throw fetchFailed(url, 'git clone failed', shallow.stderr);
  }
  // After a shallow clone HEAD is the branch or tag asked for; a full clone still has to find it.
  const wanted = cloned ? 'HEAD' : ref;
  if (!cloned) {
    const full = await git(['clone', '--quiet', '--bare', '--', url, dir], ctx);
    if (full.exitCode !== 0) throw fetchFailed(url, 'git clone failed', full.stderr);
  }
  const head = await git(['rev-parse', '--verify', '--end-of-options', `${wanted}^{commit}`], { ...ctx, cwd: dir });
  if (head.exitCode !== 0) throw fetchFailed(url, cloned ? 'the clone has no commit' : `no commit, branch or tag '${ref}'`, head.stderr);
  return head.stdout.trim();
}

/** One blob of a commit's tree, as `git ls-tree -r -l -z` lists it. */
export interface TreeItem {
  path: string;
  /** `100644`, `100755` or `120000` (a symlink); submodules are left out. */
  mode: string;
  object: string;
  size: number;
}

const LS_TREE_LINE = /^(\d+) (\w+) ([0-9a-f]+) +(-|\d+)\t([\s\S]*)$/;

/**
 * The blobs of `commit`'s tree, counted against `budget` as git lists them (links and the folders
 * their paths imply included): the listing stops (and git is stopped) at the first limit passed, so
 * a tree of 100,000 paths costs 10,001 lines.
 */
export async function listCommit(dir: string, commit: string, ctx: { env: NodeJS.ProcessEnv; home: string }, budget: EntryBudget): Promise<TreeItem[]> {
  const lister = execa('git', [...gitConfig(ctx.home), 'ls-tree', '-r', '-l', '-z', commit], {
    ...gitOptions({ ...ctx, cwd: dir }),
    stdin: 'ignore',
    buffer: { stdout: false },
    encoding: 'buffer',
  });
  const items: TreeItem[] = [];
  // Decoded across chunks: a character split by a 64 KiB read must not become U+FFFD.
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let stopped = false;
  const take = (record: string): boolean => {
    const match = LS_TREE_LINE.exec(record);
    if (match === null) throw packErrors.gitReadFailed(`git ls-tree printed an unexpected line: ${record.slice(0, 200)}`);
    const [, mode = '', type, object = '', size, path = ''] = match;
    if (type !== 'blob') return true; // a submodule: a clone without --recursive leaves it empty too
    const rel = budget.path(path);
    if (rel === null) return !budget.exceeded;
    const bytes = Number(size);
    const link = mode === '120000';
    if (!budget.entry(rel, link ? 'symlink' : 'file')) return false;
    // A link's blob is read whole into memory: its size is held to a target's before it is read.
    if (link && bytes > MAX_TARGET_BYTES) {
      budget.findings.push(finding('S313', rel, `symlink ${rel} has no usable target (its ${bytes} bytes are over ${MAX_TARGET_BYTES})`));
      return false;
    }
    if (!link && !budget.file(rel, bytes)) return false;
    items.push({ path, mode, object, size: bytes });
    return true;
  };
  try {
    for await (const chunk of lister.stdout as AsyncIterable<Buffer>) {
      const records = (rest + decoder.write(chunk)).split('\0');
      rest = records.pop() ?? '';
      if (!records.every(take)) {
        stopped = true;
        break;
      }
    }
  } finally {
    if (stopped) lister.kill();
  }
  const done = await lister;
  if (!stopped && done.exitCode !== 0)
    throw packErrors.gitReadFailed(`cannot list commit ${commit}: git ls-tree failed (${firstLine(Buffer.from(done.stderr as Uint8Array).toString('utf8'))})`);
  return items;
}

/** Reads the blobs `git cat-file --batch` prints one after another: a header line, the bytes, a newline. */
async function* batchBlobs(stdout: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const input = stdout[Symbol.asyncIterator]();
  let pending: Buffer = Buffer.alloc(0);
  const more = async (): Promise<boolean> => {
    const next = await input.next();
    if (next.done === true) return false;
    pending = pending.length === 0 ? next.value : Buffer.concat([pending, next.value]);
    return true;
  };
  for (;;) {
    let newline = pending.indexOf(10);
    while (newline === -1) {
      if (!(await more())) return;
      newline = pending.indexOf(10);
    }
    const header = pending.subarray(0, newline).toString('utf8');
    pending = pending.subarray(newline + 1);
    const size = /^[0-9a-f]+ blob (\d+)$/.exec(header)?.[1];
    if (size === undefined) throw packErrors.gitReadFailed(`git cat-file cannot read a blob: ${header}`);
    const length = Number(size);
    const chunks: Buffer[] = [pending];
    let have = pending.length;
    while (have < length + 1) {
      const next = await input.next();
      if (next.done === true) throw packErrors.gitReadFailed('git cat-file stopped in the middle of a blob');
      chunks.push(next.value);
      have += next.value.length;
    }
    pending = Buffer.concat(chunks, have);
    yield pending.subarray(0, length);
    pending = pending.subarray(length + 1);
  }
}

/** The blobs `items` lists, read from the bare clone at `dir`, as entries for the extraction to write. */
export function commitEntries(dir: string, items: readonly TreeItem[], ctx: { env: NodeJS.ProcessEnv; home: string }): EntryWalk {
  return async (visit) => {
    const reader = execa('git', [...gitConfig(ctx.home), 'cat-file', '--batch'], {
      ...gitOptions({ ...ctx, cwd: dir }),
      input: items.map((i) => `${i.object}\n`).join(''),
      stderr: 'ignore',
      buffer: false,
      encoding: 'buffer',
    });
    const blobs = batchBlobs(reader.stdout as AsyncIterable<Buffer>);
    try {
      for (const item of items) {
        const next = await blobs.next();
        if (next.done === true) throw packErrors.gitReadFailed(`git cat-file ended before ${item.path}`);
        const data = next.value;
        const link = item.mode === '120000';
        if (
          !(await visit({
            raw: item.path,
            type: link ? 'symlink' : 'file',
            mode: item.mode === '100755' ? 0o755 : 0o644,
            size: data.length,
            open: async () => Readable.from([data]),
          }))
        )
          break;
      }
    } finally {
      // Whether every blob was read or the extraction stopped early, cat-file has nothing more to say.
      // Its unread output is dropped too: execa waits for the stream to end, which an output paused
      // mid-read (the extraction refused an entry) never does, and the scan would hang.
      reader.kill();
      reader.stdout?.destroy();
      await reader;
    }
  };
}

/** Whether `ref` names an annotated tag in the clone at `dir`. */
async function isAnnotatedTag(dir: string, ref: string, ctx: { env: NodeJS.ProcessEnv; home: string }): Promise<boolean> {
  const type = await git(['cat-file', '-t', `refs/tags/${ref}`], { ...ctx, cwd: dir });
  return type.exitCode === 0 && type.stdout.trim() === 'tag';
}

/** The signature block of a commit or tag object, if it has one. */
async function signatureFormat(
  dir: string,
  object: string,
  type: 'commit' | 'tag',
  ctx: { env: NodeJS.ProcessEnv; home: string },
): Promise<'ssh' | 'gpg' | null> {
  const raw = await git(['cat-file', type, object], { ...ctx, cwd: dir });
  if (raw.exitCode !== 0) return null;
  if (raw.stdout.includes('-----BEGIN SSH SIGNATURE-----')) return 'ssh';
  if (raw.stdout.includes('-----BEGIN PGP SIGNATURE-----')) return 'gpg';
  return null;
}

/** Who git says signed it: an SSH principal, a GPG user id, else the key. */
function signerOf(output: string): { signer: string | null; key: string | null } {
  const principal = /Good "git" signature for (\S+) with/.exec(output)?.[1] ?? null;
  const gpgUser = /Good signature from "([^"]+)"/.exec(output)?.[1] ?? null;
  const key = /with \S+ key (SHA256:\S+)/.exec(output)?.[1] ?? /using \S+ key ([0-9A-F]+)/.exec(output)?.[1] ?? null;
  return { signer: principal ?? gpgUser, key };
}

/**
 * Checks the signature of the tag `ref` (when it is an annotated tag) or else of `commit`, against
 * the keys in `<home>/trusted-keys` (SSH) and `<home>/gnupg` (GPG).
 */
export async function verifySignature(dir: string, ref: string | null, commit: string, ctx: { env: NodeJS.ProcessEnv; home: string }): Promise<PackSignature> {
  const tag = ref !== null && (await isAnnotatedTag(dir, ref, ctx));
  const object = tag ? `refs/tags/${ref}` : commit;
  const format = await signatureFormat(dir, object, tag ? 'tag' : 'commit', ctx);
  if (format === null) return { state: 'unsigned', format: null, signer: null, detail: `the ${tag ? `tag ${ref}` : 'commit'} is not signed` };
  if (format === 'gpg') mkdirSync(gnupgHome(ctx.home), { recursive: true, mode: 0o700 });
  const result = await git(tag ? ['verify-tag', object] : ['verify-commit', object], { ...ctx, cwd: dir });
  const output = `${result.stderr}\n${result.stdout}`;
  const { signer, key } = signerOf(output);
  const what = tag ? `tag ${ref}` : 'commit';
  if (result.exitCode === 0 && signer !== null)
    return { state: 'verified', format, signer, detail: `${what} signed by ${signer}${key === null ? '' : ` (${key})`}` };
  const noKeys = format === 'ssh' && !existsSync(trustedKeysPath(ctx.home));
  return {
    state: 'untrusted',
    format,
    signer: key,
    detail: `${what} signed by a key you have not trusted${key === null ? '' : ` (${key})`}${noKeys ? '; no keys are trusted yet (skilltray trust-key)' : `: ${firstLine(output)}`}`,
  };
}
