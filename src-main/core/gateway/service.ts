/**
 * The gateway and search as one service over the loaded skills: resolve the skill (RFC-0007),
 * run the operation, log the access. A read builds a missing or stale index itself, so nobody
 * meets E002 by reading; `strict` keeps RFC-0004's behaviour (E002, and say to build) for harnesses.
 *
 * In app mode (`autoBuild`) the registry's watcher also saves the freshness check: once a skill's
 * index has been found current, it is read without looking at the sources again until the watcher
 * reports a change under that skill (or stops watching). The CLI, with no watcher, checks every time.
 *
 * Searches (of one skill or of all) answer from the all-skills catalog, in one result model
 * (search-hits.ts); `searchIndex` is RFC-0004's search of a skill's own index, as `--strict` prints it.
 */
import { realpathSync } from 'node:fs';
import { basename } from 'node:path';
import type { Skill } from '../../shared/model.js';
import { SkilltrayError, toSkilltrayError } from '../../shared/skilltray-error.js';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import type { ErrorShape } from '../../shared/errors.js';
import { locateSkill } from '../skills/locate.js';
import { parseSkill } from '../skills/parse-skill.js';
import type { SkillFile } from '../skills/walk.js';
import type { SkillRegistry } from '../skills/registry.js';
import { AccessLogger, withAccessLog, type LoggedCommand } from '../logs/access-log.js';
import { logArgs } from './log-args.js';
import { skillStats, type StatsOptions } from '../logs/stats.js';
import type {
  BuildResult,
  IndexSearchResult,
  OpenResult,
  OutlineHeading,
  OutlineResult,
  SearchResult,
  ShowResult,
  SourcesResult,
  StatsResult,
  SyncResult,
} from '../../shared/gateway.js';
import { syncLogs } from '../logs/sync.js';
import { buildIndex, openIndexForSearch, withSkillIndex, type BuildOptions, type OpenIndex } from '../search/skill-index.js';
import { SkillCatalog, type CatalogOptions, type CatalogProgress, type CatalogSkill, type IndexingWork } from '../search/catalog.js';
import { isIndexedFile } from '../search/documents.js';
import { searchIndex, skillQuery } from '../search/query.js';
import { brokenBy, searchHits, type SkillOf } from '../search/search-hits.js';
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
  /** Threads a catalog sync may read skills on (core/parallel.ts); 1 when not given. */
  threads?: number;
  /** The long-running owner of runs (the app, serve): the watcher vouches for indexes, access logs are written in batches. */
  autoBuild: boolean;
  /** Told while the all-skills catalog reads skills that changed (a cold search over 10,000 takes seconds). */
  onIndexProgress?: CatalogProgress;
  /** RFC-0004 as written: a missing or stale index is E002 (say to build), never built by a read. */
  strict?: boolean;
  /** Told before a read indexes something, so a command line can say why it takes a while. */
  onIndexing?(work: IndexingWork): void;
}

/** The catalog's view of a loaded skill; `files`, the ones its load walked, when known. */
function catalogSkill(skill: Skill, files?: readonly SkillFile[]): CatalogSkill {
  // The Commands as they are: read as callers see them where the rows are read (on helper threads in a first search).
  const tools = skill.tools.map(({ name, command, commandLine }) => ({ name, command, commandLine }));
  return {
    name: skill.name,
    dir: skill.dir,
    hash: skill.hash,
    description: skill.description,
    commands: { syntax: skill.syntax, tools },
    ...(files === undefined ? {} : { files }),
  };
}

/** The skill a gateway call is about, resolved. */
interface Target {
  /** What the access log records of the call. */
  logged: LoggedCommand;
  /** The canonical directory's basename: it names the runtime dir and the access log's skill. */
  dirName: string;
  runtimeDir: string;
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
  /** App mode: loaded skills changed on disk whose catalog rows a search of that skill must read again (the registry reloads them only after its debounce). */
  private readonly unsynced = new Set<string>();

  constructor(private readonly deps: GatewayDeps) {
    // The app logs after the reply (in batches); a CLI process logs its one access as it happens.
    this.logger = new AccessLogger({
      env: deps.env,
      batch: deps.autoBuild,
      ...(deps.nativeBinding === undefined ? {} : { nativeBinding: deps.nativeBinding }),
    });
    deps.registry.on('touched', (name) => {
      for (const each of name === null ? [...this.current.keys()] : [name]) this.forget(each);
      for (const each of name === null ? deps.registry.list().map((skill) => skill.name) : [name]) this.unsynced.add(each);
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
    // A loaded skill's directory (how HTTP, MCP and IPC name one) is that loaded skill.
    const loadedAs = at.loadedAs ?? (this.deps.registry.dirOf(name) !== null && this.deps.registry.canonicalDirOf(name) === at.canonical ? name : null);
    // Parsed only when asked (build, search): show and outline need the directory alone.
    const read = (): Skill =>
      at.loaded ?? (loadedAs === null ? undefined : this.deps.registry.get(loadedAs)) ?? parseSkill(at.dir, at.root, undefined, this.deps.registry.rootChecks);
    const runtime = runtimeDir(this.deps.home, name);
    return {
      logged: { command, skill: name, skillPath: at.canonical, runtimeDir: runtime, cwd },
      dirName: name,
      runtimeDir: runtime,
      dir: at.canonical,
      loadedAs,
      read,
    };
  }

  /** How an index of `skill` is built: through the native binding, telling `onIndexing` before it writes. */
  private buildOptions(skill: string): BuildOptions {
    const { onIndexing } = this.deps;
    if (onIndexing === undefined) return this.binding;
    return {
      ...this.binding,
      beforeWrite: (files) => onIndexing({ skills: [skill], bytes: files.reduce((sum, f) => sum + (isIndexedFile(f.rel) ? f.size : 0), 0) }),
    };
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
   * Runs `read` over the skill's index. A missing or stale index is built first (checked against
   * the sources each time); `strict` reads as RFC-0004 says instead (E002 when unusable). The app
   * skips the check while the watcher vouches for an index, reading the one kept open as is, and
   * rebuilds an index damaged or deleted behind its back. `skill` is the argument as given, for an
   * E002's message.
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
    const builds = !this.deps.strict;
    if (builds) {
      buildIndex(t.dir, t.runtimeDir, this.buildOptions(t.dirName));
      if (this.deps.autoBuild && name !== null) this.vouch(name, t.dir);
    }
    // Just built or found current: no second look at the sources.
    const options = { ...this.binding, trustSources: builds };
    if (name !== null && this.current.get(name) === t.dir) {
      const index = openIndexForSearch(t.dir, t.runtimeDir, skill, options);
      this.openIndexes.set(name, index);
      return read(index);
    }
    return withSkillIndex(t.dir, t.runtimeDir, skill, options, read);
  }

  outline(skill: string, options: OutlineOptions, cwd: string): OutlineResult {
    const t = this.target('outline', skill, cwd);
    return withAccessLog(
      this.logger,
      t.logged,
      () => logArgs.outline(options),
      () => outlineSkill(t.dir, options),
    );
  }

  /** The outline one file at a time, each file's headings handed to `each` as soon as they are read (logged as one outline). */
  outlineEach(skill: string, options: OutlineOptions, cwd: string, each: (headings: OutlineHeading[]) => void): void {
    const t = this.target('outline', skill, cwd);
    withAccessLog(
      this.logger,
      t.logged,
      () => logArgs.outline(options),
      () => {
        for (const headings of outlineFiles(t.dir, options)) each(headings);
      },
    );
  }

  show(skill: string, input: ShowInput, cwd: string): ShowResult {
    const t = this.target('show', skill, cwd);
    return withAccessLog(
      this.logger,
      t.logged,
      (result) => logArgs.show(input, result),
      () => {
        const show = sectionQuery(input);
        return this.readIndexOf(t, skill, (index) => showInIndex(index, skill, show));
      },
    );
  }

  open(skill: string, path: string, options: OpenOptions, cwd: string): OpenResult {
    const t = this.target('open', skill, cwd);
    return withAccessLog(
      this.logger,
      t.logged,
      (result) => logArgs.open(path, options, result),
      () => openFile(t.dir, path, options),
    );
  }

  sources(skill: string, options: SourcesOptions, cwd: string): SourcesResult {
    const t = this.target('sources', skill, cwd);
    return withAccessLog(
      this.logger,
      t.logged,
      () => logArgs.sources(options),
      () => listSources(t.dir, options),
    );
  }

  /** Searches one skill (from the catalog, in the one result model); the skill's catalog rows are brought up to date first. */
  search(skill: string, query: string, options: { limit?: number }, cwd: string): SearchResult {
    const t = this.target('search', skill, cwd);
    return withAccessLog(
      this.logger,
      t.logged,
      (result) => logArgs.search(query, result),
      () => {
        skillQuery(query, options);
        const read = t.read();
        if (t.loadedAs === null) {
          // A skill read by path, not loaded: searched in a catalog of its own, kept for this call only.
          const own = SkillCatalog.inMemory(this.catalogOptions);
          try {
            own.sync([catalogSkill(read)]);
            const only: SkillOf = () => read;
            return searchHits(own.search(query, { ...options, skill: read.name }), only, read.name, () => own.suggest(query, { skill: read.name }));
          } finally {
            own.close();
          }
        }
        // The app keeps the whole catalog in step with the loaded skills; a command line brings only this skill's rows up to date.
        const catalog = this.deps.autoBuild ? this.catalog() : this.openCatalog();
        let skill = read;
        if (!this.deps.autoBuild) catalog.syncOne(catalogSkill(skill));
        else if (this.unsynced.delete(t.loadedAs)) {
          // Changed on disk and not reloaded yet (the registry waits for writes to settle): read as it is now, so the search sees the edit.
          skill = parseSkill(t.dir, read.root, undefined, this.deps.registry.rootChecks);
          catalog.syncOne(catalogSkill(skill));
        }
        const name = t.loadedAs;
        return searchHits(
          catalog.search(query, { ...options, skill: name }),
          () => skill,
          name,
          () => catalog.suggest(query, { skill: name }),
        );
      },
    );
  }

  /** RFC-0004's search of a skill's own index (`search --strict`): Markdown snippets, BM25 scores. */
  searchIndex(skill: string, query: string, options: { limit?: number }, cwd: string): IndexSearchResult {
    const t = this.target('search', skill, cwd);
    return withAccessLog(
      this.logger,
      t.logged,
      (result) => logArgs.search(query, result),
      () => {
        const search = skillQuery(query, options);
        return this.readIndexOf(t, skill, (index) => searchIndex(index, skill, search));
      },
    );
  }

  build(skill: string, cwd: string, options: { verify?: boolean } = {}): BuildResult & { skill: string } {
    const t = this.target('build', skill, cwd);
    const result = withAccessLog(
      this.logger,
      t.logged,
      () => logArgs.build(),
      () => {
        requireIdentity(t.read());
        return buildIndex(t.dir, t.runtimeDir, { ...this.buildOptions(t.dirName), ...(options.verify ? { verify: true } : {}) });
      },
    );
    return { skill: t.dirName, ...result };
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
    return withAccessLog(
      this.logger,
      t.logged,
      () => logArgs.stats(options),
      () => skillStats({ name: t.dirName, dir: t.dir }, t.runtimeDir, options),
    );
  }

  /** Merges fallback logs found under `project` into the primary logs (RFC-0007:C-SYNC). */
  sync(options: { project: string; skill?: string; dryRun?: boolean }): SyncResult {
    return syncLogs({ ...options, runtimeDirFor: (name) => runtimeDir(this.deps.home, name) });
  }

  private get catalogOptions(): CatalogOptions {
    const { onIndexing } = this.deps;
    return { ...this.binding, threads: this.deps.threads ?? 1, ...(onIndexing === undefined ? {} : { onIndexing }) };
  }

  /** The all-skills catalog, opened on first use (not synced). */
  private openCatalog(): SkillCatalog {
    this.catalogDb ??= SkillCatalog.open(this.deps.home, this.catalogOptions);
    return this.catalogDb;
  }

  /** The all-skills catalog, synced with the loaded skills whenever they have changed since the last sync. */
  catalog(): SkillCatalog {
    const catalog = this.openCatalog();
    const generation = this.deps.registry.generation;
    if (generation !== this.catalogGeneration && this.catalogSyncing === undefined) {
      catalog.sync(this.catalogSkills(), this.deps.onIndexProgress);
      this.catalogGeneration = generation;
    }
    return catalog;
  }

  /**
   * Syncs the catalog without holding up a long-running process: skills are read in batches with
   * the event loop free between them (progress told), so requests and events keep flowing. A
   * catalog already current costs nothing; a sync in flight is joined.
   */
  syncCatalogInBackground(): Promise<void> {
    if (this.catalogSyncing === undefined && this.catalogDb !== undefined && this.deps.registry.generation === this.catalogGeneration) return Promise.resolve();
    this.catalogSyncing ??= (async () => {
      const catalog = this.openCatalog();
      const generation = this.deps.registry.generation;
      try {
        await catalog.syncInBackground(this.catalogSkills(), this.deps.onIndexProgress);
        this.catalogGeneration = generation;
      } finally {
        this.catalogSyncing = undefined;
      }
    })();
    return this.catalogSyncing;
  }

  private catalogSkills(): CatalogSkill[] {
    const { registry } = this.deps;
    return registry.list().map((skill) => catalogSkill(skill, registry.walkedFiles(skill)));
  }

  /** One ranked list over every loaded skill, broken skills last; `prefix` makes the last word a prefix (search-as-you-type). */
  searchAll(query: string, options: { limit?: number; prefix?: boolean } = {}): SearchResult {
    const skillOf: SkillOf = (name) => this.deps.registry.get(name);
    const catalog = this.catalog();
    const result = catalog.search(query, { ...options, broken: brokenBy(skillOf) });
    // While typing, a word cut short is no typo: what was meant is asked only of a finished query.
    return searchHits(result, skillOf, null, () => (options.prefix === true ? null : catalog.suggest(query)));
  }

  close(): void {
    for (const name of [...this.openIndexes.keys()]) this.forget(name);
    this.logger.flush();
    this.catalogDb?.close();
    this.catalogDb = undefined;
  }
}
