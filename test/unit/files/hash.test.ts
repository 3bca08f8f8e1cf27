/**
 * hashFile reads a file that ends within its buffer in one go and streams a longer one: either way
 * its hash is SHA-256 of every byte, at the sizes where one way meets the other.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hashBytes, hashFile } from '../../../src-main/core/files/hash.js';

const dir = mkdtempSync(join(tmpdir(), 'skilltray-hash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

describe('hashFile', () => {
  it.each([0, 1, 65_535, 65_536, 65_537, 3 * 65_536, 200_003])('hashes every byte of a %i-byte file', (size) => {
    const bytes = Buffer.alloc(size);
    for (let i = 0; i < size; i++) bytes[i] = (i * 7919 + (i >> 8)) & 0xff;
    const file = join(dir, `f-${size}`);
    writeFileSync(file, bytes);
    expect(hashFile(file)).toBe(sha256(bytes));
    expect(hashBytes(bytes)).toBe(sha256(bytes));
  });
});
