/**
 * A SQLite database file as a reader would see it now, as bytes in memory: the main file with the
 * WAL's committed frames laid over it (SQLite's file format, sections 1.3 and 4), marked as a
 * rollback-journal database so it can be opened from the buffer. Two readers need it: a read-only
 * home, where SQLite cannot create the `-shm` file a WAL database needs even to be read, and
 * salvage, which walks a damaged file's pages itself.
 */
import { readFileSync } from 'node:fs';

const WAL_HEADER = 32;
const FRAME_HEADER = 24;
const WAL_MAGIC = 0x377f0682;

/** The page size a database header (or a WAL header) declares: 1 stands for 65536. */
function pageSizeOf(raw: number): number {
  return raw === 1 ? 65536 : raw;
}

function readOptional(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
}

/** SQLite's WAL checksum over `data` (a multiple of 8 bytes), continuing from `s`. */
function walChecksum(data: Buffer, bigEndian: boolean, s: [number, number]): [number, number] {
  let [s0, s1] = s;
  for (let i = 0; i + 8 <= data.length; i += 8) {
    const x0 = bigEndian ? data.readUInt32BE(i) : data.readUInt32LE(i);
    const x1 = bigEndian ? data.readUInt32BE(i + 4) : data.readUInt32LE(i + 4);
    s0 = (s0 + x0 + s1) >>> 0;
    s1 = (s1 + x1 + s0) >>> 0;
  }
  return [s0, s1];
}

/**
 * The committed frames of a WAL: page number → page bytes as of the last commit whose frames (and
 * every one before it) carry the header's salts and a valid checksum chain, with the database size
 * that commit recorded. Null for a WAL that is absent, empty or not one.
 */
function committedFrames(wal: Buffer | null): { pageSize: number; pages: Map<number, Buffer>; pageCount: number } | null {
  if (wal === null || wal.length < WAL_HEADER) return null;
  const magic = wal.readUInt32BE(0);
  if ((magic & ~1) >>> 0 !== WAL_MAGIC) return null;
  const bigEndian = (magic & 1) === 1;
  const pageSize = pageSizeOf(wal.readUInt32BE(8));
  const salt1 = wal.readUInt32BE(16);
  const salt2 = wal.readUInt32BE(20);
  let sums = walChecksum(wal.subarray(0, 24), bigEndian, [0, 0]);
  if (sums[0] !== wal.readUInt32BE(24) || sums[1] !== wal.readUInt32BE(28)) return null;
  const committed = new Map<number, Buffer>();
  const pending = new Map<number, Buffer>();
  let pageCount = 0;
  for (let at = WAL_HEADER; at + FRAME_HEADER + pageSize <= wal.length; at += FRAME_HEADER + pageSize) {
    if (wal.readUInt32BE(at + 8) !== salt1 || wal.readUInt32BE(at + 12) !== salt2) break;
    sums = walChecksum(wal.subarray(at, at + 8), bigEndian, sums);
    const page = wal.subarray(at + FRAME_HEADER, at + FRAME_HEADER + pageSize);
    sums = walChecksum(page, bigEndian, sums);
    if (sums[0] !== wal.readUInt32BE(at + 16) || sums[1] !== wal.readUInt32BE(at + 20)) break;
    pending.set(wal.readUInt32BE(at), page);
    const commitSize = wal.readUInt32BE(at + 4);
    if (commitSize !== 0) {
      for (const [number, bytes] of pending) committed.set(number, bytes);
      pending.clear();
      pageCount = commitSize;
    }
  }
  return pageCount === 0 ? null : { pageSize, pages: committed, pageCount };
}

/**
 * The database at `path` with its WAL (`<path>-wal`) applied, as one buffer in rollback-journal
 * mode; `new Database(image)` opens it in memory. Throws when the main file cannot be read.
 */
export function databaseImage(path: string): Buffer {
  const main = readFileSync(path);
  const wal = committedFrames(readOptional(`${path}-wal`));
  if (wal === null) return markRollback(main);
  const pageSize = main.length >= 100 ? pageSizeOf(main.readUInt16BE(16)) : wal.pageSize;
  const image = Buffer.alloc(wal.pageCount * pageSize);
  main.copy(image, 0, 0, Math.min(main.length, image.length));
  for (const [number, bytes] of wal.pages) if (number >= 1 && number <= wal.pageCount) bytes.copy(image, (number - 1) * pageSize);
  return markRollback(image);
}

/** Sets the file format bytes to 1 (legacy journal): a WAL-mode image cannot be opened from memory. */
function markRollback(image: Buffer): Buffer {
  if (image.length >= 100) {
    image[18] = 1;
    image[19] = 1;
  }
  return image;
}
