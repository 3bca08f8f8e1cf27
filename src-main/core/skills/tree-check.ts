/**
 * A big skill's tree fingerprint (tree-fingerprint.ts) taken with a helper thread while the caller
 * goes on. A search of one 5,000-file skill from the command line spent ~25 ms on its files' stats
 * before it queried, yet only its answer needs them, not the query: gateway/service.ts searches the
 * catalog meanwhile, and keeps the answer only if the stats find the skill unchanged.
 *
 * A helper takes ~20 ms to start, so it is started as the command starts, before the library loads,
 * and only for a name that had a big tree when last looked at (the hint beside the parse cache): an
 * idle helper's start and exit made a small skill's search ~12% slower, far more than its stats
 * take. The helper and the caller's thread claim the paths a block at a time, so when the caller
 * wants the answer it takes what is left with the helper: a helper late to start, or gone, costs
 * nothing but its start.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as WorkerThreads from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { hashStats, takeStats, treeFingerprint, treeStats, type SkillTree, type TreeStats } from './tree-fingerprint.js';

/** Paths (folders, files, links) from which a tree is worth a helper: ~15 ms of stats, against its ~7 ms of start and exit. */
export const BIG_TREE = 3000;

/** What tree-check-worker.ts is started with. */
export interface TreeCheckData {
  port: MessagePort;
}

/** What the helper is sent: the one tree it takes stats of, where they go, and who hashes them. */
export interface TreeCheckWork {
  dir: string;
  tree: SkillTree;
  stats: TreeStats;
  /** `[0]`: HASH_FREE, HASHING or HASH_POSTED. */
  hashing: Int32Array;
}

/** How long the helper may hold a block of paths (~0.3 ms) or the digest (~2 ms) before this thread takes it for gone and does the work itself. */
const STALL_MS = 10_000;

/** TreeCheckWork's `hashing`: nobody hashes the stats yet; one thread does; the helper's digest is posted. */
const HASH_FREE = 0;
const HASHING = 1;
const HASH_POSTED = 2;

/** Whether this thread is to hash the tree: every stat is taken and no other thread hashes it (so the first thread to find all taken does). */
export function claimHash({ stats: { stats, progress }, hashing }: TreeCheckWork): boolean {
  return Atomics.load(progress, 1) === stats.length / 4 && Atomics.compareExchange(hashing, 0, HASH_FREE, HASHING) === HASH_FREE;
}

/** Tells the caller's thread that the helper's digest is posted. */
export function hashPosted({ hashing }: TreeCheckWork): void {
  Atomics.store(hashing, 0, HASH_POSTED);
  Atomics.notify(hashing, 0);
}

/**
 * The helper's script beside this module: the CLI bundle's CommonJS one (it starts ~5 ms sooner than
 * an ES module), or dist/node's.
 */
function helperScript(): string {
  return fileURLToPath(new URL(import.meta.url.endsWith('.cjs') ? './tree-check-worker.cjs' : './tree-check-worker.js', import.meta.url));
}

/** The hint: the folder names of skills whose trees were big when last looked at, one a line, beside the parse cache. */
export function bigTreesFile(home: string): string {
  return join(home, 'runtime', '.loader', 'big-trees');
}

function readNames(file: string): Set<string> {
  try {
    return new Set(readFileSync(file, 'utf8').split('\n').filter((name) => name !== ''));
  } catch {
    return new Set();
  }
}

interface Helper {
  port: MessagePort;
  /** The tree it was given, when it was given one. */
  posted: TreeCheckWork | null;
}

/** Tree fingerprints for one command about one skill: with a helper thread when the hint says its tree is big. */
export class TreeChecks {
  private helper: Helper | null;

  private constructor(
    private readonly file: string,
    private readonly names: Set<string>,
    script: string | null,
  ) {
    this.helper = script === null ? null : start(script);
  }

  /**
   * For a command about the skill named `name` under `home`, on `threads` threads (this one included):
   * its helper starts now when the hint names it and there is a second thread to run it on (on one
   * core a helper only takes turns with the command). `script`: the helper's, for tests.
   */
  static forSkill(home: string, name: string, threads: number, script?: string): TreeChecks {
    const file = bigTreesFile(home);
    const names = readNames(file);
    return new TreeChecks(file, names, threads >= 2 && names.has(name) ? (script ?? helperScript()) : null);
  }

  /** Whether a helper is at hand: started, and its work not yet taken up by fingerprint(). */
  get helped(): boolean {
    return this.helper !== null;
  }

  /** Hands the helper `tree` under `dir` to take stats of; false when there is no helper, or it has a tree already. */
  post(dir: string, tree: SkillTree): boolean {
    const helper = this.helper;
    if (helper === null || helper.posted !== null) return false;
    const work: TreeCheckWork = { dir, tree, stats: treeStats(tree, true), hashing: new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT)) };
    try {
      helper.port.postMessage(work);
    } catch {
      this.close();
      return false;
    }
    helper.posted = work;
    return true;
  }

  /**
   * The fingerprint of `tree` under `dir`. For the tree the helper was posted, this thread takes the
   * stats the helper has not claimed (all of them, if it has not started) and waits for the block it
   * holds; the digest is the helper's when it took the last stats before this thread asked. Any other
   * tree is fingerprinted on this thread alone.
   */
  fingerprint(dir: string, tree: SkillTree): string {
    const helper = this.helper;
    const posted = helper?.posted ?? null;
    if (helper === null || posted === null || posted.dir !== dir || posted.tree !== tree) return treeFingerprint(dir, tree).fingerprint;
    try {
      const { stats, progress } = posted.stats;
      takeStats(dir, tree, posted.stats);
      for (let done = Atomics.load(progress, 1); done < stats.length / 4; done = Atomics.load(progress, 1)) {
        if (Atomics.wait(progress, 1, done, STALL_MS) === 'timed-out') return treeFingerprint(dir, tree).fingerprint;
      }
      if (claimHash(posted)) return hashStats(tree, stats).fingerprint;
      if (Atomics.load(posted.hashing, 0) === HASHING) Atomics.wait(posted.hashing, 0, HASHING, STALL_MS);
      const answer = Atomics.load(posted.hashing, 0) === HASH_POSTED ? process.getBuiltinModule('node:worker_threads').receiveMessageOnPort(helper.port)?.message : undefined;
      return typeof answer === 'string' ? answer : hashStats(tree, stats).fingerprint;
    } finally {
      this.close();
    }
  }

  /** Records whether the skill in `dir` has a big tree (`paths` in all), so the next command about it starts a helper or does not. */
  note(dir: string, paths: number): void {
    const name = basename(dir);
    const big = paths >= BIG_TREE;
    if (big === this.names.has(name)) return;
    if (big) this.names.add(name);
    else this.names.delete(name);
    // Not core/files/atomic-write: it loads node:crypto, and this module loads with every command. A hint needs no fsync.
    const temp = `${this.file}.${process.pid}.tmp`;
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      writeFileSync(temp, [...this.names].map((known) => `${known}\n`).join(''));
      renameSync(temp, this.file);
    } catch {
      // Only a hint: a command that cannot write it starts a helper or not as the last one could say.
      rmSync(temp, { force: true });
    }
  }

  /**
   * Lets the helper go: its port closed, it ends once the block it is at is done (or, never sent a
   * tree, once it has started). It does not hold the process open meanwhile.
   */
  close(): void {
    this.helper?.port.close();
    this.helper = null;
  }
}

function start(script: string): Helper | null {
  // Absent when running from TypeScript sources: no helper, as none is built.
  if (!existsSync(script)) return null;
  try {
    const threads: typeof WorkerThreads = process.getBuiltinModule('node:worker_threads');
    const { port1, port2 } = new threads.MessageChannel();
    const data: TreeCheckData = { port: port2 };
    // It reads no variable, writes nothing and needs none of the process's flags (a preload given with --import would load in it too): the
    // environment shared rather than copied, stdout and stderr its own rather than the process's (which sharing would open as streams), and no
    // execArgv, it starts ~5 ms sooner.
    const worker = new threads.Worker(script, {
      workerData: data,
      transferList: [port2],
      env: threads.SHARE_ENV,
      stdout: true,
      stderr: true,
      execArgv: [],
    });
    // A helper that cannot start costs only time: the stats are all taken here.
    worker.on('error', () => undefined);
    worker.unref();
    return { port: port1, posted: null };
  } catch {
    return null;
  }
}
