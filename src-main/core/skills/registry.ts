/**
 * The skills currently loaded, keyed by name, first root wins. Keeps itself current by watching
 * the roots and reloading only the skill a change touched, then says what changed.
 */
import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { Skill, SkillRoot } from '../../shared/model.js';
import { parseSkill } from './parse-skill.js';
import { emitSafely } from '../events.js';

/** How long the watcher waits for a burst of writes (an editor's save, a git checkout) to settle. */
const RELOAD_DEBOUNCE_MS = 150;

/** How often a root that does not exist yet is looked for (the watcher cannot see it appear). */
const MISSING_ROOT_CHECK_MS = 2000;

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

  constructor(readonly roots: readonly SkillRoot[]) {
    super();
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

  /** Starts watching the roots (creating the user's own skills dir); changes arrive as 'change' events. */
  async watch(): Promise<void> {
    if (this.watcher) return;
    for (const root of this.roots) {
      if (root.kind === 'home') mkdirSync(root.path, { recursive: true });
    }
    const watcher = watch(
      this.roots.map((r) => r.path).filter((p) => existsSync(p)),
      {
        ignoreInitial: true,
        followSymlinks: true,
        // Hidden entries inside a root (.git, editor swap files) are not skill content; a root itself may be hidden (~/.claude/skills).
        ignored: (path: string) => this.locate(path)?.segments.some((segment) => segment.startsWith('.')) ?? false,
      },
    );
    watcher.on('all', (_event, path) => this.schedule(path));
    await new Promise<void>((resolveReady) => watcher.once('ready', () => resolveReady()));
    this.watcher = watcher;
    this.watchForMissingRoots();
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

  private schedule(path: string): void {
    const located = this.locate(path);
    if (located === null) return;
    const name = located.segments[0] ?? '';
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

  /** Stops watching. */
  async close(): Promise<void> {
    if (this.missingRoots) clearInterval(this.missingRoots);
    this.missingRoots = null;
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
    await this.watcher?.close();
    this.watcher = null;
  }
}
