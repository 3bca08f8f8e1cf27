/**
 * What every entry of a pack is checked against while it is read, before anything is written:
 * its path stays inside the pack (and is not absurdly deep or long), it is a plain file, directory
 * or symlink, it carries no setuid bit, and the pack stays within its entry count (files, folders
 * and links alike), file count and sizes (declared and actually read).
 */
import type { ScanFinding } from '../../shared/packs.js';
import { MAX_FILE_BYTES, MAX_PACK_BYTES, MAX_PACK_ENTRIES, MAX_PACK_FILES, MAX_PATH_BYTES, MAX_PATH_DEPTH, finding } from './findings.js';

const MIB = 1024 * 1024;

/** The checks and counts of one read of a pack; `findings` holds what it refused or flagged. */
export class EntryBudget {
  /** Every entry, of whatever kind, and every folder a path implies, each counted once. */
  entries = 0;
  files = 0;
  bytes = 0;
  private readonly folders = new Set<string>(['']);
  readonly findings: ScanFinding[] = [];
  /** Set once a limit is passed: reading stops, nothing more is worth looking at. */
  exceeded = false;

  /** The entry's path inside the pack, `/`-separated, or null when it would leave the pack (S307). */
  path(raw: string): string | null {
    const unsafe = (why: string): null => {
      this.findings.push(finding('S307', raw, `archive entry ${JSON.stringify(raw)} ${why}; extracting it would write outside the pack`, { excerpt: raw }));
      return null;
    };
    if (raw.includes('\0')) return unsafe('contains a NUL byte');
    if (raw.includes('\\')) return unsafe('uses backslashes, which Windows reads as folders');
    if (raw.startsWith('/') || /^[A-Za-z]:/.test(raw)) return unsafe('is an absolute path');
    const segments = raw.split('/').filter((s) => s !== '' && s !== '.');
    if (segments.includes('..')) return unsafe("climbs out with '..'");
    const rel = segments.join('/');
    const bytes = Buffer.byteLength(rel);
    if (segments.length > MAX_PATH_DEPTH || bytes > MAX_PATH_BYTES) {
      const shown = rel.length > 120 ? `${rel.slice(0, 119)}…` : rel;
      if (!this.exceeded)
        this.stop(
          shown,
          `${shown} is ${segments.length} folders deep and ${bytes} bytes long; a pack's paths stay within ${MAX_PATH_DEPTH} folders and ${MAX_PATH_BYTES} bytes (a bomb, or not a skill pack)`,
        );
      return null;
    }
    return rel;
  }

  /**
   * Counts the entry `rel` of `type` and the folders above it not counted yet; false once the pack
   * holds too many (S309), whatever they are — 30,000 folders and links are as much a bomb as files.
   */
  entry(rel: string, type: string): boolean {
    if (this.exceeded) return false;
    for (let slash = rel.indexOf('/'); slash !== -1; slash = rel.indexOf('/', slash + 1)) this.folder(rel.slice(0, slash));
    if (type === 'directory') this.folder(rel);
    else this.entries++;
    if (this.entries > MAX_PACK_ENTRIES)
      this.stop(
        rel,
        `the pack holds more than ${MAX_PACK_ENTRIES.toLocaleString('en')} entries (files, folders and links together: an archive bomb, or not a skill pack)`,
      );
    return !this.exceeded;
  }

  private folder(rel: string): void {
    if (this.folders.has(rel)) return;
    this.folders.add(rel);
    this.entries++;
  }

  /** Counts a file of `size` bytes (declared or read so far); false once the pack is too big (S309). */
  file(rel: string, size: number): boolean {
    this.files++;
    this.bytes += size;
    return this.checkLimits(rel, size);
  }

  /** Adds bytes actually read for a file already counted; false once a limit is passed. */
  grow(rel: string, fileBytes: number, added: number): boolean {
    this.bytes += added;
    return this.checkLimits(rel, fileBytes);
  }

  private checkLimits(rel: string, fileBytes: number): boolean {
    if (this.exceeded) return false;
    if (this.files > MAX_PACK_FILES)
      this.stop(rel, `the pack holds more than ${MAX_PACK_FILES.toLocaleString('en')} files (an archive bomb, or not a skill pack)`);
    else if (fileBytes > MAX_FILE_BYTES) this.stop(rel, `${rel} is over ${MAX_FILE_BYTES / MIB} MiB`);
    else if (this.bytes > MAX_PACK_BYTES) this.stop(rel, `the pack is over ${MAX_PACK_BYTES / MIB} MiB in all (an archive bomb, or not a skill pack)`);
    return !this.exceeded;
  }

  private stop(rel: string, message: string): void {
    this.exceeded = true;
    this.findings.push(finding('S309', rel, message));
  }

  /** Flags setuid and setgid bits (S308); the copy never keeps them. */
  mode(rel: string, mode: number): void {
    if ((mode & 0o6000) !== 0) {
      const bits = [(mode & 0o4000) !== 0 ? 'setuid' : null, (mode & 0o2000) !== 0 ? 'setgid' : null].filter(Boolean).join(' and ');
      this.findings.push(finding('S308', rel, `${rel} has the ${bits} bit (mode ${(mode & 0o7777).toString(8)}): it would run with its owner's rights`));
    }
  }

  /** Flags an entry that is neither a file, a directory nor a symlink (S311). */
  special(rel: string, type: string): void {
    this.findings.push(finding('S311', rel, `${rel} is a ${type}, not a file, folder or symlink`));
  }
}
