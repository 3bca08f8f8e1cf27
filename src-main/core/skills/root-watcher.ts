/**
 * Watching the skill roots for the registry: says at once which skill a change is about
 * (`touched`), and again once its writes have settled (`settled`, when the registry reloads it).
 * When the OS refuses to watch more files (inotify's limit), it falls back to polling; a path it
 * may not watch (EACCES) is left unwatched; either way it says so per root (status) instead of
 * failing, and it stops vouching that every change is reported (`reliable`). It follows links as
 * the loader does, never out of a skill nor back into it, and watches at most a budget of paths per skill.
 */
import { existsSync, mkdirSync, realpathSync, type Stats } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import type * as Chokidar from 'chokidar';
import type { ChokidarOptions, FSWatcher } from 'chokidar';
import type { RootWatch, SkillRoot } from '../../shared/model.js';
import { MAX_SKILL_FILES, followLink } from './walk.js';
import { hasSkillFile, nameSegment } from './root-layout.js';
import { lazyRequire } from '../lazy-require.js';

/** Required, not imported: the CLI bundle's chunks compile with a code cache only while they import nothing dynamically (cli/code-cache.ts). */
const chokidar = lazyRequire<typeof Chokidar>('chokidar');

/** How long the watcher waits for a burst of writes (an editor's save, a git checkout) to settle. */
const RELOAD_DEBOUNCE_MS = 150;

/** How often a root that does not exist yet is looked for (the watcher cannot see it appear). */
const MISSING_ROOT_CHECK_MS = 2000;

/** How often the roots are scanned once the OS refuses native watches. */
const POLL_INTERVAL_MS = 2000;

/** Errors that mean the OS will not watch more files (inotify's limit, open files); polling still works. */
const LIMIT_ERRORS = new Set(['ENOSPC', 'EMFILE', 'ENFILE']);

/** Problems kept per root: enough to say what is wrong, bounded however many paths fail. */
const MAX_PROBLEMS = 20;

/** Paths watched in one skill at most: the loader walks no more files than that either. */
export const WATCH_BUDGET = MAX_SKILL_FILES;

/** Where a path lies: its root, and its segments below it. */
interface Located {
  root: SkillRoot;
  segments: string[];
}


/** Starts a chokidar watcher; tests pass one that can inject errors. */
export type WatchFactory = (paths: string[], options: ChokidarOptions) => FSWatcher;

/** What a RootWatcher tells its owner. */
export interface RootWatcherListener {
  /** A change under the skill `name` (null: anywhere in the roots) was seen, before its writes have settled. */
  touched(name: string | null): void;
  /** The writes under `name` ('': anywhere in the roots) have settled: time to read it again. */
  settled(name: string): void;
}

export class RootWatcher {
  private watcher: FSWatcher | null = null;
  private pending = new Map<string, NodeJS.Timeout>();
  private missingRoots: NodeJS.Timeout | null = null;
  private closed = false;
  /** Ends the wait for the current watcher's 'ready' (it is ready, closed, or being replaced). */
  private settleStart: (() => void) | null = null;
  /** Whether the current watcher has finished its initial scan (before that, a change may go unseen). */
  private ready = false;
  /** How the roots are watched; null until start() is called. */
  private mode: RootWatch['mode'] | null = null;
  private readonly problems = new Map<string, RootWatch['problems']>();
  /** Roots whose own directory cannot be watched. */
  private readonly unwatched = new Set<string>();
  /** Paths the current watcher watches, per skill folder (see WATCH_BUDGET). */
  private readonly spent = new Map<string, Set<string>>();
  /** Skill folders whose budget ran out (said once each). */
  private readonly overBudget = new Set<string>();

  constructor(
    private readonly roots: readonly SkillRoot[],
    private readonly listener: RootWatcherListener,
    private readonly startWatcherWith?: WatchFactory,
    private readonly budget = WATCH_BUDGET,
  ) {}

  /**
   * Starts watching the roots (creating the user's own skills dir). Resolves once the watcher is
   * ready, or it was closed meanwhile; once started or closed, does nothing.
   */
  async start(): Promise<void> {
    if (this.mode !== null || this.closed) return;
    for (const root of this.roots) {
      if (root.kind === 'home' || root.kind === 'packs') mkdirSync(root.path, { recursive: true });
    }
    this.mode = 'native';
    await this.startWatcher(false);
    if (!this.closed) this.watchForMissingRoots();
  }

  /**
   * True while the OS reports every change under the roots as it happens: each then reaches
   * `touched` at once. Not while polling (a change waits for the next scan) nor once any path
   * could not be watched.
   */
  get reliable(): boolean {
    return this.watcher !== null && this.ready && this.mode === 'native' && this.problems.size === 0 && this.unwatched.size === 0;
  }

  /** How `root` (a path of one of the roots) is watched, or null before start(). */
  status(root: string): RootWatch | null {
    if (this.mode === null) return null;
    return { mode: this.unwatched.has(root) ? 'off' : this.mode, problems: [...(this.problems.get(root) ?? [])] };
  }

  /** The root a path lies in and the path relative to it. */
  private locate(path: string): Located | null {
    for (const root of this.roots) {
      const rel = relative(root.path, path);
      if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) continue;
      return { root, segments: rel === '' ? [] : rel.split(sep) };
    }
    return null;
  }

  private async startWatcher(polling: boolean): Promise<void> {
    // chokidar loads only when something watches: a one-shot CLI command never does.
    const startWatcherWith = this.startWatcherWith ?? chokidar().watch;
    if (this.closed) return;
    const watcher = startWatcherWith(
      this.roots.map((r) => r.path).filter((p) => existsSync(p) && !this.unwatched.has(p)),
      {
        ignoreInitial: true,
        followSymlinks: true,
        ignored: (path: string, stats?: Stats) => this.ignores(path, stats),
        ...(polling ? { usePolling: true, interval: POLL_INTERVAL_MS, binaryInterval: POLL_INTERVAL_MS } : {}),
      },
    );
    this.watcher = watcher;
    watcher.on('all', (event, path) => {
      if (event === 'unlink' || event === 'unlinkDir') this.release(path);
      this.schedule(path);
    });
    // Raw events arrive straight from fs.watch, before chokidar stats the path: the earliest word of a change.
    watcher.on('raw', (_event, path, details) => this.touch((details as { watchedPath?: string } | undefined)?.watchedPath, path as string | null));
    // Without a listener an 'error' event would throw out of the app, serve or mcp.
    watcher.on('error', (error) => this.watchFailed(watcher, error));
    return new Promise<void>((resolve) => {
      const settle = (): void => {
        if (this.settleStart === settle) this.settleStart = null;
        resolve();
      };
      this.settleStart = settle;
      watcher.once('ready', () => {
        this.ready = this.watcher === watcher;
        settle();
      });
    });
  }

  private async stopWatcher(): Promise<void> {
    const watcher = this.watcher;
    this.watcher = null;
    this.ready = false;
    this.spent.clear();
    this.settleStart?.();
    await watcher?.close();
  }

  /**
   * Whether chokidar leaves `path` alone. Hidden entries inside a root (.git, editor swap files) are
   * not skill content (a root itself may be hidden: ~/.claude/skills). Once chokidar has stat'ed a
   * path, a link the loader would not follow stays unwatched, and so does a path past its skill's budget.
   */
  private ignores(path: string, stats: Stats | undefined): boolean {
    const located = this.locate(path);
    if (located === null) return false;
    if (located.segments.some((segment) => segment.startsWith('.'))) return true;
    if (stats === undefined || located.segments.length === 0) return false;
    // chokidar filters a folder's entries by their lstat: a link says so there, before it is ever followed.
    if (stats.isSymbolicLink() && !this.followsLink(located, path)) return true;
    return !this.spend(located, path);
  }

  /** The folder of the skill a located path lies in, or null above skill level (a pack folder). */
  private skillDirOf({ root, segments }: Located): string | null {
    const depth = nameSegment(root) + 1;
    return segments.length < depth ? null : join(root.path, ...segments.slice(0, depth));
  }

  /**
   * The loader's rule for the link at `path`: a skill folder that is a link is followed when it holds
   * a SKILL.md; inside a skill, only a link to a file inside it. A link to a folder inside the skill
   * leads back into what is watched under its own path already (following it walks the skill again,
   * link by link: `self -> .`); one out of the skill (`up -> ..`) is no part of it. A pack folder is never a link.
   */
  private followsLink(located: Located, path: string): boolean {
    const skillDir = this.skillDirOf(located);
    if (skillDir === null) return false;
    if (skillDir === path) return hasSkillFile(dirname(path), basename(path));
    let canonical: string;
    try {
      canonical = realpathSync.native(skillDir);
    } catch {
      return false;
    }
    const target = followLink(canonical, path);
    return target.kind === 'inside' && !target.stats.isDirectory();
  }

  /** Counts `path` against its skill's watch budget; false (and a problem said once) when the budget is spent. */
  private spend(located: Located, path: string): boolean {
    const skillDir = this.skillDirOf(located);
    if (skillDir === null) return true;
    let watched = this.spent.get(skillDir);
    if (watched === undefined) this.spent.set(skillDir, (watched = new Set()));
    if (watched.has(path)) return true;
    if (watched.size < this.budget) {
      watched.add(path);
      return true;
    }
    if (!this.overBudget.has(skillDir)) {
      this.overBudget.add(skillDir);
      // From here on a change in this skill may go unreported: nothing remembered is vouched for any more.
      this.listener.touched(null);
      const message = `not all watched: the skill holds more than ${this.budget} paths; changes past them are seen only when it is loaded again`;
      this.noteProblem(located.root.path, { path: skillDir, code: 'BUDGET', message });
      process.emitWarning(`skill roots: ${skillDir} ${message}`);
    }
    return false;
  }

  /** A watched path is gone: it no longer counts against its skill's budget. */
  private release(path: string): void {
    const located = this.locate(path);
    const skillDir = located === null ? null : this.skillDirOf(located);
    if (skillDir === null) return;
    if (skillDir === path) {
      this.spent.delete(skillDir);
      return;
    }
    const watched = this.spent.get(skillDir);
    if (watched === undefined) return;
    watched.delete(path);
    // chokidar does not always report each path under a removed folder: they go with it.
    const inside = `${path}${sep}`;
    for (const each of watched) if (each.startsWith(inside)) watched.delete(each);
  }

  private noteProblem(root: string, problem: RootWatch['problems'][number]): void {
    const list = this.problems.get(root) ?? [];
    if (list.length < MAX_PROBLEMS && !list.some((p) => p.path === problem.path && p.code === problem.code)) list.push(problem);
    this.problems.set(root, list);
  }

  /** A watcher error: fall back to polling at the OS's limit, otherwise stop watching the path that failed. */
  private watchFailed(watcher: FSWatcher, error: unknown): void {
    if (watcher !== this.watcher || this.closed) return;
    // From here on a change may go unreported (or be reported late): nothing remembered is vouched for any more.
    this.listener.touched(null);
    const errno = error as NodeJS.ErrnoException;
    const code = typeof errno.code === 'string' ? errno.code : 'EUNKNOWN';
    const path = typeof errno.path === 'string' ? errno.path : null;
    const detail = error instanceof Error ? error.message : String(error);
    const located = path === null ? null : this.locate(path);
    const roots = located === null ? this.roots.map((r) => r.path) : [located.root.path];
    if (LIMIT_ERRORS.has(code) && this.mode === 'native') {
      this.mode = 'polling';
      const message = `the system refused to watch more files (${code}): changes are found by scanning every ${POLL_INTERVAL_MS / 1000} s instead; raise fs.inotify.max_user_watches to watch natively`;
      for (const root of roots) this.noteProblem(root, { path: path ?? root, code, message });
      process.emitWarning(`skill roots: ${message}`);
      void this.restartPolling();
      return;
    }
    const message = LIMIT_ERRORS.has(code) ? `not watched: even polling failed (${detail})` : `not watched: ${detail}`;
    for (const root of roots) this.noteProblem(root, { path: path ?? root, code, message });
    process.emitWarning(`skill roots: ${path ?? 'a watched path'} ${message}`);
    if (LIMIT_ERRORS.has(code)) {
      this.mode = 'off';
      void this.stopWatcher();
    } else if (path !== null) {
      if (located !== null && located.segments.length === 0) this.unwatched.add(located.root.path);
      watcher.unwatch(path);
    }
  }

  /** Replaces the native watcher with a polling one, then rescans once for what changed meanwhile. */
  private async restartPolling(): Promise<void> {
    await this.stopWatcher();
    if (this.closed) return;
    await this.startWatcher(true);
    if (this.closed || this.watcher === null) return;
    this.scheduleName('');
  }

  /** Starts watching each root that did not exist at start once it appears, and loads its skills. */
  private watchForMissingRoots(): void {
    const missing = new Set(this.roots.map((r) => r.path).filter((p) => !existsSync(p)));
    if (missing.size === 0) return;
    this.missingRoots = setInterval(() => {
      for (const path of missing) {
        if (!existsSync(path)) continue;
        missing.delete(path);
        this.watcher?.add(path);
        this.schedule(path);
      }
      if (missing.size === 0 && this.missingRoots) {
        clearInterval(this.missingRoots);
        this.missingRoots = null;
      }
    }, MISSING_ROOT_CHECK_MS);
    this.missingRoots.unref();
  }

  /** Says at once (before the reload's debounce) which skill a raw event is about; null when it may be any. */
  private touch(watchedPath: string | undefined, path: string | null): void {
    if (watchedPath === undefined) return;
    const located = this.locate(watchedPath);
    if (located === null) return;
    // The watched directory's segments, then the entry the event names in it: the skill's is at nameSegment.
    const name = [...located.segments, ...(path === null ? [] : path.split(sep))][nameSegment(located.root)];
    this.listener.touched(name === undefined || name === '' ? null : name);
  }

  private schedule(path: string): void {
    const located = this.locate(path);
    if (located === null) return;
    // A change to a pack folder itself (installed, replaced, removed) may touch any of its skills: ''.
    const name = located.segments[nameSegment(located.root)] ?? '';
    this.listener.touched(name === '' ? null : name);
    this.scheduleName(name);
  }

  /** Says `name` (every name, for '') settled once its writes have stopped for the debounce. */
  private scheduleName(name: string): void {
    const key = name === '' ? '\0all' : name;
    clearTimeout(this.pending.get(key));
    this.pending.set(
      key,
      setTimeout(() => {
        this.pending.delete(key);
        this.listener.settled(name);
      }, RELOAD_DEBOUNCE_MS),
    );
  }

  /** Stops watching, also while the watcher is still starting (it is closed, not left running). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.missingRoots) clearInterval(this.missingRoots);
    this.missingRoots = null;
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
    await this.stopWatcher();
  }
}
