/**
 * Archives written entry by entry, with no sanitising, so hostile ones (paths that climb out,
 * setuid bits, symlinks, FIFOs, 100,000 entries) are exactly what a test asks for. Free of vitest,
 * so the Playwright scenarios use it too.
 */
import { writeFileSync } from 'node:fs';
import { crc32, gzipSync } from 'node:zlib';
import { Header } from 'tar';

/**
 * One archive entry as written: a file (default), a folder, or a symlink (or, in a tar, a hard
 * link) to `target`; `mode` as given (setuid included). `typeBits: false` writes a zip mode with
 * no file-type bits, as Python's `ZipFile.writestr` does.
 */
export interface ArchiveEntry {
  name: string;
  data?: string | Buffer;
  mode?: number;
  type?: 'file' | 'directory' | 'symlink' | 'hardlink' | 'fifo';
  target?: string;
  typeBits?: boolean;
}

const TAR_TYPES = { file: 'File', directory: 'Directory', symlink: 'SymbolicLink', hardlink: 'Link', fifo: 'FIFO' } as const;

/** A .tar.gz written header by header with node-tar's Header (no path sanitising: hostile names stay). */
export function tarGz(path: string, entries: Iterable<ArchiveEntry>): string {
  writeFileSync(path, gzipSync(tarBytes(entries)));
  return path;
}

/** An uncompressed .tar, written as tarGz writes its content. */
export function tar(path: string, entries: Iterable<ArchiveEntry>): string {
  writeFileSync(path, tarBytes(entries));
  return path;
}

function tarBytes(entries: Iterable<ArchiveEntry>): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const data = Buffer.from(entry.data ?? '');
    const type = entry.type ?? 'file';
    const header = new Header({
      path: entry.name,
      mode: entry.mode ?? (type === 'directory' ? 0o755 : 0o644),
      size: type === 'file' ? data.length : 0,
      type: TAR_TYPES[type],
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
  return Buffer.concat(blocks);
}

/** A .zip (stored, not deflated) written entry by entry, with Unix modes in the external attributes (no hard links: zip has none). */
export function zip(path: string, entries: readonly ArchiveEntry[]): string {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const type = entry.type ?? 'file';
    const name = Buffer.from(type === 'directory' && !entry.name.endsWith('/') ? `${entry.name}/` : entry.name);
    const data = type === 'symlink' ? Buffer.from(entry.target ?? '') : Buffer.from(entry.data ?? '');
    const kind = type === 'directory' ? 0o040000 : type === 'symlink' ? 0o120000 : 0o100000;
    const mode = (entry.typeBits === false ? 0 : kind) | (entry.mode ?? (type === 'directory' ? 0o755 : 0o644));
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
