/**
 * The person's bearer token: 32 random bytes, base64url, kept in `<home>/token` (mode 0600, the
 * home 0700). Whoever presents it acts as the person at the desktop (authority.ts), so it is read
 * fresh on every request (a rotation takes effect at once), never followed through a symlink, never
 * written into an assistant's config, and a file of any other shape is treated as no token at all.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, closeSync, constants, fstatSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../files/atomic-write.js';

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const NONCE_SHAPE = /^[0-9a-f]{32}$/;
const PROOF_SHAPE = /^[0-9a-f]{64}$/;
const POSIX = process.platform !== 'win32';

/** Where the token of a home is kept. */
export function tokenPath(home: string): string {
  return join(home, 'token');
}

/** The current token of a home, or null when there is none (missing, a symlink, not a file, or malformed). */
export function readToken(home: string): string | null {
  let fd: number;
  try {
    fd = openSync(tokenPath(home), constants.O_RDONLY | (POSIX ? constants.O_NOFOLLOW : 0));
  } catch {
    return null;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > 1024) return null;
    const token = readFileSync(fd, 'utf8').trim();
    return TOKEN_SHAPE.test(token) ? token : null;
  } finally {
    closeSync(fd);
  }
}

/** Writes a fresh token atomically (a private temp file renamed over the old one) and returns it. */
export function rotateToken(home: string): string {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const token = randomBytes(32).toString('base64url');
  // The token must be 0600 whatever the umask is.
  writeFileAtomic(tokenPath(home), `${token}\n`, { mode: 0o600, exactMode: true });
  return token;
}

/** The home's token, created (with the home) on first start, and kept private if its mode was widened. */
export function ensureToken(home: string): string {
  const existing = readToken(home);
  if (existing === null) return rotateToken(home);
  if (POSIX) chmodSync(tokenPath(home), 0o600);
  return existing;
}

/** Compares a presented token with the expected one in constant time (whatever their lengths). */
export function tokenMatches(expected: string, presented: string): boolean {
  const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(expected), digest(presented));
}

/** A fresh challenge for `GET /api/identify`: 16 random bytes as 32 lowercase hex digits. */
export function newNonce(): string {
  return randomBytes(16).toString('hex');
}

/** Whether `value` is a challenge `GET /api/identify` answers (32 lowercase hex digits, nothing else). */
export function isNonce(value: string): boolean {
  return NONCE_SHAPE.test(value);
}

/** What an owner answers to a nonce to show it holds the token without sending it: HMAC-SHA256(token, nonce), hex. */
export function identityProof(token: string, nonce: string): string {
  return createHmac('sha256', token).update(nonce, 'utf8').digest('hex');
}

/** Whether `proof` is the proof for `nonce` under `token`, compared in constant time. */
export function proofMatches(token: string, nonce: string, proof: unknown): boolean {
  if (typeof proof !== 'string' || !PROOF_SHAPE.test(proof)) return false;
  return timingSafeEqual(Buffer.from(identityProof(token, nonce), 'hex'), Buffer.from(proof, 'hex'));
}
