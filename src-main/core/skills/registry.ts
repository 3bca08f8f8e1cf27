/**
 * The skills currently loaded, keyed by name, first root wins. Keeps itself current by watching
 * the roots and reloading only the skill a change touched, then says what changed. Loading is
 * lazy (a command about one skill resolves only that name) and a skill whose files have not
 * changed since it was last parsed is taken from the parse cache, not parsed again. Watching
 * itself (and what happens when the OS refuses to) is root-watcher.ts.
 */
import { EventEmitter } from 'node:events';
import { lstatSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { RootWatch, Skill, SkillRoot } from '../../shared/model.js';
import type { KnownPlaces } from '../files/secret-places.js';
import type { BundledManifest } from './bundled-manifest.js';
import type { SkillFile } from './walk.js';
import { SETTLE_MS } from './fingerprint.js';
import { freshParseJob, type ParseSkill } from './fresh-parse.js';
import { ParseCache } from './parse-cache.js';
import { identify } from './identity.js';
import { RootWatcher, type WatchFactory } from './root-watcher.js';
import { parseSkill, type RootChecks } from './parse-skill.js';
import { EarlyHelpers, MIN_INPUTS } from '../parallel.js';
import { beyondFiles, RegistryParser, type Holder } from './registry-parse.js';
import { holdsSkillFile, listedDirsIn, skillDirIn, skillDirsIn, skillNamesIn } from './root-layout.js';
import type { TreeChecks } from './tree-check.js';

export { skillDirNames } from './root-layout.js';
export type { ParseSkill } from './fresh-parse.js';
import { emitSafely } from '../events.js';

export type SkillChange =
  | { kind: 'added' | 'changed'; name: string; skill: Skill }
  | { kind: 'removed'; name: string };

/** A skill hidden by one of the same name in a root that comes first. */
export interface ShadowedSkill {
  name: string;
  winner: { dir: string; root: SkillRoot };
  loser: { dir: string; root: SkillRoot };
}

export interface RegistryOptions {
  /** Where parsed skills are kept between loads (and, file-backed, between processes); in memory by default. */
  cache?: ParseCache;
  /** How one skill is parsed (parseSkill); tests pass a counting wrapper. */
  parse?: ParseSkill;
  /** How the roots are watched (chokidar's watch); tests pass one that can inject errors. */
  watch?: WatchFactory;
  /** The bundled skills' manifest as it is now (null: none could be read); none given, nothing in the bundled folder is bundled. */
  manifest?: () => BundledManifest | null;
  /** What each kind of root checks of its skills (the packs root: its lock); none given, none. */
  rootChecks?: RootChecks;
  /** The person's home and Skilltray's home, which a skill's declarations may not reach (identity.ts); none given, only as written. */
  places?: KnownPlaces;
  /** Threads a load may parse on, this one included (core/parallel.ts); 1 by default, and always 1 with `parse` given. */
  threads?: number;
  /** A command's checks of one skill's tree on a helper thread (tree-check.ts), for ahead(). */
  treeChecks?: TreeChecks;
}

/** Whether a parse failed (an error diagnostic): a truncated or half-written SKILL.md reads so. */
function failed(skill: Skill): boolean {
  return skill.diagnostics.some((d) => d.severity === 'error');
}

/**
 * Whether the skill folder `dir` is still there and it or its SKILL.md changed within SETTLE_MS: an
 * editor may be mid-rewrite (the file truncated, half-written, or about to be renamed over).
 */
function beingRewritten(dir: string, now: number = Date.now()): boolean {
  try {
    const folder = statSync(dir, { throwIfNoEntry: false });
    if (folder === undefined || !folder.isDirectory()) return false;
    const file = lstatSync(join(dir, 'SKILL.md'), { throwIfNoEntry: false });
    return Math.max(folder.ctimeMs, file?.ctimeMs ?? 0) > now - SETTLE_MS;
  } catch {
    return false;
  }
}

export class SkillRegistry extends EventEmitter<{ change: [SkillChange]; touched: [string | null] }> {
  private skills = new Map<string, Skill>();
  private loaded = false;
  /** Names resolved one at a time before a full load (a command about one skill). */
  private single = new Map<string, Skill | undefined>();
  private changes = 0;
  private watcher: RootWatcher;
  /** Whether watch() was called: a new set of roots is then watched too. */
  private watchAsked = false;
  private rootList: readonly SkillRoot[];
  /** Reads the skill folders, from the parse cache where it can. */
  private readonly parser: RegistryParser;
  private readonly manifest: () => BundledManifest | null;
  /** Canonical directories of loaded names, while watching (see canonicalDirOf). */
  private readonly canonical = new Map<string, string>();
  /** Names kept at their last good parse while being rewritten, to be read again once settled. */
  private readonly rechecks = new Map<string, NodeJS.Timeout>();

  constructor(
    roots: readonly SkillRoot[],
    private readonly options: RegistryOptions = {},
  ) {
    super();
    this.rootList = roots;
    const parse = options.parse ?? ((dir, root, walk) => parseSkill(dir, root, walk ?? undefined, this.rootChecks));
    // A `parse` given runs on this thread only: a function cannot be sent to a helper thread.
    const threads = options.parse === undefined ? (options.threads ?? 1) : 1;
    this.parser = new RegistryParser(options.cache ?? ParseCache.memory(), parse, threads, this.rootChecks, options.treeChecks ?? null);
    this.manifest = options.manifest ?? (() => null);
    this.watcher = this.watcherOf(roots);
  }

  /** What each kind of root checks of its skills, for a skill read by path (locate.ts) to be checked as a loaded one is. */
  get rootChecks(): RootChecks {
    return this.options.rootChecks ?? {};
  }

  /** The roots in precedence order. */
  get roots(): readonly SkillRoot[] {
    return this.rootList;
  }

  private watcherOf(roots: readonly SkillRoot[]): RootWatcher {
    return new RootWatcher(roots, { touched: (name) => this.touched(name), settled: (name) => this.settled(name) }, this.options.watch);
  }

  /**
   * Replaces the roots (a project folder trusted, or no longer): every name of the old and the new
   * roots is read again, each difference reported as a change, and the new set is watched when the
   * old one was.
   */
  async setRoots(roots: readonly SkillRoot[]): Promise<void> {
    const before = this.loaded ? [...this.skills.keys()] : [];
    this.rootList = roots;
    await this.watcher.close();
    this.watcher = this.watcherOf(roots);
    this.canonical.clear();
    this.single.clear();
    if (this.loaded) {
      for (const name of new Set([...before, ...roots.flatMap((root) => skillNamesIn(root))])) this.reload(name);
    }
    if (this.watchAsked) await this.watcher.start();
  }

  /** Loads every skill of every root (unchanged skills from the parse cache). */
  load(): this {
    this.parser.cache.preload();
    // Which roots hold each name, and where, from one listing per root (so no SKILL.md is looked up twice). Where parseMany reads the
    // skills, a root's folders are only listed: whether each holds a SKILL.md is checked by its parse (`listed`), on helper threads too.
    const holders = new Map<string, Holder[]>();
    // Folders only listed, with their canonical paths where the listing knew them.
    const listed = new Map<string, string | null>();
    for (const root of this.roots) {
      const defer = this.parser.threads >= 2 && this.rootChecks[root.kind] === undefined;
      const { dirs, unchecked } = defer ? listedDirsIn(root) : { dirs: skillDirsIn(root), unchecked: null };
      for (const [name, dir] of dirs) {
        const found = holders.get(name);
        if (found === undefined) holders.set(name, [{ dir, root }]);
        else found.push({ dir, root });
        const canonical = unchecked?.get(dir);
        if (canonical !== undefined) listed.set(dir, canonical);
      }
    }
    // A cold load of many will parse on helper threads: started now, they start while the names are sorted, resolved across roots and looked up in the cache.
    const cold = this.parser.threads >= 2 && holders.size - this.parser.cache.size >= MIN_INPUTS;
    const early = cold ? new EarlyHelpers(freshParseJob.name, this.parser.threads) : null;
    const first = (name: string): Holder => (holders.get(name) as Holder[])[0] as Holder;
    let listing: string[];
    let parsed: Map<string, Skill>;
    let absent: Set<string>;
    try {
      // A name more than one root lists needs its winner now: its folders are looked into here.
      for (const [name, found] of holders) {
        if (found.length < 2) continue;
        const kept = found.filter(({ dir }) => {
          if (!listed.has(dir)) return true;
          listed.delete(dir);
          return holdsSkillFile(dir);
        });
        if (kept.length === 0) holders.delete(name);
        else holders.set(name, kept);
      }
      listing = [...holders.keys()].sort();
      ({ parsed, absent } = this.parser.parseMany(listing.map(first), listed, early));
    } finally {
      // Helpers started early that no parse took (fewer skills to parse than it seemed) end here; taken ones, with the parse.
      early?.release();
    }
    const next = new Map<string, Skill>();
    // One read of the manifest for the whole load, not one per skill.
    const manifest = this.manifest();
    // A folder that turned out to hold nothing named SKILL.md is no skill (and its name may be one a rewrite left unlisted, below).
    const names: string[] = [];
    for (const name of listing) {
      if (absent.has(first(name).dir)) holders.delete(name);
      else names.push(name);
    }
    for (const name of names) {
      const fresh = this.resolveIn(holders.get(name) as Holder[], manifest, parsed);
      next.set(name, failed(fresh) ? (this.orLastGood(fresh, this.skills.get(name) ?? this.settledParseOf(name)) ?? fresh) : fresh);
    }
    // A skill whose SKILL.md is missing for a moment (an editor renaming a new one over it) no root lists: its last good parse stands while its folder is being
    // rewritten.
    for (const name of this.unlistedNames(holders)) {
      const last = this.orLastGood(undefined, this.skills.get(name) ?? this.settledParseOf(name));
      if (last !== undefined) next.set(name, last);
    }
    const dirs = new Set([...next.values()].map((skill) => skill.dir));
    this.parser.cache.retainOnly(dirs);
    this.parser.retainWalked(dirs);
    this.parser.cache.flush();
    this.skills = next;
    this.single.clear();
    this.loaded = true;
    this.changes++;
    return this;
  }

  /** Names loaded before or parsed into the cache under a root that is not a packs root, which no root lists now (sorted). */
  private unlistedNames(listed: ReadonlyMap<string, unknown>): string[] {
    const roots = new Set(this.roots.filter((root) => root.kind !== 'packs').map((root) => root.path));
    const names = new Set(this.skills.keys());
    for (const dir of this.parser.cache.dirs()) if (roots.has(dirname(dir))) names.add(basename(dir));
    return [...names].filter((name) => !listed.has(name)).sort();
  }

  private ensureLoaded(): void {
    if (!this.loaded) this.load();
  }

  /** The folders of `name` in the roots that have it, in precedence order. */
  private holdersOf(name: string): Holder[] {
    return this.roots.flatMap((root) => {
      const dir = skillDirIn(root, name);
      return dir === null ? [] : [{ dir, root }];
    });
  }

  /** Resolves one name over all roots: the winner, with the skills it shadows. */
  private resolve(name: string): Skill | undefined {
    const holders = this.holdersOf(name);
    return holders.length === 0 ? undefined : this.resolveIn(holders);
  }

  /**
   * The skill in the first of `holders` (the folders of one name in the roots that have it, in
   * precedence order), shadowing the rest, and who it is; `parsed` holds skills already read by folder.
   */
  private resolveIn(holders: readonly Holder[], manifest = this.manifest(), parsed?: ReadonlyMap<string, Skill>): Skill {
    const [first, ...rest] = holders as [Holder, ...Holder[]];
    const skill = parsed?.get(first.dir) ?? this.parser.parseDir(first.dir, first.root);
    skill.shadows = rest;
    return identify(skill, manifest, this.options.places);
  }

  /** Who `skill` is, against the bundled manifest as it is now and this machine's places (see identity.ts). */
  identify(skill: Skill): Skill {
    return identify(skill, this.manifest(), this.options.places);
  }

  /**
   * The files `skill` was walked with when this process last parsed it (its hash covers them), or
   * undefined when it came from the parse cache: the search catalog reads them without walking the
   * folder again.
   */
  walkedFiles(skill: Skill): readonly SkillFile[] | undefined {
    return this.parser.walkedFiles(skill.dir);
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
      const fresh = this.resolve(name);
      this.single.set(name, this.orLastGood(fresh, fresh === undefined || failed(fresh) ? this.settledParseOf(name) : undefined));
      this.parser.cache.flush();
    }
    return this.single.get(name);
  }

  /**
   * The skill `name` resolves to as the parse cache recorded it, handed over while a helper thread
   * checks its files' stats (tree-check.ts), for work that can start before the check ends; get(name)
   * then waits for the check and gives the skill as it is. Undefined unless such a check started:
   * the name is resolved already, or there is no helper, or no recorded parse.
   */
  ahead(name: string): Skill | undefined {
    if (this.loaded || this.single.has(name)) return undefined;
    const [first, ...rest] = this.holdersOf(name);
    const recorded = first === undefined ? undefined : this.parser.checkAhead(first.dir, first.root);
    if (recorded === undefined) return undefined;
    recorded.shadows = rest;
    return this.identify(recorded);
  }

  /** The directory a name resolves to, without parsing the skill (what the gateway needs to find an index). */
  dirOf(name: string): string | null {
    if (this.loaded) return this.skills.get(name)?.dir ?? null;
    for (const root of this.roots) {
      const dir = skillDirIn(root, name);
      if (dir !== null) return dir;
    }
    // No root holds it now: a skill caught mid-rewrite still resolves to its last good parse.
    return this.orLastGood(undefined, this.settledParseOf(name))?.dir ?? null;
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

  /** True while every change on disk reaches 'touched' as it happens (and 'change' after the debounce): see RootWatcher.reliable. */
  get watching(): boolean {
    return this.watcher.reliable;
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
    const fresh = this.resolve(name);
    this.parser.cache.flush();
    const after = this.orLastGood(fresh, before);
    if (after !== fresh) {
      this.recheckOnceSettled(name);
      return null;
    }
    if (!after) {
      if (!before) return null;
      this.skills.delete(name);
      return this.emitChange({ kind: 'removed', name });
    }
    this.skills.set(name, after);
    if (!before) return this.emitChange({ kind: 'added', name, skill: after });
    const same = before.hash === after.hash && before.dir === after.dir && before.shadows.length === after.shadows.length && before.trust === after.trust;
    return same ? null : this.emitChange({ kind: 'changed', name, skill: after });
  }

  /**
   * `fresh` (what a name reads as now), or `last` (its last good parse) when `fresh` is missing or
   * failed while the skill is being rewritten: an editor's save is never reported as the skill gone
   * or broken. A folder removed is gone at once, as is one whose root is no longer read (an
   * untrusted project); a failure that outlasts SETTLE_MS is reported.
   */
  private orLastGood(fresh: Skill | undefined, last: Skill | undefined): Skill | undefined {
    if (last === undefined || failed(last) || (fresh !== undefined && !failed(fresh))) return fresh;
    if (!this.roots.some((root) => root.path === last.root.path)) return fresh;
    return beingRewritten(last.dir) ? last : fresh;
  }

  /** The last settled parse the cache holds for `name` in a root that is not a packs root, first root first (for a process that has not loaded it). */
  private settledParseOf(name: string): Skill | undefined {
    for (const root of this.roots) {
      const skill = beyondFiles(root) ? undefined : this.parser.cache.lastSettled(join(root.path, name), root);
      if (skill !== undefined) return this.identify(skill);
    }
    return undefined;
  }

  /** While watching, reads `name` again once a rewrite has had SETTLE_MS to settle. */
  private recheckOnceSettled(name: string): void {
    if (!this.watchAsked) return;
    clearTimeout(this.rechecks.get(name));
    const timer = setTimeout(() => {
      this.rechecks.delete(name);
      this.reload(name);
    }, SETTLE_MS);
    timer.unref();
    this.rechecks.set(name, timer);
  }

  private emitChange(change: SkillChange): SkillChange {
    this.changes++;
    emitSafely(this, 'change', change);
    return change;
  }

  /** Starts watching the roots; changes arrive as 'touched' at once and 'change' once written. Resolves once the watcher is ready. */
  async watch(): Promise<void> {
    this.ensureLoaded();
    this.watchAsked = true;
    await this.watcher.start();
  }

  /** How this registry watches `root` (a path of one of its roots), or null when it does not watch. */
  watchStatus(root: string): RootWatch | null {
    return this.watcher.status(root);
  }

  /** A change under `name` (null: anywhere) was seen: forget what was remembered about it, and say so. */
  private touched(name: string | null): void {
    if (name === null) this.canonical.clear();
    else this.canonical.delete(name);
    emitSafely(this, 'touched', name);
  }

  /** Writes under `name` ('': anywhere) have settled: reload it, or every name of every root. */
  private settled(name: string): void {
    if (name !== '') {
      this.reload(name);
      return;
    }
    const names = new Set([...this.skills.keys(), ...this.roots.flatMap((root) => skillNamesIn(root))]);
    for (const each of names) this.reload(each);
  }

  /** Stops watching, also while the watcher is still starting (it is closed, not left running). */
  async close(): Promise<void> {
    for (const timer of this.rechecks.values()) clearTimeout(timer);
    this.rechecks.clear();
    await this.watcher.close();
  }
}
