/**
 * Where skills taken from MCP sources live in Skilltray's home, and nowhere else:
 *
 *     <home>/mcp/sources.json                the sources (0600: a header may hold a token)
 *     <home>/mcp/sources/<source>/state.json  what it served when last fetched, and what the person approved
 *     <home>/mcp/sources/<source>/blobs/<sha256>   each verified file, named by its digest
 *     <home>/mcp/skills/<source>.<skill>/     an approved skill as approved: the `mcp` root the registry reads
 *
 * Only folders Skilltray names (a source's slug, a digest's hex) and paths served-entry.ts passed are
 * ever joined here, each checked to stay inside its folder, and a skill folder is written beside its
 * place first and renamed in whole. No other root reads these folders, so what lies there is never
 * taken for a skill of yours, after a restart or once its source is gone.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ErrorShape } from '../../shared/errors.js';
import type { McpSourceTransport } from '../../shared/served.js';
import { writeFileAtomic } from '../files/atomic-write.js';
import { isInside } from '../files/paths.js';
import type { FileRecord } from './served-entry.js';

/** One source as the person added it. */
export interface SourceRecord {
  name: string;
  transport: McpSourceTransport;
  addedAt: number;
}

/** One skill as its source served it when last fetched. */
export interface SeenSkill {
  uri: string;
  description: string;
  frontmatter: Record<string, unknown>;
  files: FileRecord[];
  /** The set digest (null while refused). */
  digest: string | null;
  refusal: ErrorShape | null;
  /** The server no longer serves it (`skills/get` of its URI failed). */
  gone: boolean;
}

/** One skill as the person approved it. */
export interface ApprovedSkill {
  uri: string;
  files: FileRecord[];
  digest: string;
  /** Whether the person approved what it declares (reads, writes, limits, network, allowed-tools) too. */
  grants: boolean;
  approvedAt: number;
}

export interface SourceState {
  checkedAt: number | null;
  error: ErrorShape | null;
  skills: Record<string, SeenSkill>;
  approved: Record<string, ApprovedSkill>;
}

const HEX = /^[0-9a-f]{64}$/;

/** The folders of one home's MCP sources. */
export class SourceFiles {
  readonly root: string;
  /** The `mcp` skill root: approved skills only. */
  readonly skillsDir: string;

  constructor(home: string) {
    this.root = join(home, 'mcp');
    this.skillsDir = join(this.root, 'skills');
  }

  private sourceDir(name: string): string {
    return join(this.root, 'sources', name);
  }

  /** The sources, in the order they were added. */
  sources(): SourceRecord[] {
    try {
      const data = JSON.parse(readFileSync(join(this.root, 'sources.json'), 'utf8')) as { sources?: SourceRecord[] };
      return Array.isArray(data.sources) ? data.sources : [];
    } catch {
      return [];
    }
  }

  saveSources(sources: readonly SourceRecord[]): void {
    mkdirSync(this.root, { recursive: true, mode: 0o700 });
    writeFileAtomic(join(this.root, 'sources.json'), `${JSON.stringify({ version: 1, sources }, null, 2)}\n`, { mode: 0o600, exactMode: true });
  }

  state(name: string): SourceState {
    return readState(join(this.sourceDir(name), 'state.json'));
  }

  saveState(name: string, state: SourceState): void {
    const dir = this.sourceDir(name);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileAtomic(join(dir, 'state.json'), `${JSON.stringify(state)}\n`, { mode: 0o600, exactMode: true });
  }

  private blobPath(name: string, digest: string): string {
    if (!HEX.test(digest)) throw new Error(`not a digest: ${digest}`);
    return join(this.sourceDir(name), 'blobs', digest);
  }

  hasBlob(name: string, digest: string): boolean {
    return existsSync(this.blobPath(name, digest));
  }

  blob(name: string, digest: string): Buffer {
    return readFileSync(this.blobPath(name, digest));
  }

  /** Keeps verified bytes under their digest (the caller verified them). */
  putBlob(name: string, digest: string, bytes: Buffer): void {
    const target = this.blobPath(name, digest);
    if (existsSync(target)) return;
    mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
    writeBytes(target, bytes);
  }

  /** Removes the blobs no set in `keep` names. */
  pruneBlobs(name: string, keep: ReadonlySet<string>): void {
    const dir = join(this.sourceDir(name), 'blobs');
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const file of names) if (!keep.has(file)) rmSync(join(dir, file), { force: true });
  }

  /** The folder an approved skill is loaded from. */
  skillDir(source: string, skill: string): string {
    return join(this.skillsDir, `${source}.${skill}`);
  }

  /** The skill folders of `source` there now, by served name. */
  loadedSkills(source: string): string[] {
    try {
      return readdirSync(this.skillsDir)
        .filter((entry) => entry.startsWith(`${source}.`))
        .map((entry) => entry.slice(source.length + 1));
    } catch {
      return [];
    }
  }

  /** Writes an approved skill's folder from its blobs: beside its place first, then renamed over it in whole. */
  writeSkill(source: string, skill: string, files: readonly FileRecord[]): void {
    mkdirSync(this.skillsDir, { recursive: true, mode: 0o700 });
    const staging = join(this.skillsDir, `.staging-${randomBytes(6).toString('hex')}`);
    try {
      mkdirSync(staging, { mode: 0o700 });
      for (const file of files) {
        const target = join(staging, ...file.path.split('/'));
        if (!isInside(staging, target) || target === staging) throw new Error(`'${file.path}' leaves the skill's folder`);
        mkdirSync(dirname(target), { recursive: true, mode: 0o755 });
        writeBytes(target, this.blob(source, file.digest));
      }
      const place = this.skillDir(source, skill);
      const old = existsSync(place) ? `${staging}-old` : null;
      if (old !== null) renameSync(place, old);
      renameSync(staging, place);
      if (old !== null) rmSync(old, { recursive: true, force: true });
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  }

  removeSkill(source: string, skill: string): void {
    rmSync(this.skillDir(source, skill), { recursive: true, force: true });
  }

  /** Everything of a source: its state, its blobs and its skills' folders. */
  removeSource(name: string): void {
    for (const skill of this.loadedSkills(name)) this.removeSkill(name, skill);
    rmSync(this.sourceDir(name), { recursive: true, force: true });
  }
}

/** Writes `bytes` to a new file at `target`: a temp file beside it (a short hidden name, so a 255-byte name still fits), flushed, renamed in. */
function writeBytes(target: string, bytes: Buffer): void {
  const temp = join(dirname(target), `.${randomBytes(8).toString('hex')}.tmp`);
  const fd = openSync(temp, 'wx', 0o644);
  try {
    writeSync(fd, bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, target);
}

const EMPTY: SourceState = { checkedAt: null, error: null, skills: {}, approved: {} };

/** Parsed state files, by path, while their size and mtime stay the same: the root check reads one per skill it loads. */
const read = new Map<string, { key: string; state: SourceState }>();

/** A source's state file; an empty state when there is none or it does not parse. */
export function readState(path: string): SourceState {
  let key: string;
  try {
    const st = statSync(path);
    key = `${st.size}:${st.mtimeMs}:${st.ino}`;
  } catch {
    return structuredClone(EMPTY);
  }
  const known = read.get(path);
  if (known?.key === key) return structuredClone(known.state);
  try {
    const state = { ...EMPTY, ...(JSON.parse(readFileSync(path, 'utf8')) as Partial<SourceState>) };
    read.set(path, { key, state });
    return structuredClone(state);
  } catch {
    return structuredClone(EMPTY);
  }
}
