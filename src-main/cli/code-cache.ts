/**
 * Compiled code kept between runs of the CLI, on a Node that keeps none itself (Node 22.1 brought
 * module.enableCompileCache, which the bin uses where it exists). Without it, every `skilltray …`
 * compiled the same 700 KB of chunks again: loading a search's chunks took 45 ms, 34 ms with this
 * cache, and a whole `list` or `describe` is 13–15% faster. Each CommonJS chunk of the bundle
 * (dist/cli/*.cjs) is compiled with the V8 code cache its last run left; a chunk compiled without
 * one leaves one at exit, taken after the command ran, so the functions it compiled on the way are
 * in it too.
 *
 * V8 checks a cache against its own version, its flags and the length of the source, not the
 * source itself, and not its data at all: an entry also names the chunk's path, size, mtime and
 * inode and holds a checksum of its data, and one that does not match the file as it is now, or its
 * own sum, is not used. Compiled code is code: the folder must be a directory of this user that no
 * one else may write to (POSIX), or nothing is read from it or written to it. Every failure here
 * costs only the compile the cache would have saved.
 */
import { closeSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { Script } from 'node:vm';
import { crc32 } from 'node:zlib';

/** What the cache did this run. */
export interface CodeCacheCounts {
  /** Chunks compiled from their cache. */
  hits: number;
  /** Chunks with no usable entry (none, another build's, damaged, or unreadable): compiled afresh, and an entry written. */
  misses: number;
  /** Entries V8 refused (the run that wrote one had other V8 flags, such as --cpu-prof): compiled afresh and written again. */
  rejected: number;
  /** Chunks left to Node's own loader: they import dynamically, which a script compiled here cannot. */
  skipped: number;
}

/**
 * A dynamic import in a chunk (`import(` or `import /* … *\/ (`): a script compiled with vm.Script
 * cannot run one without Node's experimental module flags, so such a chunk is left to Node. Text
 * that only looks like one (in a string) costs that chunk its cache, never a failure.
 */
const DYNAMIC_IMPORT = /\bimport\s*(?:\(|\/[/*])/;

interface CompilingModule {
  exports: unknown;
  _compile(content: string, filename: string): unknown;
}

/** 32-bit FNV-1a of `text`, as hex: names an entry after its chunk's path (no node:crypto, whose load alone costs ~6 ms on Node 20). */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/** What an entry must name to be used for `filename`: the chunk as it is on disk now. */
function identityOf(filename: string): string {
  const st = statSync(filename);
  return `${filename}\0${st.size}\0${st.mtimeMs}\0${st.ino}`;
}

/** Whether `path` is a real directory (not a link) of this user that no one else may write to; always on Windows, whose temp folder is the user's own. */
function isOwnPrivateDir(path: string): boolean {
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (st === undefined || !st.isDirectory()) return false;
  if (process.platform === 'win32' || process.geteuid === undefined) return true;
  return st.uid === process.geteuid() && (st.mode & 0o022) === 0;
}

/** `path` made (0700) if it is missing, when it is then a private directory of this user; else null. */
function privateDir(path: string): string | null {
  try {
    mkdirSync(path, { recursive: true, mode: 0o700 });
  } catch {
    return null;
  }
  return isOwnPrivateDir(path) ? path : null;
}

/**
 * The folder for this V8's entries: under NODE_COMPILE_CACHE when set (the variable Node's own
 * cache reads), else under the temp folder, one per user, as Node 22 keeps its own.
 */
function cacheDir(env: NodeJS.ProcessEnv): string | null {
  const uid = process.geteuid?.() ?? 'user';
  const base = privateDir(env.NODE_COMPILE_CACHE || join(tmpdir(), `skilltray-code-cache-${uid}`));
  return base === null ? null : privateDir(join(base, `v8-${process.versions.v8}-${process.arch}`));
}

/**
 * An entry's head: the identity it was written for and the CRC-32 of its V8 data. V8 deserializes
 * cached data without checking it (a flipped byte aborted the process), so the sum is checked first.
 */
function headOf(identity: string, data: Uint8Array): Buffer {
  return Buffer.from(`${identity}\0${crc32(data).toString(16)}\0\0`);
}

/** The V8 data of `entry` when it was written for `identity` and is whole, else undefined. Layout: head, data. */
function readEntry(entry: string, identity: string): Buffer | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(entry);
  } catch {
    return undefined;
  }
  const end = bytes.indexOf('\0\0');
  if (end === -1) return undefined;
  const data = bytes.subarray(end + 2);
  const head = headOf(identity, data);
  return data.length > 0 && head.length === end + 2 && bytes.subarray(0, end + 2).equals(head) ? data : undefined;
}

/** Writes `entry` whole or not at all (a reader never sees half of one; two writers leave one of theirs). */
function writeEntry(entry: string, identity: string, data: Buffer): void {
  const temp = `${entry}.${process.pid}.tmp`;
  try {
    const fd = openSync(temp, 'w', 0o600);
    try {
      writeSync(fd, headOf(identity, data));
      writeSync(fd, data);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, entry);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * How long an entry no run has written is kept: each build's chunks have new names, so the entries
 * of builds gone would pile up. One still in use that goes costs a single compile.
 */
const STALE_MS = 14 * 24 * 3600 * 1000;

/** Removes the entries of `dir` (and writes cut short) not written for STALE_MS: done when a run writes, never when it only reads. */
function forgetStale(dir: string): void {
  const before = Date.now() - STALE_MS;
  try {
    for (const name of readdirSync(dir)) {
      const st = statSync(join(dir, name), { throwIfNoEntry: false });
      if (st?.isFile() && st.mtimeMs < before) rmSync(join(dir, name), { force: true });
    }
  } catch {
    // Another run pruning at once, or the folder gone: the next write tries again.
  }
}

/**
 * Compiles every CommonJS chunk under `codeDir` that loads from now on with its cached code, and
 * writes the missing entries when the process exits. Returns this run's counts, or null when there
 * is no folder to keep the cache in (or NODE_DISABLE_COMPILE_CACHE is set, as for Node's own).
 */
export function keepCompiledCode(codeDir: string, env: NodeJS.ProcessEnv = process.env): CodeCacheCounts | null {
  if (env.NODE_DISABLE_COMPILE_CACHE) return null;
  const dir = cacheDir(env);
  if (dir === null) return null;
  const counts: CodeCacheCounts = { hits: 0, misses: 0, rejected: 0, skipped: 0 };
  const prefix = codeDir.endsWith(sep) ? codeDir : `${codeDir}${sep}`;
  const unsaved: { script: Script; entry: string; identity: string }[] = [];
  const proto = Module.prototype as unknown as CompilingModule;
  const compile = proto._compile;
  proto._compile = function (this: CompilingModule, content: string, filename: string): unknown {
    if (!filename.startsWith(prefix) || !filename.endsWith('.cjs')) return compile.call(this, content, filename);
    if (DYNAMIC_IMPORT.test(content)) {
      counts.skipped++;
      return compile.call(this, content, filename);
    }
    const entry = join(dir, `${fnv1a(filename)}.v8`);
    let identity: string;
    try {
      identity = identityOf(filename);
    } catch {
      // Gone since Node read it (a rebuild under a running command): compiled as Node would, no entry.
      return compile.call(this, content, filename);
    }
    const cachedData = readEntry(entry, identity);
    // Node's own wrapper, on the chunk's first line: line numbers in stack traces stay the chunk's.
    const script = new Script(`(function (exports, require, module, __filename, __dirname) { ${content}\n})`, { filename, cachedData });
    if (cachedData === undefined) counts.misses++;
    else if (script.cachedDataRejected === true) counts.rejected++;
    else counts.hits++;
    if (cachedData === undefined || script.cachedDataRejected === true) unsaved.push({ script, entry, identity });
    const wrapper = script.runInThisContext() as (...args: unknown[]) => unknown;
    return wrapper.call(this.exports, this.exports, createRequire(filename), this, filename, dirname(filename));
  };
  process.once('exit', () => {
    if (unsaved.length === 0) return;
    for (const { script, entry, identity } of unsaved) {
      try {
        writeEntry(entry, identity, script.createCachedData());
      } catch {
        // A full disk or a folder gone since: the next run compiles this chunk again.
      }
    }
    forgetStale(dir);
  });
  return counts;
}
