/** SHA-256 of a file or of bytes in memory: what content hashes, pack locks and the bundled manifest record. */
import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';

/** Where hashFile reads: one buffer for every file (reads are synchronous), not 64 KiB of garbage per file of a 10,000-skill load. */
const CHUNK = Buffer.allocUnsafe(1 << 16);

/** SHA-256 of a file's bytes, read in chunks so a huge file never sits in memory. */
export function hashFile(abs: string): string {
  const hash = createHash('sha256');
  const fd = openSync(abs, 'r');
  try {
    const buffer = CHUNK;
    for (;;) {
      const n = readSync(fd, buffer, 0, buffer.length, null);
      if (n === 0) break;
      hash.update(buffer.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

/** SHA-256 of bytes already in memory (a file read once for both its hash and its text). */
export function hashBytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
