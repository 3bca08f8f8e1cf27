/**
 * The skills currently loaded, keyed by name, first root wins. Keeps itself current by watching
 * the roots and reloading only the skill a change touched, then says what changed. Loading is
 * lazy (a command about one skill resolves only that name) and a skill whose files have not
 * changed since it was last parsed is taken from the parse cache, not parsed again. When the OS
 * refuses to watch more files (inotify's limit), it falls back to polling; a path it may not watch
 * (EACCES) is left unwatched; either way it says so per root (watchStatus) instead of failing.
 */
import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { watch, type ChokidarOptions, type FSWatcher } from 'chokidar';
import type { RootWatch, Skill, SkillRoot } from '../../shared/model.js';
import { walkSkill, type SkillWalk } from './files.js';
import { SETTLE_MS, treeFingerprint, treeOf } from './fingerprint.js';
import { ParseCache } from './parse-cache.js';
import { parseSkill } from './parse-skill.js';
import { emitSafely } from '../events.js';

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

/** Starts a chokidar watcher; tests pass one that can inject errors. */
export type WatchFactory = (paths: string[], options: ChokidarOptions) => FSWatcher;

export type SkillChange =
  | { kind: 'added' | 'changed'; name: string; skill: Skill }
  | { kind: 'removed'; name: string };

/** A skill hidden by one of the same name in a root that comes first. */
export interface ShadowedSkill {
  name: string;
  winner: { dir: string; root: SkillRoot };
  loser: { dir: string; root: SkillRoot };
}

/** True for a name that can be a skill directory's: one visible path segment. */
function isSkillName(name: string): boolean {
  return name !== '' && !name.startsWith('.') && !/[/\\\0]/.test(name);
}

/** Whether `<root>/<name>` is a skill: a visible directory (or link to one) holding a SKILL.md file. */
export function hasSkillFile(root: string, name: string): boolean {
  if (!isSkillName(name)) return false;
  try {
    return statSync(join(root, name, 'SKILL.md')).isFile();
  } catch {
    // no SKILL.md: not a skill (resolution reports E010 if someone asks for it by name)
    return false;
  }
}

/** Names of the directories in `root` that hold a SKILL.md (symlinked directories included). */
export function skillDirNames(root: string): string[] {
  let entries;
  try {
    entries = readdirSync(root, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => (entry.isDirectory() || entry.isSymbolicLink()) && hasSkillFile(root, entry.name))
    .map((entry) => entry.name)
    .sort();
}

/** Parses one skill directory (the walk is the one its fingerprint was taken from, or null if it failed). */
export type ParseSkill = (dir: string, root: SkillRoot, walk: SkillWalk | null) => Skill;

export interface RegistryOptions {
  /** Where parsed skills are kept between loads (and, file-backed, between processes); in memory by default. */
  cache?: ParseCache;
  /** How one skill is parsed (parseSkill); tests pass a counting wrapper. */
  parse?: ParseSkill;
  /** How the roots are watched (chokidar's watch); tests pass one that can inject errors. */
  watch?: WatchFactory;
}

export class SkillRegistry extends EventEmitter<{ change: [SkillChange]; touched: [string | null] }> {
  private skills = new Map<string, Skill>();
  private loaded = false;
  /** Names resolved one at a time before a full load (a command about one skill). */
  private single = new Map<string, Skill | undefined>();
  private changes = 0;
  private watcher: FSWatcher | null = null;
  private pending = new Map<string, NodeJS.Timeout>();
  private missingRoots: NodeJS.Timeout | null = null;
  private readonly cache: ParseCache;
  private readonly parse: ParseSkill;
  /** Canonical directories of loaded names, while watching (see canonicalDirOf). */
  private readonly canonical = new Map<string, string>();
  private readonly startWatcherWith: WatchFactory;
  private closed = false;
  /** Ends the wait for the current watcher's 'ready' (it is ready, closed, or being replaced). */
  private settleStart: (() => void) | null = null;
  /** Whether the current watcher has finished its initial scan (before that, a change may go unseen). */
  private ready = false;
  /** How the roots are watched; null until watch() is called. */
  private mode: RootWatch['mode'] | null = null;
  private readonly problems = new Map<string, RootWatch['problems']>();
  /** Roots whose own directory cannot be watched. */
  private readonly unwatched = new Set<string>();

  constructor(
    readonly roots: readonly SkillRoot[],
    options: RegistryOptions = {},
  ) {
    super();
    this.cache = options.cache ?? ParseCache.memory();
    this.parse = options.parse ?? ((dir, root, walk) => parseSkill(dir, root, walk ?? undefined));
    this.startWatcherWith = options.watch ?? watch;
  }

  /** Loads every skill of every root (unchanged skills from the parse cache). */
  load(): this {
    this.cache.preload();
    // Which roots hold each name, from one listing per root (so no SKILL.md is looked up twice).
    const holders = new Map<string, SkillRoot[]>();
    for (const root of this.roots) {
      for (const name of skillDirNames(root.path)) holders.set(name, [...(holders.get(name) ?? []), root]);
    }
    const next = new Map<string, Skill>();
    for (const name of [...holders.keys()].sort()) next.set(name, this.resolveIn(name, holders.get(name) as SkillRoot[]));
    this.cache.retainOnly(new Set([...next.values()].map((skill) => skill.dir)));
    this.cache.flush();
    this.skills = next;
    this.single.clear();
    this.loaded = true;
    this.changes++;
    return this;
  }

  private ensureLoaded(): void {
    if (!this.loaded) this.load();
  }

  /** Resolves one name over all roots: the winner, with the skills it shadows. */
  private resolve(name: string): Skill | undefined {
    const holders = this.roots.filter((root) => hasSkillFile(root.path, name));
    return holders.length === 0 ? undefined : this.resolveIn(name, holders);
  }

  /** The skill `name` in the first of `holders` (the roots that have it, in precedence order), shadowing the rest. */
  private resolveIn(name: string, holders: readonly SkillRoot[]): Skill {
    const [first, ...rest] = holders as [SkillRoot, ...SkillRoot[]];
    const skill = this.parseDir(join(first.path, name), first);
    skill.shadows = rest.map((root) => ({ dir: join(root.path, name), root }));
    return skill;
  }

  /**
   * The skill in `dir`: from the cache when the stats of what its last walk saw still match (no
   * directory listed, no file read), else walked and parsed.
   */
  private parseDir(dir: string, root: SkillRoot): Skill {
    const cached = this.cache.get(dir, root, (tree) => treeFingerprint(dir, tree).fingerprint);
    if (cached !== undefined) return cached;
    let walk: SkillWalk | null = null;
    try {
      walk = walkSkill(dir);
    } catch {
      // The parse reports the unreadable directory.
    }
    // Taken before the parse reads anything: a change after this point moves the stats recorded.
    const tree = walk === null ? null : treeOf(walk);
    const seen = tree === null ? null : treeFingerprint(dir, tree);
    const skill = this.parse(dir, root, walk);
    // Only settled content may be vouched for by its stats (see fingerprint.ts).
    if (tree !== null && seen !== null && seen.newest <= Date.now() - SETTLE_MS) this.cache.set(dir, root, tree, seen.fingerprint, skill);
    else this.cache.delete(dir);
    return skill;
  }

  /** Grows whenever the loaded set changes, so caches over it (search catalog, discovery) know when to refresh. */
  get generation(): number {
    this.ensureLoaded();
    return this.changes;
  }

  /** Every loaded skill, sorted by name. */
  list(): Skill[] {
    this.ensureLoaded();
    return [...this.skills.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** The skill a name resolves to; before a full load, only that name is resolved. */
  get(name: string): Skill | undefined {
    if (this.loaded) return this.skills.get(name);
    if (!this.single.has(name)) {
      this.single.set(name, this.resolve(name));
      this.cache.flush();
    }
    return this.single.get(name);
  }

  /** The directory a name resolves to, without parsing the skill (what the gateway needs to find an index). */
  dirOf(name: string): string | null {
    if (this.loaded) return this.skills.get(name)?.dir ?? null;
    const root = this.roots.find((r) => hasSkillFile(r.path, name));
    return root === undefined ? null : join(root.path, name);
  }

  /**
   * The canonical directory a loaded name resolves to. Remembered while the roots are watched (a
   * change under the name, or to the root, forgets it); looked up every time otherwise.
   */
  canonicalDirOf(name: string): string | null {
    const dir = this.dirOf(name);
    if (dir === null) return null;
    if (!this.watching) return realpathSync.native(dir);
    let known = this.canonical.get(name);
    if (known === undefined) {
      known = realpathSync.native(dir);
      this.canonical.set(name, known);
    }
    return known;
  }

  /**
   * True while the OS reports every change under the roots as it happens: each then reaches
   * 'touched' at once (and 'change' after the debounce). Not while polling (a change waits for the
   * next scan) nor once any path could not be watched.
   */
  get watching(): boolean {
    return this.watcher !== null && this.ready && this.mode === 'native' && this.problems.size === 0 && this.unwatched.size === 0;
  }

  /** Every skill hidden by a same-named skill in an earlier root. */
  shadowed(): ShadowedSkill[] {
    return this.list().flatMap((skill) =>
      skill.shadows.map((loser) => ({ name: skill.name, winner: { dir: skill.dir, root: skill.root }, loser })),
    );
  }

  /** Re-reads one name from disk and reports what changed, if anything. */
  reload(name: string): SkillChange | null {
    this.ensureLoaded();
    const before = this.skills.get(name);
    const after = this.resolve(name);
    this.cache.flush();
    if (!after) {
      if (!before) return null;
      this.skills.delete(name);
      return this.emitChange({ kind: 'removed', name });
    }
    this.skills.set(name, after);
    if (!before) return this.emitChange({ kind: 'added', name, skill: after });
    const same = before.hash === after.hash && before.dir === after.dir && before.shadows.length === after.shadows.length;
    return same ? null : this.emitChange({ kind: 'changed', name, skill: after });
  }

  private emitChange(change: SkillChange): SkillChange {
    this.changes++;
    emitSafely(this, 'change', change);
    return change;
  }

  /** The root a path lies in and the path relative to it. */
  private locate(path: string): { root: SkillRoot; segments: string[] } | null {
    for (const root of this.roots) {
      const rel = relative(root.path, path);
      if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) continue;
      return { root, segments: rel === '' ? [] : rel.split(sep) };
    }
    return null;
  }

  /**
   * Starts watching the roots (creating the user's own skills dir); changes arrive as 'change'
   * events. Resolves once the watcher is ready, or the registry was closed meanwhile.
   */
  async watch(): Promise<void> {
    if (this.mode !== null || this.closed) return;
    this.ensureLoaded();
    for (const root of this.roots) {
      if (root.kind === 'home') mkdirSync(root.path, { recursive: true });
    }
    this.mode = 'native';
    await this.startWatcher(false);
    if (!this.closed) this.watchForMissingRoots();
  }

  /** How this registry watches `root` (a path of one of its roots), or null when it does not watch. */
  watchStatus(root: string): RootWatch | null {
    if (this.mode === null) return null;
    return { mode: this.unwatched.has(root) ? 'off' : this.mode, problems: [...(this.problems.get(root) ?? [])] };
  }

  private startWatcher(polling: boolean): Promise<void> {
    const watcher = this.startWatcherWith(
      this.roots.map((r) => r.path).filter((p) => existsSync(p) && !this.unwatched.has(p)),
      {
        ignoreInitial: true,
        followSymlinks: true,
        // Hidden entries inside a root (.git, editor swap files) are not skill content; a root itself may be hidden (~/.claude/skills).
        ignored: (path: string) => this.locate(path)?.segments.some((segment) => segment.startsWith('.')) ?? false,
        ...(polling ? { usePolling: true, interval: POLL_INTERVAL_MS, binaryInterval: POLL_INTERVAL_MS } : {}),
      },
    );
    this.watcher = watcher;
    watcher.on('all', (_event, path) => this.schedule(path));
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
    this.settleStart?.();
    await watcher?.close();
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
    this.touched(null);
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
    this.scheduleAll();
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
    const name = located.segments[0] ?? (path === null ? undefined : path.split(sep)[0]);
    this.touched(name === undefined || name === '' ? null : name);
  }

  /** A change under `name` (null: anywhere) was seen: forget what was remembered about it, and say so. */
  private touched(name: string | null): void {
    if (name === null) this.canonical.clear();
    else this.canonical.delete(name);
    emitSafely(this, 'touched', name);
  }

  /** Reloads every name of every root after the debounce. */
  private scheduleAll(): void {
    this.scheduleName('');
  }

  private schedule(path: string): void {
    const located = this.locate(path);
    if (located === null) return;
    const name = located.segments[0] ?? '';
    this.touched(name === '' ? null : name);
    this.scheduleName(name);
  }

  /** Reloads `name` (every name, for '') once writes have settled. */
  private scheduleName(name: string): void {
    const key = name === '' ? '\0all' : name;
    clearTimeout(this.pending.get(key));
    this.pending.set(
      key,
      setTimeout(() => {
        this.pending.delete(key);
        if (name !== '') {
          this.reload(name);
          return;
        }
        const names = new Set([...this.skills.keys(), ...this.roots.flatMap((root) => skillDirNames(root.path))]);
        for (const each of names) this.reload(each);
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
