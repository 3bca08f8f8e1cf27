/**
 * A big skill's tree fingerprint (tree-fingerprint.ts) taken on a helper thread while the caller
 * goes on. A search of one 5,000-file skill from the command line spent ~25 ms on its files' stats
 * before it queried, yet only its answer needs them, not the query (gateway/service.ts searches the
 * catalog meanwhile, and keeps the answer only if the stats find the skill unchanged).
 *
 * A helper takes ~20 ms to start, so it is started as the command starts, before the library loads,
 * and only for a name that had a big tree when last looked at (the hint beside the parse cache): an
 * idle helper costs ~5 ms more at exit, more than a small skill's stats take. A helper that has not
 * started by the time its answer is wanted, or fails, costs nothing but its start: the stats are
 * then taken on the caller's thread, as without one.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as WorkerThreads from 'node:worker_threads';
import type { MessagePort, Worker } from 'node:worker_threads';
import type { SkillTree } from './tree-fingerprint.js';

/** Paths (folders, files, links) from which a tree is worth a helper: ~15 ms of stats, against its ~7 ms of start and exit. */
export const BIG_TREE = 3000;

/** What the helper's state cell says: started, answered or failed (0 while it starts). */
export const HELPER_READY = 1;
export const HELPER_ANSWERED = 2;
export const HELPER_FAILED = 3;

/** What tree-check-worker.ts is started with. */
export interface TreeCheckData {
  port: MessagePort;
  /** `[0]`: 0 while starting, then HELPER_READY, then HELPER_ANSWERED or HELPER_FAILED. */
  state: Int32Array;
}

/** What the helper is sent: the one tree it checks. */
export interface TreeCheckWork {
  dir: string;
  tree: SkillTree;
}

/** How long a started helper may take over its answer before this thread takes the stats itself. */
const STALL_MS = 10_000;

/**
 * The helper's script beside this module: the CLI bundle's CommonJS one (it starts ~5 ms sooner than
 * an ES module), or dist/node's. Found when asked, so the helper, which takes its constants from
 * here, runs nothing of this module.
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
  worker: Worker;
  port: MessagePort;
  state: Int32Array;
  /** The tree it was given, when it was given one. */
  posted: TreeCheckWork | null;
}

/** Tree fingerprints for one command about one skill: on a helper thread when the hint says its tree is big. */
export class TreeChecks {
  private helper: Helper | null;

  private constructor(
    private readonly file: string,
    private readonly names: Set<string>,
    script: string | null,
  ) {
    this.helper = script === null ? null : start(script);
  }

  /** For a command about the skill named `name` under `home`: its helper starts now when the hint names it (`script`: the helper's, for tests). */
  static forSkill(home: string, name: string, script?: string): TreeChecks {
    const file = bigTreesFile(home);
    const names = readNames(file);
    return new TreeChecks(file, names, names.has(name) ? (script ?? helperScript()) : null);
  }

  /** Whether a helper was started. */
  get helped(): boolean {
    return this.helper !== null;
  }

  /** Resolves once the helper has started (true), or when there is none or it could not start (false): for a caller that can wait (tests). */
  started(): Promise<boolean> {
    const helper = this.helper;
    if (helper === null) return Promise.resolve(false);
    return new Promise((resolve) => {
      helper.worker.once('error', () => resolve(false));
      helper.worker.once('exit', () => resolve(Atomics.load(helper.state, 0) !== 0));
      const atomics = Atomics as unknown as { waitAsync(array: Int32Array, index: number, value: number): { value: Promise<unknown> | string } };
      const { value } = atomics.waitAsync(helper.state, 0, 0);
      void Promise.resolve(value).then(() => resolve(true));
    });
  }

  /** Hands the helper `tree` under `dir` to fingerprint; false when there is no helper, or it has a tree already. */
  post(dir: string, tree: SkillTree): boolean {
    const helper = this.helper;
    if (helper === null || helper.posted !== null) return false;
    helper.posted = { dir, tree };
    try {
      helper.port.postMessage(helper.posted);
      return true;
    } catch {
      this.close();
      return false;
    }
  }

  /**
   * The fingerprint of `tree` under `dir`: the helper's answer when it was posted this very tree,
   * else (no helper, another tree, a helper not started yet or failed) what `here` takes on this thread.
   */
  fingerprint(dir: string, tree: SkillTree, here: () => string): string {
    const helper = this.helper;
    if (helper === null || helper.posted === null || helper.posted.dir !== dir || helper.posted.tree !== tree) return here();
    // A started helper is waited for; one not started yet (or failed) is not: the stats are quicker taken here.
    if (Atomics.load(helper.state, 0) === HELPER_READY) Atomics.wait(helper.state, 0, HELPER_READY, STALL_MS);
    const answer = Atomics.load(helper.state, 0) === HELPER_ANSWERED ? process.getBuiltinModule('node:worker_threads').receiveMessageOnPort(helper.port)?.message : undefined;
    this.close();
    return typeof answer === 'string' ? answer : here();
  }

  /** Records whether the skill in `dir` has a big tree (`paths` in all), so the next command about it starts a helper or does not. */
  note(dir: string, paths: number): void {
    const name = basename(dir);
    const big = paths >= BIG_TREE;
    if (big === this.names.has(name)) return;
    if (big) this.names.add(name);
    else this.names.delete(name);
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      const temp = `${this.file}.${process.pid}.tmp`;
      writeFileSync(temp, [...this.names].map((known) => `${known}\n`).join(''));
      renameSync(temp, this.file);
    } catch {
      // Only a hint: a command that cannot write it starts a helper or not as the last one could say.
    }
  }

  /** Ends the helper (one still starting or at work ends with the process, which it does not hold open). */
  close(): void {
    const helper = this.helper;
    this.helper = null;
    if (helper === null) return;
    helper.port.close();
    // Ended only when it could not have answered: one that did ends on its own, and terminate() would stop the process's exit to wait for it.
    if (Atomics.load(helper.state, 0) !== HELPER_ANSWERED) void helper.worker.terminate();
  }
}

function start(script: string): Helper | null {
  // Absent when running from TypeScript sources: no helper, as none is built.
  if (!existsSync(script)) return null;
  try {
    const threads: typeof WorkerThreads = process.getBuiltinModule('node:worker_threads');
    const { MessageChannel, Worker: Thread } = threads;
    const { port1, port2 } = new MessageChannel();
    const state = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
    const data: TreeCheckData = { port: port2, state };
    // It reads no variable and writes nothing: the environment shared rather than copied, and stdout and stderr its own
    // rather than the process's (which sharing would open as streams), it starts ~5 ms sooner.
    const worker = new Thread(script, { workerData: data, transferList: [port2], env: threads.SHARE_ENV, stdout: true, stderr: true });
    // A helper that cannot start costs only time: its stats are taken here.
    worker.on('error', () => undefined);
    worker.unref();
    return { worker, port: port1, state, posted: null };
  } catch {
    return null;
  }
}
