/**
 * Assistants' bearer tokens: one per connected client (`codex`, `cursor`…), issued by `connect` and
 * withdrawn by `disconnect`. They are kept in `<home>/assistants.json` (0600) as SHA-256 digests
 * only, so the file gives no token away, and read fresh on every request like the person's token, so
 * a withdrawal takes effect at once. A file that is missing, a symlink or of any other shape holds no
 * token (every assistant token is refused). Whoever presents one acts as that assistant (authority.ts).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, constants, fstatSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../files/atomic-write.js';

/** An assistant token: `sta_` (Skilltray assistant, so a config that holds one says what it is) and 32 random bytes, base64url. */
const TOKEN_SHAPE = /^sta_[A-Za-z0-9_-]{43}$/;

/** The name a token is issued under, as history shows it: a client id such as `claude-code`. */
const NAME_SHAPE = /^[a-z0-9][a-z0-9._-]{0,63}$/;

const MAX_FILE_BYTES = 1024 * 1024;
const POSIX = process.platform !== 'win32';

interface Issued {
  name: string;
  /** SHA-256 of the token, hex. */
  digest: string;
  issued_at: string;
}

/** Where a home's assistant tokens are kept (as digests). */
export function assistantTokensPath(home: string): string {
  return join(home, 'assistants.json');
}

/** A fresh assistant token, not yet issued to anyone. */
export function newAssistantToken(): string {
  return `sta_${randomBytes(32).toString('base64url')}`;
}

const digestOf = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

function isIssued(value: unknown): value is Issued {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.name === 'string' && NAME_SHAPE.test(v.name) && typeof v.digest === 'string' && /^[0-9a-f]{64}$/.test(v.digest) && typeof v.issued_at === 'string'
  );
}

/** The issued tokens of a home; none when the file is missing, a symlink, too big or of another shape. */
function readIssued(home: string): Issued[] {
  let fd: number;
  try {
    fd = openSync(assistantTokensPath(home), constants.O_RDONLY | (POSIX ? constants.O_NOFOLLOW : 0));
  } catch {
    return [];
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > MAX_FILE_BYTES) return [];
    const parsed: unknown = JSON.parse(readFileSync(fd, 'utf8'));
    const list = (parsed as { assistants?: unknown } | null)?.assistants;
    return Array.isArray(list) && list.every(isIssued) ? list : [];
  } catch {
    return [];
  } finally {
    closeSync(fd);
  }
}

function writeIssued(home: string, issued: Issued[]): void {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  writeFileAtomic(assistantTokensPath(home), `${JSON.stringify({ assistants: issued }, null, 2)}\n`, { mode: 0o600, exactMode: true });
}

/** Issues `token` (from newAssistantToken) to the assistant `name`; its other tokens stay valid until withdrawn. */
export function issueAssistantToken(home: string, name: string, token: string): void {
  if (!NAME_SHAPE.test(name) || !TOKEN_SHAPE.test(token)) throw new Error(`not an assistant name and token: '${name}'`);
  const digest = digestOf(token);
  const issued = readIssued(home).filter((entry) => entry.digest !== digest);
  writeIssued(home, [...issued, { name, digest, issued_at: new Date().toISOString() }]);
}

/** Withdraws the tokens of assistant `name` (all of them, or all but `keep`); returns how many. */
export function withdrawAssistant(home: string, name: string, keep?: string): number {
  const kept = keep === undefined ? null : digestOf(keep);
  const issued = readIssued(home);
  const left = issued.filter((entry) => entry.name !== name || entry.digest === kept);
  if (left.length !== issued.length) writeIssued(home, left);
  return issued.length - left.length;
}

/** Withdraws one token, whoever it was issued to. */
export function withdrawAssistantToken(home: string, token: string): void {
  const digest = digestOf(token);
  const issued = readIssued(home);
  const left = issued.filter((entry) => entry.digest !== digest);
  if (left.length !== issued.length) writeIssued(home, left);
}

/** The assistant `token` is issued to, or null; every issued digest is compared in constant time. */
export function assistantOf(home: string, token: string): string | null {
  if (!TOKEN_SHAPE.test(token)) return null;
  const presented = Buffer.from(digestOf(token), 'hex');
  let found: string | null = null;
  for (const entry of readIssued(home)) {
    if (timingSafeEqual(presented, Buffer.from(entry.digest, 'hex'))) found = entry.name;
  }
  return found;
}

/** The assistants holding a token now, each once, with when its newest token was issued. */
export function assistantsIssued(home: string): { name: string; issuedAt: string }[] {
  const newest = new Map<string, string>();
  for (const entry of readIssued(home)) if ((newest.get(entry.name) ?? '') < entry.issued_at) newest.set(entry.name, entry.issued_at);
  return [...newest].map(([name, issuedAt]) => ({ name, issuedAt }));
}
