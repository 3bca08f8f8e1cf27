/**
 * The CLI's own code cache (src-main/cli/code-cache.ts, for a Node without module.enableCompileCache):
 * a chunk compiled once runs from its cache after, and the cache can never make a chunk run code
 * other than what its file holds now: not after a rebuild of the same length, not from a damaged
 * entry, not from a folder someone else can write to.
 */
import { chmodSync, chownSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { ordinaryUser } from '../../support/ordinary-user.js';
import { tempDir, writeFiles } from '../../support/temp.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const CODE_CACHE = join(ROOT, 'dist', 'cli', 'code-cache.cjs');
const DRIVER = join(ROOT, 'test', 'fixtures', 'processes', 'code-cache-driver.mjs');
const BIN = join(ROOT, 'bin', 'skilltray.js');
const V8_DIR = `v8-${process.versions.v8}-${process.arch}`;

interface Counts {
  hits: number;
  misses: number;
  rejected: number;
  skipped: number;
}

/** A bundle of two chunks: main.cjs requires lib-<hash>.cjs, and each says who it is on stdout. */
function bundle(libSays = 'lib'): string {
  const dir = tempDir();
  writeFiles(dir, {
    'main.cjs': `'use strict';\nconst lib = require('./lib-a1.cjs');\nprocess.stdout.write('main ' + lib.says() + '\\n');\n`,
    'lib-a1.cjs': `'use strict';\nexports.says = () => ${JSON.stringify(libSays)};\n`,
  });
  return dir;
}

/** Runs main.cjs of `dir` through the code cache kept in `cache`: its stdout and the cache's counts. */
async function load(
  dir: string,
  cache: string,
  options: { entry?: string; env?: NodeJS.ProcessEnv; user?: { uid: number; gid: number } | null } = {},
): Promise<{ stdout: string; counts: Counts | null }> {
  const result = await execa(process.execPath, [DRIVER, CODE_CACHE, dir, options.entry ?? 'main.cjs'], {
    env: { PATH: process.env.PATH, NODE_COMPILE_CACHE: cache, ...options.env },
    extendEnv: false,
    ...(options.user ? { uid: options.user.uid, gid: options.user.gid } : {}),
  });
  const counts = JSON.parse(result.stderr.trim().split('\n').at(-1) as string) as Counts | null;
  return { stdout: result.stdout, counts };
}

/** The entries the cache holds for this V8 (none when its folder was never made). */
function entries(cache: string): string[] {
  try {
    return readdirSync(join(cache, V8_DIR)).sort();
  } catch {
    return [];
  }
}

describe('the code cache', () => {
  it('compiles a chunk afresh once, then from the entry that run left', async () => {
    const dir = bundle();
    const cache = join(tempDir(), 'cache');
    const first = await load(dir, cache);
    expect(first).toEqual({ stdout: 'main lib', counts: { hits: 0, misses: 2, rejected: 0, skipped: 0 } });
    expect(entries(cache)).toHaveLength(2);
    const second = await load(dir, cache);
    expect(second).toEqual({ stdout: 'main lib', counts: { hits: 2, misses: 0, rejected: 0, skipped: 0 } });
    expect(entries(cache)).toHaveLength(2);
  });

  it('runs what a rebuilt chunk holds though its length is the same (V8 checks only the length), and keeps one entry a chunk', async () => {
    const dir = bundle('old');
    const cache = join(tempDir(), 'cache');
    await load(dir, cache);
    // Written aside and renamed in, as a build does: a new file, whatever the clock's resolution.
    writeFileSync(join(dir, 'lib-a1.cjs.new'), readFileSync(join(dir, 'lib-a1.cjs'), 'utf8').replace('"old"', '"new"'));
    renameSync(join(dir, 'lib-a1.cjs.new'), join(dir, 'lib-a1.cjs'));
    const rebuilt = await load(dir, cache);
    expect(rebuilt).toEqual({ stdout: 'main new', counts: { hits: 1, misses: 1, rejected: 0, skipped: 0 } });
    expect(entries(cache)).toHaveLength(2);
    expect((await load(dir, cache)).counts?.hits).toBe(2);
  });

  it('compiles afresh from any damaged entry, runs the chunk as it is, and mends the entry', async () => {
    const dir = bundle();
    const cache = join(tempDir(), 'cache');
    await load(dir, cache);
    const names = entries(cache);
    const originals = names.map((name) => readFileSync(join(cache, V8_DIR, name)));
    const damage = fc.oneof(
      fc.record({ cut: fc.nat() }),
      fc.record({ at: fc.nat(), flip: fc.integer({ min: 1, max: 255 }) }),
      fc.record({ junk: fc.uint8Array({ maxLength: 4096 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: names.length - 1 }), damage, async (which, how) => {
        const original = originals[which] as Buffer;
        let bytes: Buffer;
        if ('cut' in how) bytes = original.subarray(0, how.cut % original.length);
        else if ('junk' in how) bytes = Buffer.from(how.junk);
        else {
          bytes = Buffer.from(original);
          const at = how.at % bytes.length;
          bytes.writeUInt8(bytes.readUInt8(at) ^ how.flip, at);
        }
        for (const [i, name] of names.entries()) writeFileSync(join(cache, V8_DIR, name), i === which ? bytes : (originals[i] as Buffer));
        const run = await load(dir, cache);
        expect(run.stdout).toBe('main lib');
        const counts = run.counts as Counts;
        expect(counts.hits + counts.misses + counts.rejected).toBe(2);
        // The next run finds every entry whole again: the damaged one was written anew.
        expect((await load(dir, cache)).counts).toEqual({ hits: 2, misses: 0, rejected: 0, skipped: 0 });
      }),
      { numRuns: 12 },
    );
  });

  it('forgets an entry no run has written for two weeks, when a run writes (a run that only reads removes nothing)', async () => {
    const dir = bundle();
    const cache = join(tempDir(), 'cache');
    await load(dir, cache);
    const gone = join(cache, V8_DIR, 'deadbeef.v8');
    writeFileSync(gone, 'the entry of a build long gone');
    const longAgo = new Date(Date.now() - 15 * 24 * 3600 * 1000);
    utimesSync(gone, longAgo, longAgo);
    expect((await load(dir, cache)).counts?.hits).toBe(2);
    expect(entries(cache)).toContain('deadbeef.v8');
    expect((await load(bundle('new'), cache)).counts?.misses).toBe(2);
    expect(entries(cache)).not.toContain('deadbeef.v8');
    expect(entries(cache)).toHaveLength(4);
  });

  it('leaves a chunk that imports dynamically to Node, which can run the import', async () => {
    const dir = tempDir();
    writeFiles(dir, { 'dyn.cjs': `'use strict';\nimport('node:os').then((os) => process.stdout.write(typeof os.cpus));\n` });
    const cache = join(tempDir(), 'cache');
    expect(await load(dir, cache, { entry: 'dyn.cjs' })).toEqual({ stdout: 'function', counts: { hits: 0, misses: 0, rejected: 0, skipped: 1 } });
    expect(entries(cache)).toEqual([]);
  });

  it('keeps nothing when NODE_DISABLE_COMPILE_CACHE is set, as Node does for its own', async () => {
    const cache = join(tempDir(), 'cache');
    expect(await load(bundle(), cache, { env: { NODE_DISABLE_COMPILE_CACHE: '1' } })).toEqual({ stdout: 'main lib', counts: null });
    expect(entries(cache)).toEqual([]);
  });

  describe('trusts only a folder of its own user that no one else may write to', () => {
    /**
     * An entry for lib-a1.cjs as its file is now whose code is another source of the same length:
     * what someone able to write into the folder could plant (a chunk's path, size, mtime and inode
     * can be read by anyone).
     */
    async function planted(dir: string, into: string): Promise<void> {
      const lib = join(dir, 'lib-a1.cjs');
      const source = readFileSync(lib, 'utf8');
      const scratch = join(tempDir(), 'cache');
      writeFileSync(lib, source.replace('"lib"', '"bad"'));
      await load(dir, scratch);
      writeFileSync(lib, source);
      const name = entries(scratch).find((entry) => readFileSync(join(scratch, V8_DIR, entry)).includes(lib)) as string;
      const impostor = readFileSync(join(scratch, V8_DIR, name));
      const code = impostor.subarray(impostor.indexOf('\0\0') + 2);
      const st = statSync(lib);
      mkdirSync(join(into, V8_DIR), { recursive: true, mode: 0o700 });
      const head = `${lib}\0${st.size}\0${st.mtimeMs}\0${st.ino}\0${crc32(code).toString(16)}\0\0`;
      writeFileSync(join(into, V8_DIR, name), Buffer.concat([Buffer.from(head), code]));
    }

    it('(the planted entry is the attack it stands for: in a folder the cache trusts, it runs)', async () => {
      const dir = bundle('lib');
      const cache = join(tempDir(), 'cache');
      mkdirSync(cache, { mode: 0o700 });
      await planted(dir, cache);
      expect((await load(dir, cache)).stdout).toBe('main bad');
    });

    it('not when others may write to the folder', async () => {
      const dir = bundle('lib');
      const cache = join(tempDir(), 'cache');
      mkdirSync(cache, { mode: 0o700 });
      await planted(dir, cache);
      chmodSync(cache, 0o777);
      expect(await load(dir, cache)).toEqual({ stdout: 'main lib', counts: null });
    });

    it('not when the folder is a link', async () => {
      const dir = bundle('lib');
      const real = join(tempDir(), 'real');
      mkdirSync(real, { mode: 0o700 });
      await planted(dir, real);
      const cache = join(tempDir(), 'cache');
      symlinkSync(real, cache);
      expect(await load(dir, cache)).toEqual({ stdout: 'main lib', counts: null });
    });

    it.runIf(ordinaryUser() !== null)('not when another user made the folder (as one could in a shared temp folder)', async () => {
      const dir = bundle('lib');
      const cache = join(tempDir(), 'cache');
      mkdirSync(cache, { mode: 0o700 });
      await planted(dir, cache);
      const other = ordinaryUser() as { uid: number; gid: number };
      chownSync(cache, other.uid, other.gid);
      expect(await load(dir, cache)).toEqual({ stdout: 'main lib', counts: null });
    });
  });

  it.runIf(ordinaryUser() !== null)('serves an ordinary user from a folder of their own in the temp folder', async () => {
    const user = ordinaryUser() as { uid: number; gid: number };
    const dir = bundle();
    const temp = tempDir();
    chmodSync(temp, 0o777);
    chmodSync(dir, 0o755);
    const env = { NODE_COMPILE_CACHE: '', TMPDIR: temp };
    const first = await load(dir, '', { env, user });
    expect(first.counts?.misses).toBe(2);
    expect((await load(dir, '', { env, user })).counts?.hits).toBe(2);
    expect(readdirSync(temp)).toEqual([`skilltray-code-cache-${user.uid}`]);
  });

  // From Node 22.1 the bin asks Node's own cache instead.
  it.skipIf('enableCompileCache' in Module)('serves the CLI: a command leaves an entry for each chunk it loaded, and runs alike from them', async () => {
    const cache = join(tempDir(), 'cache');
    const home = tempDir();
    const env = { PATH: process.env.PATH, HOME: home, SKILLTRAY_HOME: join(home, 'st'), NODE_COMPILE_CACHE: cache };
    const first = await execa(process.execPath, [BIN, 'roots'], { env, extendEnv: false });
    // main, its start chunk and the bundler's runtime at least.
    expect(entries(cache).length).toBeGreaterThanOrEqual(3);
    const written = () => entries(cache).map((name) => [name, statSync(join(cache, V8_DIR, name)).mtimeMs]);
    const before = written();
    const second = await execa(process.execPath, [BIN, 'roots'], { env, extendEnv: false });
    expect(second.stdout).toBe(first.stdout);
    expect(second.stderr).toBe(first.stderr);
    // Every chunk came from its entry: a miss would have written one anew.
    expect(written()).toEqual(before);
  });
});
