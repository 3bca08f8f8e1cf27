/**
 * The one way a pack's entries reach the disk, whatever they come from (a tar, a zip, a folder, a
 * git commit): under a folder this module creates, never through a link. It keeps a map of every
 * entry it made; an entry under a link or a file, or naming an entry made already, is refused;
 * files are created O_EXCL|O_NOFOLLOW; links are written last, once every target is resolved
 * inside the tree (link-target.ts), so nothing is ever written under one. A refused source leaves
 * nothing behind: the folder is removed and the findings say why.
 */
import { closeSync, constants, createWriteStream, mkdirSync, openSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ScanFinding } from '../../shared/packs.js';
import { SkilltrayError } from '../../shared/skilltray-error.js';
import { packErrors } from '../../shared/error-messages/packs.js';
import { EntryBudget } from './entry-budget.js';
import { finding, MAX_TARGET_BYTES, UNEXTRACTABLE } from './findings.js';
import { linkDestination } from './link-target.js';

/** One entry of a source as it describes itself, before anything is written. */
export interface PackEntry {
  /** Its path as the source names it (checked here, never trusted). */
  raw: string;
  /** `file`, `directory`, `symlink`, or what else it is (refused: S311). */
  type: string;
  mode: number;
  /** The size it declares (a file's bytes are counted again as they are written). */
  size: number;
  /** A file's data, or a symlink's target. */
  open(): Promise<AsyncIterable<Buffer>>;
}

/** Calls `visit` with each entry in order until it returns false. */
export type EntryWalk = (visit: (entry: PackEntry) => Promise<boolean>) => Promise<void>;

type Made = { kind: 'directory' | 'file' } | { kind: 'symlink'; target: string };

async function readTarget(stream: AsyncIterable<Buffer>): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > MAX_TARGET_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

class Extraction {
  readonly budget = new EntryBudget();
  private readonly made = new Map<string, Made>([['', { kind: 'directory' }]]);
  private readonly lookup = (rel: string): string | null => {
    const made = this.made.get(rel);
    return made?.kind === 'symlink' ? made.target : null;
  };

  constructor(
    private readonly dest: string,
    private readonly source: string,
    private readonly onFile: (rel: string) => void,
  ) {
    // Not recursive: the folder is new, and nothing but this extraction writes in it.
    mkdirSync(dest, { mode: 0o700 });
  }

  get refused(): boolean {
    return this.budget.findings.some((f) => UNEXTRACTABLE.has(f.code));
  }

  private refuse(code: 'S307' | 'S313', rel: string, message: string, excerpt?: string): false {
    this.budget.findings.push(finding(code, rel, message, excerpt === undefined ? {} : { excerpt }));
    return false;
  }

  /** Makes the folders above `rel` that are not there yet; false when one of them is a link or a file. */
  private parents(rel: string, raw: string): boolean {
    const segments = rel.split('/');
    for (let i = 1; i < segments.length; i++) {
      const dir = segments.slice(0, i).join('/');
      const made = this.made.get(dir);
      if (made === undefined) {
        mkdirSync(join(this.dest, dir), { mode: 0o755 });
        this.made.set(dir, { kind: 'directory' });
      } else if (made.kind !== 'directory') {
        return this.refuse(
          'S307',
          rel,
          `archive entry ${JSON.stringify(raw)} would be written through the ${made.kind} ${dir}; a pack never writes through a link`,
          raw,
        );
      }
    }
    return true;
  }

  /** Writes one entry; false once the source is refused (the findings say why) or a limit is passed. */
  async add(entry: PackEntry): Promise<boolean> {
    const rel = this.budget.path(entry.raw);
    if (rel === null) return false;
    if (rel === '') return true;
    if (!this.budget.entry(rel, entry.type)) return false;
    const existing = this.made.get(rel);
    if (entry.type === 'directory' && existing?.kind === 'directory') return true;
    if (existing !== undefined)
      return this.refuse(
        'S307',
        rel,
        `archive entry ${JSON.stringify(entry.raw)} appears twice (first as a ${existing.kind}); a second entry would write through or over the first`,
        entry.raw,
      );
    if (entry.type !== 'directory' && entry.type !== 'file' && entry.type !== 'symlink') {
      this.budget.special(rel, entry.type);
      return false;
    }
    if (!this.parents(rel, entry.raw)) return false;
    this.budget.mode(rel, entry.mode);
    if (entry.type === 'directory') {
      mkdirSync(join(this.dest, rel), { mode: 0o755 });
      this.made.set(rel, { kind: 'directory' });
      return true;
    }
    if (entry.type === 'symlink') return this.link(rel, await readTarget(await entry.open()));
    return this.file(rel, entry);
  }

  /** Records a link; it is written in `finish`, after every link is known and checked. */
  private link(rel: string, target: string | null): boolean {
    if (target === null || target.includes('\0'))
      return this.refuse('S313', rel, `symlink ${rel} has no usable target (empty, over ${MAX_TARGET_BYTES} bytes or with a NUL)`);
    if (linkDestination(rel, target, this.lookup) === null) return this.leaves(rel, target);
    this.made.set(rel, { kind: 'symlink', target });
    return true;
  }

  private leaves(rel: string, target: string): false {
    return this.refuse('S313', rel, `symlink ${rel} leads outside the pack, to ${target}: the pack is refused and nothing was written there`, target);
  }

  private async file(rel: string, entry: PackEntry): Promise<boolean> {
    if (!this.budget.file(rel, 0)) return false;
    let written = 0;
    const budget = this.budget;
    const source = this.source;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        written += chunk.length;
        if (!budget.grow(rel, written, chunk.length)) return done(packErrors.overLimits(source, budget.findings.at(-1)?.message ?? ''));
        done(null, chunk);
      },
    });
    // O_EXCL refuses whatever is already there, a link included; O_NOFOLLOW says so twice.
    const fd = openSync(join(this.dest, rel), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, (entry.mode & 0o755) | 0o600);
    this.made.set(rel, { kind: 'file' });
    let data: AsyncIterable<Buffer>;
    try {
      data = await entry.open();
    } catch (error) {
      // An entry that cannot be read (an unsupported zip method) must not leave its destination open.
      closeSync(fd);
      throw error;
    }
    try {
      await pipeline(Readable.from(data), counter, createWriteStream('', { fd }));
    } catch (error) {
      if (error instanceof SkilltrayError && budget.exceeded) return false;
      throw error;
    }
    this.onFile(rel);
    return true;
  }

  /** Checks every link against the whole tree (a later link may change where an earlier one leads), then writes them. */
  finish(): void {
    const links = [...this.made].filter((e): e is [string, Made & { kind: 'symlink' }] => e[1].kind === 'symlink');
    for (const [rel, made] of links) if (linkDestination(rel, made.target, this.lookup) === null) this.leaves(rel, made.target);
    if (this.refused) return;
    for (const [rel, made] of links) symlinkSync(made.target, join(this.dest, rel));
  }
}

/**
 * Writes the entries `walk` yields into `dest`, a new folder (its parent must exist). Returns the
 * findings; when one of them refuses the source (UNEXTRACTABLE), `dest` is gone again.
 */
export async function extractEntries(walk: EntryWalk, dest: string, source: string, onFile: (rel: string) => void): Promise<ScanFinding[]> {
  const extraction = new Extraction(dest, source, onFile);
  try {
    await walk((entry) => extraction.add(entry));
    if (!extraction.refused) extraction.finish();
  } catch (error) {
    rmSync(dest, { recursive: true, force: true });
    if (error instanceof SkilltrayError) throw error;
    throw packErrors.extractionFailed(source, error);
  }
  if (extraction.refused) rmSync(dest, { recursive: true, force: true });
  return extraction.budget.findings;
}
