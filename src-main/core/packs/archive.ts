/**
 * Reading a pack from a `.zip` (yauzl) or `.tar.gz` (node-tar's parser) entry by entry. `inspect`
 * reads every header without writing anything, so an archive that is unsafe by its headers alone
 * — paths that leave it, special files, a bomb by count or size — is refused before extraction;
 * `archiveEntries` then hands the entries to the one extraction (extraction.ts), which writes them.
 */
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { Parser, type ReadEntry } from 'tar';
import yauzl from 'yauzl';
import { SkilltrayError } from '../../shared/skilltray-error.js';
import { packErrors } from '../../shared/error-messages/packs.js';
import { EntryBudget } from './entry-budget.js';
import type { EntryWalk, PackEntry } from './extraction.js';

/** The archive formats a pack may come in. */
export type ArchiveKind = 'zip' | 'tar';

/** Called with each entry in archive order; return false to stop reading. */
type Visit = (entry: PackEntry) => Promise<boolean>;

const S_IFMT = 0o170000;
const TYPES: Record<number, string> = {
  0o100000: 'file',
  0o040000: 'directory',
  0o120000: 'symlink',
  0o010000: 'FIFO',
  0o020000: 'character device',
  0o060000: 'block device',
  0o140000: 'socket',
};

async function walkZip(file: string, visit: Visit): Promise<void> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    // Names are decoded here, not by yauzl, which would refuse a zip-slip entry outright instead of letting the scan name it.
    yauzl.open(file, { lazyEntries: true, decodeStrings: false, validateEntrySizes: true, autoClose: false }, (error, z) =>
      error ? reject(error) : resolve(z),
    ),
  );
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', reject);
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        const name = entry.fileName as unknown as Buffer;
        const raw = (entry.generalPurposeBitFlag & 0x800) !== 0 ? name.toString('utf8') : name.toString('latin1');
        const unixMode = entry.versionMadeBy >> 8 === 3 ? entry.externalFileAttributes >>> 16 : 0;
        // No type bits (Python's ZipFile.writestr writes 0o600 alone): the name says, as unzip reads it.
        const type = (unixMode & S_IFMT) !== 0 ? (TYPES[unixMode & S_IFMT] ?? 'special file') : raw.endsWith('/') ? 'directory' : 'file';
        const open = () => new Promise<AsyncIterable<Buffer>>((res, rej) => zip.openReadStream(entry, (error, stream) => (error ? rej(error) : res(stream))));
        visit({ raw, type, mode: unixMode & 0o7777, size: entry.uncompressedSize, open }).then((more) => (more ? zip.readEntry() : resolve()), reject);
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}

const TAR_TYPES: Record<string, string> = {
  File: 'file',
  OldFile: 'file',
  ContiguousFile: 'file',
  Directory: 'directory',
  SymbolicLink: 'symlink',
  Link: 'hard link',
};

async function walkTar(file: string, visit: Visit): Promise<void> {
  const parser = new Parser({ noResume: true, strict: true });
  let failure: unknown = null;
  let stopped = false;
  let chain = Promise.resolve();
  parser.on('entry', (entry: ReadEntry) => {
    // pax and GNU metadata headers are folded into the next entry by the parser.
    chain = chain
      .then(async () => {
        if (stopped) return entry.resume() as unknown as void;
        const type = TAR_TYPES[entry.type] ?? entry.type;
        const more = await visit({
          raw: entry.path,
          type,
          mode: entry.mode ?? 0,
          size: entry.size,
          open: async (): Promise<AsyncIterable<Buffer>> =>
            type === 'symlink' ? Readable.from([Buffer.from(entry.linkpath ?? '')]) : (entry as unknown as AsyncIterable<Buffer>),
        });
        entry.resume();
        if (!more) {
          stopped = true;
          parser.abort(new Error('stopped'));
        }
      })
      .catch((error: unknown) => {
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
    throw packErrors.archiveUnreadable(file, error);
  }
}

/** Checks every entry's header without writing anything; the budget holds what was found. */
export async function inspectArchive(kind: ArchiveKind, file: string): Promise<EntryBudget> {
  const budget = new EntryBudget();
  await walk(kind, file, async (entry) => {
    const rel = budget.path(entry.raw);
    if (rel === null) return !budget.exceeded;
    if (rel === '') return true;
    if (!budget.entry(rel, entry.type)) return false;
    budget.mode(rel, entry.mode);
    if (entry.type === 'file') return budget.file(rel, entry.size);
    if (entry.type !== 'directory' && entry.type !== 'symlink') budget.special(rel, entry.type);
    return true;
  });
  return budget;
}

/** The archive's entries in order, for the extraction to write. */
export function archiveEntries(kind: ArchiveKind, file: string): EntryWalk {
  return (visit) => walk(kind, file, visit);
}
