/**
 * Fetching a pack from git and checking its signature, through the `git` program (execa, an argv,
 * never a shell). Only https, ssh (`git@host:path`, `ssh://`) and file transports are allowed, so
 * a source can never name `ext::` or another transport that runs commands.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { execa } from 'execa';
import { SkilltrayError } from '../errors.js';
import type { PackSignature } from '../../shared/packs.js';
import { gnupgHome, trustedKeysPath } from './layout.js';

/** The environment git runs with: no prompts (a missing credential fails instead of hanging), safe transports only. */
function gitEnv(env: NodeJS.ProcessEnv, home: string): NodeJS.ProcessEnv {
  return { ...env, GIT_TERMINAL_PROMPT: '0', GIT_ALLOW_PROTOCOL: 'file:https:ssh', GNUPGHOME: gnupgHome(home), LC_ALL: 'C' };
}

/** Config every git call gets: signatures are checked against Skilltray's own trusted keys, never the user's. */
function gitConfig(home: string): string[] {
  return ['-c', `gpg.ssh.allowedSignersFile=${trustedKeysPath(home)}`, '-c', 'core.hooksPath=/dev/null', '-c', 'protocol.allow=never', '-c', 'protocol.file.allow=always', '-c', 'protocol.https.allow=always', '-c', 'protocol.ssh.allow=always'];
}

async function git(args: string[], options: { cwd?: string; env: NodeJS.ProcessEnv; home: string }) {
  return execa('git', [...gitConfig(options.home), ...args], {
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    env: gitEnv(options.env, options.home),
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    timeout: 10 * 60 * 1000,
  });
}

const firstLine = (text: string): string => text.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? '';

function fetchFailed(source: string, what: string, stderr: string): SkilltrayError {
  return new SkilltrayError('E302', `cannot fetch '${source}': ${what}${stderr.trim() === '' ? '' : ` (${firstLine(stderr.replace(/^(fatal|error): /gm, ''))})`}`, {
    details: { source, stderr: stderr.slice(0, 2000) },
  });
}

/** A ref that can only be a commit id, which a shallow clone by branch name cannot reach. */
const looksLikeCommit = (ref: string): boolean => /^[0-9a-f]{7,40}$/i.test(ref);

/** Clones `url` into `dir` at `ref` (the default branch when null) and returns the resolved commit. */
export async function cloneAt(url: string, ref: string | null, dir: string, ctx: { env: NodeJS.ProcessEnv; home: string }): Promise<string> {
  if (ref !== null && ref.startsWith('-')) throw new SkilltrayError('E301', `--ref '${ref}' is not a ref`, { details: { ref } });
  let cloned = false;
  if (ref === null || !looksLikeCommit(ref)) {
    const shallow = await git(['clone', '--quiet', '--depth', '1', '--no-tags', ...(ref === null ? [] : ['--branch', ref]), '--', url, dir], ctx);
    cloned = shallow.exitCode === 0;
    // A shallow clone by branch name cannot reach every ref; anything else is a real failure.
    if (!cloned && ref === null) throw fetchFailed(url, 'git clone failed', shallow.stderr);
  }
  if (!cloned) {
    const full = await git(['clone', '--quiet', '--no-checkout', '--', url, dir], ctx);
    if (full.exitCode !== 0) throw fetchFailed(url, 'git clone failed', full.stderr);
    const checkout = await git(['checkout', '--quiet', '--detach', `${ref}^{commit}`, '--'], { ...ctx, cwd: dir });
    if (checkout.exitCode !== 0) throw fetchFailed(url, `no commit, branch or tag '${ref}'`, checkout.stderr);
  }
  const head = await git(['rev-parse', 'HEAD'], { ...ctx, cwd: dir });
  if (head.exitCode !== 0) throw fetchFailed(url, 'the clone has no commit', head.stderr);
  return head.stdout.trim();
}

/** Whether `ref` names an annotated tag in the clone at `dir`. */
async function isAnnotatedTag(dir: string, ref: string, ctx: { env: NodeJS.ProcessEnv; home: string }): Promise<boolean> {
  const type = await git(['cat-file', '-t', `refs/tags/${ref}`], { ...ctx, cwd: dir });
  return type.exitCode === 0 && type.stdout.trim() === 'tag';
}

/** The signature block of a commit or tag object, if it has one. */
async function signatureFormat(dir: string, object: string, type: 'commit' | 'tag', ctx: { env: NodeJS.ProcessEnv; home: string }): Promise<'ssh' | 'gpg' | null> {
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
 * Checks the signature of the tag `ref` (when it is an annotated tag) or else of HEAD, against the
 * keys in `<home>/trusted-keys` (SSH) and `<home>/gnupg` (GPG).
 */
export async function verifySignature(dir: string, ref: string | null, ctx: { env: NodeJS.ProcessEnv; home: string }): Promise<PackSignature> {
  const tag = ref !== null && (await isAnnotatedTag(dir, ref, ctx));
  const object = tag ? `refs/tags/${ref}` : 'HEAD';
  const format = await signatureFormat(dir, object, tag ? 'tag' : 'commit', ctx);
  if (format === null) return { state: 'unsigned', format: null, signer: null, detail: `the ${tag ? `tag ${ref}` : 'commit'} is not signed` };
  if (format === 'gpg') mkdirSync(gnupgHome(ctx.home), { recursive: true, mode: 0o700 });
  const result = await git(tag ? ['verify-tag', object] : ['verify-commit', object], { ...ctx, cwd: dir });
  const output = `${result.stderr}\n${result.stdout}`;
  const { signer, key } = signerOf(output);
  const what = tag ? `tag ${ref}` : 'commit';
  if (result.exitCode === 0 && signer !== null) return { state: 'verified', format, signer, detail: `${what} signed by ${signer}${key === null ? '' : ` (${key})`}` };
  const noKeys = format === 'ssh' && !existsSync(trustedKeysPath(ctx.home));
  return {
    state: 'untrusted',
    format,
    signer: key,
    detail: `${what} signed by a key you have not trusted${key === null ? '' : ` (${key})`}${noKeys ? '; no keys are trusted yet (skilltray trust-key)' : `: ${firstLine(output)}`}`,
  };
}
