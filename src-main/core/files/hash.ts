/** SHA-256 of a file or of bytes in memory: what content hashes, pack locks and the bundled manifest record. */
import { createHash, hash as hashOnce } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';

/** Where hashFile reads: one buffer for every file (reads are synchronous), not 64 KiB of garbage per file of a 10,000-skill load. */
const CHUNK = Buffer.allocUnsafe(1 << 16);

/** SHA-256 of a file's bytes, read in chunks so a huge file never sits in memory. */
export function hashFile(abs: string): string {
  const fd = openSync(abs, 'r');
  try {
    const buffer = CHUNK;
    let filled = 0;
    // Most files end within one buffer: hashed in one call then, without a Hash object's set-up.
    for (;;) {
      const n = readSync(fd, buffer, filled, buffer.length - filled, null);
      if (n === 0) return hashOnce('sha256', buffer.subarray(0, filled), 'hex');
      filled += n;
      if (filled === buffer.length) break;
    }
    const hash = createHash('sha256').update(buffer);
    for (;;) {
      const n = readSync(fd, buffer, 0, buffer.length, null);
      if (n === 0) break;
      hash.update(buffer.subarray(0, n));
    }
    return hash.digest('hex');
  } finally {
    closeSync(fd);
  }
}

/** SHA-256 of bytes already in memory (a file read once for both its hash and its text), or of text as UTF-8 (lines a digest is made of). */
export function hashBytes(bytes: Uint8Array | string): string {
  return hashOnce('sha256', bytes, 'hex');
}
