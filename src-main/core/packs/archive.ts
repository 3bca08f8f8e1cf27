/**
 * Reading a pack from a `.zip` (yauzl) or `.tar.gz` (node-tar's parser) entry by entry. `inspect`
 * reads every header (and each symlink's target) without writing anything, so a hostile archive —
 * paths that leave it, special files, a bomb by count or size — is refused before extraction;
 * `extract` then writes what was inspected, counting the bytes actually inflated as it goes.
 */
import { createReadStream, createWriteStream, mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Parser, type ReadEntry } from 'tar';
import yauzl from 'yauzl';
import { SkilltrayError } from '../errors.js';
import { EntryBudget } from './entry-budget.js';

/** The archive formats a pack may come in. */
export type ArchiveKind = 'zip' | 'tar';

/** One entry as the archive describes it. */
interface Entry {
  raw: string;
  type: 'file' | 'directory' | 'symlink' | string;
  mode: number;
  size: number;
  /** The data of a file, or a symlink's target as a stream. */
  open(): Promise<AsyncIterable<Buffer>>;
}

/** Called with each entry in archive order; return false to stop reading. */
type Visit = (entry: Entry) => Promise<boolean>;

const S_IFMT = 0o170000;
const TYPES: Record<number, string> = { 0o100000: 'file', 0o040000: 'directory', 0o120000: 'symlink', 0o010000: 'FIFO', 0o020000: 'character device', 0o060000: 'block device', 0o140000: 'socket' };

function unreadable(file: string, error: unknown): SkilltrayError {
  return new SkilltrayError('E302', `cannot read the archive '${file}': ${(error as Error).message}`, { cause: error, details: { source: file } });
}

async function walkZip(file: string, visit: Visit): Promise<void> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    // Names are decoded here, not by yauzl, which would refuse a zip-slip entry outright instead of letting the scan name it.
    yauzl.open(file, { lazyEntries: true, decodeStrings: false, validateEntrySizes: true, autoClose: false }, (error, z) => (error ? reject(error) : resolve(z))),
  );
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', reject);
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        const name = entry.fileName as unknown as Buffer;
        const raw = (entry.generalPurposeBitFlag & 0x800) !== 0 ? name.toString('utf8') : name.toString('latin1');
        const unixMode = entry.versionMadeBy >> 8 === 3 ? entry.externalFileAttributes >>> 16 : 0;
        const type = unixMode !== 0 ? (TYPES[unixMode & S_IFMT] ?? 'special file') : raw.endsWith('/') ? 'directory' : 'file';
        const open = () => new Promise<AsyncIterable<Buffer>>((res, rej) => zip.openReadStream(entry, (error, stream) => (error ? rej(error) : res(stream))));
        visit({ raw, type, mode: unixMode & 0o7777, size: entry.uncompressedSize, open }).then(
          (more) => (more ? zip.readEntry() : resolve()),
          reject,
        );
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}

const TAR_TYPES: Record<string, string> = { File: 'file', OldFile: 'file', ContiguousFile: 'file', Directory: 'directory', SymbolicLink: 'symlink', Link: 'hard link' };

async function walkTar(file: string, visit: Visit): Promise<void> {
  const parser = new Parser({ noResume: true, strict: true });
  let failure: unknown = null;
  let stopped = false;
  let chain = Promise.resolve();
  parser.on('entry', (entry: ReadEntry) => {
    // pax and GNU metadata headers are folded into the next entry by the parser.
    chain = chain.then(async () => {
      if (stopped) return entry.resume() as unknown as void;
      const type = TAR_TYPES[entry.type] ?? entry.type;
      const more = await visit({ raw: entry.path, type, mode: entry.mode ?? 0, size: entry.size, open: async (): Promise<AsyncIterable<Buffer>> => (type === 'symlink' ? Readable.from([Buffer.from(entry.linkpath ?? '')]) : (entry as unknown as AsyncIterable<Buffer>)) });
      entry.resume();
      if (!more) {
        stopped = true;
        parser.abort(new Error('stopped'));
      }
    }).catch((error: unknown) => {
      failure ??= error;
      stopped = true;
      entry.resume();
      parser.abort(error as Error);
    });
  });
  await new Promise<void>((resolve, reject) => {
    const input = createReadStream(file);
    const fail = (error: unknown): void => {
      input.destroy();
      if (stopped) resolve();
      else reject(error);
    };
    input.on('error', fail);
    parser.on('abort', fail);
    parser.on('error', fail);
    parser.on('end', () => resolve());
    // The parser inflates gzip itself (and reads a plain .tar too).
    input.pipe(parser as unknown as NodeJS.WritableStream);
  });
  await chain;
  if (failure !== null) throw failure;
}

async function walk(kind: ArchiveKind, file: string, visit: Visit): Promise<void> {
  try {
    await (kind === 'zip' ? walkZip(file, visit) : walkTar(file, visit));
  } catch (error) {
    if (error instanceof SkilltrayError) throw error;
    throw unreadable(file, error);
  }
}

async function readSmall(stream: AsyncIterable<Buffer>, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > max) throw new Error('a symlink target longer than 4096 bytes');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Checks every entry's header without writing anything; the budget holds what was found. */
export async function inspectArchive(kind: ArchiveKind, file: string): Promise<EntryBudget> {
  const budget = new EntryBudget();
  await walk(kind, file, async (entry) => {
    const rel = budget.path(entry.raw);
    if (rel === null || rel === '') return true;
    budget.mode(rel, entry.mode);
    if (entry.type === 'file') return budget.file(rel, entry.size);
    if (entry.type !== 'directory' && entry.type !== 'symlink') budget.special(rel, entry.type);
    return true;
  });
  return budget;
}

/**
 * Writes an inspected archive into `dest`: files (modes without setuid, setgid or group/other
 * write), folders and symlinks (their targets are the scan's to judge). Stops with E302 when the
 * inflated bytes pass a limit the headers understated.
 */
export async function extractArchive(kind: ArchiveKind, file: string, dest: string, onFile: (rel: string) => void): Promise<void> {
  const budget = new EntryBudget();
  mkdirSync(dest, { recursive: true });
  await walk(kind, file, async (entry) => {
    const rel = budget.path(entry.raw);
    if (rel === null) throw new SkilltrayError('E302', `the archive '${file}' changed while it was read`, { details: { source: file } });
    if (rel === '') return true;
    const target = join(dest, rel);
    if (entry.type === 'directory') {
      mkdirSync(target, { recursive: true });
      return true;
    }
    mkdirSync(dirname(target), { recursive: true });
    if (entry.type === 'symlink') {
      symlinkSync(await readSmall(await entry.open(), 4096), target);
      return true;
    }
    if (entry.type !== 'file') return true;
    budget.file(rel, 0);
    let written = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        written += chunk.length;
        if (!budget.grow(rel, written, chunk.length)) return done(new SkilltrayError('E302', `the archive '${file}' inflates past its limits: ${budget.findings[0]?.message ?? ''}`, { details: { source: file } }));
        done(null, chunk);
      },
    });
    await pipeline(Readable.from(await entry.open()), counter, createWriteStream(target, { mode: (entry.mode & 0o755) | 0o600 }));
    onFile(rel);
    return true;
  });
}
