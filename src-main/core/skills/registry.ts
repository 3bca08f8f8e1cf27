/**
 * The skills currently loaded, keyed by name, first root wins. Keeps itself current by watching
 * the roots and reloading only the skill a change touched, then says what changed. When the OS
 * refuses to watch more files (inotify's limit), it falls back to polling; a path it may not watch
 * (EACCES) is left unwatched; either way it says so per root (watchStatus) instead of failing.
 */
import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { watch, type ChokidarOptions, type FSWatcher } from 'chokidar';
import type { RootWatch, Skill, SkillRoot } from '../../shared/model.js';
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

export interface RegistryOptions {
  watch?: WatchFactory;
}

export type SkillChange =
  | { kind: 'added' | 'changed'; name: string; skill: Skill }
  | { kind: 'removed'; name: string };

/** A skill hidden by one of the same name in a root that comes first. */
export interface ShadowedSkill {
  name: string;
  winner: { dir: string; root: SkillRoot };
  loser: { dir: string; root: SkillRoot };
}

/** Names of the directories in `root` that hold a SKILL.md (symlinked directories included). */
export function skillDirNames(root: string): string[] {
  let entries;
  try {
    entries = readdirSync(root, { withFileTypes: true });
  } catch {
    return [];
  }
  const names: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.') || !(entry.isDirectory() || entry.isSymbolicLink())) continue;
    try {
      if (statSync(join(root, entry.name, 'SKILL.md')).isFile()) names.push(entry.name);
    } catch {
      // no SKILL.md: not a skill (resolution reports E010 if someone asks for it by name)
    }
  }
  return names.sort();
}

/** Resolves one name over all roots: the winner, with the skills it shadows. */
function resolveName(roots: readonly SkillRoot[], name: string): Skill | undefined {
  const found = roots.filter((root) => existsSync(join(root.path, name, 'SKILL.md')));
  const [first, ...rest] = found;
  if (!first) return undefined;
  const skill = parseSkill(join(first.path, name), first);
  skill.shadows = rest.map((root) => ({ dir: join(root.path, name), root }));
  return skill;
}

export class SkillRegistry extends EventEmitter<{ change: [SkillChange] }> {
  private skills = new Map<string, Skill>();
  private changes = 0;
  private watcher: FSWatcher | null = null;
  private pending = new Map<string, NodeJS.Timeout>();
  private missingRoots: NodeJS.Timeout | null = null;
  private readonly startWatcherWith: WatchFactory;
  private closed = false;
  /** Ends the wait for the current watcher's 'ready' (it is ready, closed, or being replaced). */
  private settleStart: (() => void) | null = null;
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
    this.startWatcherWith = options.watch ?? watch;
  }

  /** Loads every skill of every root. */
  load(): this {
    const names = new Set(this.roots.flatMap((root) => skillDirNames(root.path)));
    const next = new Map<string, Skill>();
    for (const name of [...names].sort()) {
      const skill = resolveName(this.roots, name);
      if (skill) next.set(name, skill);
    }
    this.skills = next;
    this.changes++;
    return this;
  }

  /** Grows whenever the loaded set changes, so caches over it (search catalog, discovery) know when to refresh. */
  get generation(): number {
    return this.changes;
  }

  /** Every loaded skill, sorted by name. */
  list(): Skill[] {
    return [...this.skills.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  get(name: string): Skill | undefined {
    return this.skills.get(name);
  }

  /** Every skill hidden by a same-named skill in an earlier root. */
  shadowed(): ShadowedSkill[] {
    return this.list().flatMap((skill) =>
      skill.shadows.map((loser) => ({ name: skill.name, winner: { dir: skill.dir, root: skill.root }, loser })),
    );
  }

  /** Re-reads one name from disk and reports what changed, if anything. */
  reload(name: string): SkillChange | null {
    const before = this.skills.get(name);
    const after = resolveName(this.roots, name);
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
    // Without a listener an 'error' event would throw out of the app, serve or mcp.
    watcher.on('error', (error) => this.watchFailed(watcher, error));
    return new Promise<void>((resolve) => {
      const settle = (): void => {
        if (this.settleStart === settle) this.settleStart = null;
        resolve();
      };
      this.settleStart = settle;
      watcher.once('ready', settle);
    });
  }

  private async stopWatcher(): Promise<void> {
    const watcher = this.watcher;
    this.watcher = null;
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

  /** Reloads every name of every root after the debounce. */
  private scheduleAll(): void {
    this.scheduleName('');
  }

  private schedule(path: string): void {
    const located = this.locate(path);
    if (located === null) return;
    this.scheduleName(located.segments[0] ?? '');
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
