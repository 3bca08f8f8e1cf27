/**
 * The gateway and search as one service over the loaded skills: resolve the skill (RFC-0007),
 * run the operation, log the access. In app mode (`autoBuild`) indexes are kept current, so a
 * person in the UI never meets E002; the CLI keeps the RFC's behaviour and says to build.
 *
 * In app mode the registry's watcher also saves the freshness check: once a skill's index has
 * been found current, it is read without looking at the sources again until the watcher reports
 * a change under that skill (or stops watching). The CLI, with no watcher, checks every time.
 */
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename } from 'node:path';
import type { Skill } from '../../shared/model.js';
import { SkilltrayError, skillcErrors, toSkilltrayError } from '../errors.js';
import type { ErrorShape } from '../../shared/errors.js';
import { locateSkill } from '../skills/locate.js';
import { parseSkill } from '../skills/parse-skill.js';
import type { SkillRegistry } from '../skills/registry.js';
import { AccessLogger, withAccessLog, type LoggedCommand } from '../logs/access-log.js';
import { logArgs } from '../logs/log-args.js';
import { skillStats, type StatsOptions } from '../logs/stats.js';
import type { BuildResult, CatalogResult, OpenResult, OutlineHeading, OutlineResult, SearchResult, ShowResult, SourcesResult, StatsResult, SyncResult } from '../../shared/gateway.js';
import { syncLogs } from '../logs/sync.js';
import { buildIndex, openIndexForSearch, type OpenIndex } from '../search/index.js';
import { SkillCatalog, type CatalogProgress, type CatalogSkill } from '../search/catalog.js';
import { searchIndex, skillQuery } from '../search/query.js';
import { openFile, type OpenOptions } from './open.js';
import { outlineFiles, outlineSkill, type OutlineOptions } from './outline.js';
import { runtimeDir } from './runtime-dir.js';
import { sectionQuery, showInIndex } from './show.js';
import { listSources, type SourcesOptions } from './sources.js';

/** RFC-0001:C-INPUT: a skill is built only when its SKILL.md names it and describes it (E011). */
function requireIdentity(skill: Skill): void {
  for (const field of ['name', 'description'] as const) {
    if (skill.frontmatter[field] === undefined || skill.frontmatter[field] === null) throw skillcErrors.missingFrontmatterField(field);
  }
}

export interface GatewayDeps {
  home: string;
  registry: SkillRegistry;
  env: NodeJS.ProcessEnv;
  nativeBinding?: string;
  /** Build a skill's index when it is missing or stale instead of failing with E002 (the app). */
  autoBuild: boolean;
  /** Told while the all-skills catalog reads skills that changed (a cold search over 10,000 takes seconds). */
  onIndexProgress?: CatalogProgress;
}

/** The skill a gateway call is about, resolved. */
interface Target extends LoggedCommand {
  /** Canonical source directory. */
  dir: string;
  /** The loaded skill's name when the argument was resolved as one (not as a path). */
  loadedAs: string | null;
  /** The loaded skill, or the skill read in the root its directory lies in. */
  read(): Skill;
}

export interface ShowInput {
  section: string;
  file?: string;
  maxLines?: number;
}

export class GatewayService {
  private readonly logger: AccessLogger;
  private catalogDb: SkillCatalog | undefined;
  /** Registry generation the catalog was last synced with. */
  private catalogGeneration = -1;
  /** A sync under way in the background (the app at start): searches meanwhile read the catalog as it is. */
  private catalogSyncing: Promise<void> | undefined;
  /** App mode: loaded skills (name → canonical dir) whose index was found current since the watcher last reported a change in them. */
  private readonly current = new Map<string, string>();
  /** App mode: the open indexes of vouched-for skills, kept open between reads. */
  private readonly openIndexes = new Map<string, OpenIndex>();

  constructor(private readonly deps: GatewayDeps) {
    // The app logs after the reply (in batches); a CLI process logs its one access as it happens.
    this.logger = new AccessLogger({ env: deps.env, batch: deps.autoBuild, ...(deps.nativeBinding === undefined ? {} : { nativeBinding: deps.nativeBinding }) });
    deps.registry.on('touched', (name) => {
      for (const each of name === null ? [...this.current.keys()] : [name]) this.forget(each);
    });
  }

  private get binding(): { nativeBinding?: string } {
    return this.deps.nativeBinding === undefined ? {} : { nativeBinding: this.deps.nativeBinding };
  }

  /** Warnings produced so far (logging disabled, stale fallback logs, a catalog kept in memory), for stderr. */
  get warnings(): readonly string[] {
    const memory = this.catalogDb?.inMemory;
    return memory === null || memory === undefined ? this.logger.warnings : [...this.logger.warnings, `warning: ${memory}`];
  }

  private target(command: string, skill: string, cwd: string): Target {
    const at = locateSkill(skill, cwd, this.deps.registry);
    // The canonical directory's basename names the runtime dir and the access log's skill.
    const name = basename(at.canonical);
    // Parsed only when asked (build): search, show and outline need the directory alone.
    const read = (): Skill => at.loaded ?? parseSkill(at.dir, at.root);
    return { command, skill: name, skillPath: at.canonical, runtimeDir: runtimeDir(this.deps.home, name), cwd, dir: at.canonical, loadedAs: at.loadedAs, read };
  }

  /** Remembers that a loaded skill's index is current, while the watcher can say when that stops being true. */
  private vouch(name: string, canonicalDir: string): void {
    this.forget(name);
    if (this.deps.registry.watching) this.current.set(name, canonicalDir);
  }

  /** Stops vouching for a skill's index and closes it if it was kept open. */
  private forget(name: string): void {
    this.current.delete(name);
    this.openIndexes.get(name)?.db.close();
    this.openIndexes.delete(name);
  }

  /**
   * Runs `read` over the skill's index. The CLI reads as RFC-0004 says (checking the sources, E002
   * when unusable). The app first makes the index current — unless the watcher vouches for it, in
   * which case the index kept open is read as is — and an index damaged or deleted behind its back
   * is rebuilt. `skill` is the argument as given, for an E002's message.
   */
  private readIndexOf<T>(t: Target, skill: string, read: (index: OpenIndex) => T): T {
    const name = t.loadedAs;
    if (this.deps.autoBuild && name !== null && this.deps.registry.watching && this.current.get(name) === t.dir) {
      try {
        let index = this.openIndexes.get(name);
        if (index === undefined) {
          index = openIndexForSearch(t.dir, t.runtimeDir, skill, { ...this.binding, trustSources: true });
          this.openIndexes.set(name, index);
        }
        return read(index);
      } catch (error) {
        if (!(error instanceof SkilltrayError && error.code === 'E002')) throw error;
        this.forget(name);
      }
    }
    if (this.deps.autoBuild) {
      buildIndex(t.dir, t.runtimeDir, this.binding);
      if (name !== null) this.vouch(name, t.dir);
    }
    const index = openIndexForSearch(t.dir, t.runtimeDir, skill, { ...this.binding, trustSources: this.deps.autoBuild });
    if (name !== null && this.current.get(name) === t.dir) {
      this.openIndexes.set(name, index);
      return read(index);
    }
    try {
      return read(index);
    } finally {
      index.db.close();
    }
  }

  outline(skill: string, options: OutlineOptions, cwd: string): OutlineResult {
    const t = this.target('outline', skill, cwd);
    return withAccessLog(this.logger, t, () => logArgs.outline(options), () => outlineSkill(t.dir, options));
  }

  /** The outline one file at a time, each file's headings handed to `each` as soon as they are read (logged as one outline). */
  outlineEach(skill: string, options: OutlineOptions, cwd: string, each: (headings: OutlineHeading[]) => void): void {
    const t = this.target('outline', skill, cwd);
    withAccessLog(this.logger, t, () => logArgs.outline(options), () => {
      for (const headings of outlineFiles(t.dir, options)) each(headings);
    });
  }

  show(skill: string, input: ShowInput, cwd: string): ShowResult {
    const t = this.target('show', skill, cwd);
    return withAccessLog(this.logger, t, (result) => logArgs.show(input, result), () => {
      const show = sectionQuery(input);
      return this.readIndexOf(t, skill, (index) => showInIndex(index, skill, show));
    });
  }

  open(skill: string, path: string, options: OpenOptions, cwd: string): OpenResult {
    const t = this.target('open', skill, cwd);
    return withAccessLog(this.logger, t, (result) => logArgs.open(path, options, result), () => openFile(t.dir, path, options));
  }

  sources(skill: string, options: SourcesOptions, cwd: string): SourcesResult {
    const t = this.target('sources', skill, cwd);
    return withAccessLog(this.logger, t, () => logArgs.sources(options), () => listSources(t.dir, options));
  }

  search(skill: string, query: string, options: { limit?: number }, cwd: string): SearchResult {
    const t = this.target('search', skill, cwd);
    return withAccessLog(this.logger, t, (result) => logArgs.search(query, result), () => {
      const search = skillQuery(query, options);
      return this.readIndexOf(t, skill, (index) => searchIndex(index, skill, search));
    });
  }

  build(skill: string, cwd: string, options: { verify?: boolean } = {}): BuildResult & { skill: string } {
    const t = this.target('build', skill, cwd);
    const result = withAccessLog(this.logger, t, () => logArgs.build(), () => {
      requireIdentity(t.read());
      return buildIndex(t.dir, t.runtimeDir, { ...this.binding, ...(options.verify ? { verify: true } : {}) });
    });
    return { skill: t.skill, ...result };
  }

  /** Brings a loaded skill's index up to date for the app; not an access, so not logged. */
  refreshIndex(name: string): void {
    const skill = this.deps.registry.get(name);
    if (!skill) return;
    buildIndex(skill.dir, runtimeDir(this.deps.home, skill.name), this.binding);
    this.vouch(name, realpathSync.native(skill.dir));
  }

  /** Builds the index of every loaded skill; one failure (E003) does not stop the others. */
  buildAll(cwd: string, options: { verify?: boolean } = {}): { built: (BuildResult & { skill: string })[]; failed: { skill: string; error: ErrorShape }[] } {
    const built: (BuildResult & { skill: string })[] = [];
    const failed: { skill: string; error: ErrorShape }[] = [];
    for (const skill of this.deps.registry.list()) {
      try {
        built.push(this.build(skill.dir, cwd, options));
      } catch (error) {
        failed.push({ skill: skill.name, error: toSkilltrayError(error).toJSON() });
      }
    }
    return { built, failed };
  }

  stats(skill: string, options: StatsOptions, cwd: string): StatsResult {
    const t = this.target('stats', skill, cwd);
    return withAccessLog(this.logger, t, () => logArgs.stats(options), () => skillStats({ name: t.skill, dir: t.dir }, t.runtimeDir, options));
  }

  /** Merges fallback logs found under `project` into the primary logs (RFC-0007:C-SYNC). */
  sync(options: { project: string; skill?: string; dryRun?: boolean }): SyncResult {
    return syncLogs({ ...options, runtimeDirFor: (name) => runtimeDir(this.deps.home, name) });
  }

  /** The all-skills catalog, synced with the loaded skills whenever they have changed since the last sync. */
  catalog(): SkillCatalog {
    this.catalogDb ??= SkillCatalog.open(this.deps.home, this.binding);
    const generation = this.deps.registry.generation;
    if (generation !== this.catalogGeneration && this.catalogSyncing === undefined) {
      this.catalogDb.sync(this.catalogSkills(), this.deps.onIndexProgress);
      this.catalogGeneration = generation;
    }
    return this.catalogDb;
  }

  /**
   * Syncs the catalog without holding up a long-running process: skills are read in batches with
   * the event loop free between them (progress told), so requests and events keep flowing. A
   * catalog already current costs nothing; a sync in flight is joined.
   */
  syncCatalogInBackground(): Promise<void> {
    if (this.catalogSyncing === undefined && this.catalogDb !== undefined && this.deps.registry.generation === this.catalogGeneration) return Promise.resolve();
    this.catalogSyncing ??= (async () => {
      this.catalogDb ??= SkillCatalog.open(this.deps.home, this.binding);
      const generation = this.deps.registry.generation;
      try {
        await this.catalogDb.syncInBackground(this.catalogSkills(), this.deps.onIndexProgress);
        this.catalogGeneration = generation;
      } finally {
        this.catalogSyncing = undefined;
      }
    })();
    return this.catalogSyncing;
  }

  private catalogSkills(): CatalogSkill[] {
    return this.deps.registry.list().map((s) => ({ name: s.name, dir: s.dir, hash: s.hash, tools: s.tools.map((t) => t.name) }));
  }

  /** One ranked list over every loaded skill; `prefix` makes the last word a prefix (search-as-you-type). */
  searchAll(query: string, options: { limit?: number; prefix?: boolean } = {}): CatalogResult {
    return this.catalog().search(query, options);
  }

  close(): void {
    for (const name of [...this.openIndexes.keys()]) this.forget(name);
    this.logger.flush();
    this.catalogDb?.close();
    this.catalogDb = undefined;
  }
}

/** Where gateway commands say they were invoked from when the caller is not a shell (HTTP, MCP, IPC). */
export function defaultGatewayCwd(env: NodeJS.ProcessEnv): string {
  return env.HOME || homedir();
}
