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
 *
 * By phase: resolving the skill a call names is target.ts, the index cache index-cache.ts, the
 * all-skills catalog's sync gateway-catalog.ts.
 */
import { realpathSync } from 'node:fs';
import type { Skill } from '../../shared/model.js';
import { toSkilltrayError } from '../../shared/skilltray-error.js';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import type { ErrorShape } from '../../shared/errors.js';
import { parseSkill } from '../skills/parse-skill.js';
import type { SkillRegistry } from '../skills/registry.js';
import { AccessLogger, withAccessLog } from '../logs/access-log.js';
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
import { buildIndex } from '../search/skill-index.js';
import { SkillCatalog, type CatalogProgress, type IndexingWork } from '../search/catalog.js';
import type { CatalogResult } from '../search/catalog-types.js';
import { DEFAULT_SEARCH_LIMIT, searchIndex, skillQuery } from '../search/query.js';
import { brokenBy, noResultsMessage, searchHits, type SkillOf } from '../search/search-hits.js';
import { openFile, type OpenOptions } from './open.js';
import { outlineFiles, outlineSkill, type OutlineOptions } from './outline.js';
import { runtimeDir } from './runtime-dir.js';
import { sectionQuery, showInIndex } from './show.js';
import { listSources, type SourcesOptions } from './sources.js';
import { catalogSkill, GatewayCatalog } from './gateway-catalog.js';
import { IndexCache } from './index-cache.js';
import { resolveTarget, type Target } from './target.js';

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

export interface ShowInput {
  section: string;
  file?: string;
  maxLines?: number;
}

/** The most hits a search leaving out hidden skills asks the catalog for (the catalog ranks at most 1,000 rows). */
const MAX_HIDDEN_FETCH = 1000;

export class GatewayService {
  private readonly logger: AccessLogger;
  private readonly indexes: IndexCache;
  private readonly catalogs: GatewayCatalog;

  constructor(private readonly deps: GatewayDeps) {
    // The app logs after the reply (in batches); a CLI process logs its one access as it happens.
    this.logger = new AccessLogger({
      env: deps.env,
      batch: deps.autoBuild,
      ...(deps.nativeBinding === undefined ? {} : { nativeBinding: deps.nativeBinding }),
    });
    this.indexes = new IndexCache(deps);
    this.catalogs = new GatewayCatalog(deps);
    deps.registry.on('touched', (name) => {
      this.indexes.touched(name);
      this.catalogs.touched(name);
    });
  }

  private get binding(): { nativeBinding?: string } {
    return this.deps.nativeBinding === undefined ? {} : { nativeBinding: this.deps.nativeBinding };
  }

  private target(command: string, skill: string, cwd: string): Target {
    return resolveTarget(command, skill, cwd, this.deps.registry, this.deps.home);
  }

  /** Warnings produced so far (logging disabled, stale fallback logs, a catalog kept in memory), for stderr. */
  get warnings(): readonly string[] {
    const memory = this.catalogs.inMemory;
    return memory === null || memory === undefined ? this.logger.warnings : [...this.logger.warnings, `warning: ${memory}`];
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
        return this.indexes.readIndexOf(t, skill, (index) => showInIndex(index, skill, show));
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
        const name = t.loadedAs;
        // A command line's search of a big skill queries the catalog while the skill's files are checked (searchAhead).
        const early = name === null || this.deps.autoBuild ? null : this.searchAhead(name, query, options);
        const read = t.read();
        if (name === null) {
          // A skill read by path, not loaded: searched in a catalog of its own, kept for this call only.
          const own = SkillCatalog.inMemory(this.catalogs.options);
          try {
            own.sync([catalogSkill(read)]);
            const only: SkillOf = () => read;
            return searchHits(own.search(query, { ...options, skill: read.name }), only, read.name, () => own.suggest(query, { skill: read.name }));
          } finally {
            own.close();
          }
        }
        // The app keeps the whole catalog in step with the loaded skills; a command line brings only this skill's rows up to date.
        const catalog = this.deps.autoBuild ? this.catalogs.synced() : this.catalogs.open();
        let skill = read;
        const suggest = () => catalog.suggest(query, { skill: name });
        if (!this.deps.autoBuild) {
          if (early?.stands(skill) === true) return searchHits(early.result, () => skill, name, suggest);
          catalog.syncOne(catalogSkill(skill));
        } else if (this.catalogs.takeUnsynced(name)) {
          // Changed on disk and not reloaded yet (the registry waits for writes to settle): read as it is now, so the search sees the edit.
          skill = parseSkill(t.dir, read.root, undefined, this.deps.registry.rootChecks);
          catalog.syncOne(catalogSkill(skill));
        } else if (this.catalogs.syncing && catalog.holding(catalogSkill(skill)) === null) {
          // The first sync after start is still reading (the app answers meanwhile): this skill's rows go in now, not "no results".
          catalog.syncOne(catalogSkill(skill));
        }
        return searchHits(catalog.search(query, { ...options, skill: name }), () => skill, name, suggest);
      },
    );
  }

  /**
   * A command line's search of skill `name` as the parse cache recorded it, made while a helper
   * thread checks the skill's files (skills/tree-check.ts): null unless such a check started and the
   * catalog holds the skill as recorded. Its result stands for `skill` as the check then gives it
   * when the catalog holds that skill at the version it was searched at: syncOne would change
   * nothing, and a search now would read what this one read.
   */
  private searchAhead(name: string, query: string, options: { limit?: number }): { result: CatalogResult; stands(skill: Skill): boolean } | null {
    const ahead = this.deps.registry.ahead(name);
    if (ahead === undefined) return null;
    const catalog = this.catalogs.open();
    const version = catalog.holding(catalogSkill(ahead));
    if (version === null) return null;
    try {
      const result = catalog.search(query, { ...options, skill: name });
      return { result, stands: (skill) => catalog.holding(catalogSkill(skill)) === version };
    } catch {
      // Left to the search after the check, which syncs the skill first and says what failed.
      return null;
    }
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
        return this.indexes.readIndexOf(t, skill, (index) => searchIndex(index, skill, search));
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
        return buildIndex(t.dir, t.runtimeDir, { ...this.indexes.buildOptions(t.dirName), ...(options.verify ? { verify: true } : {}) });
      },
    );
    return { skill: t.dirName, ...result };
  }

  /** Brings a loaded skill's index up to date for the app; not an access, so not logged. */
  refreshIndex(name: string): void {
    const skill = this.deps.registry.get(name);
    if (!skill) return;
    buildIndex(skill.dir, runtimeDir(this.deps.home, skill.name), this.binding);
    this.indexes.vouch(name, realpathSync.native(skill.dir));
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

  /** The all-skills catalog, synced with the loaded skills whenever they have changed since the last sync. */
  catalog(): SkillCatalog {
    return this.catalogs.synced();
  }

  /** See GatewayCatalog.syncInBackground. */
  syncCatalogInBackground(): Promise<void> {
    return this.catalogs.syncInBackground();
  }

  /** One ranked list over every loaded skill, broken skills last; `prefix` makes the last word a prefix (search-as-you-type). */
  searchAll(query: string, options: { limit?: number; prefix?: boolean; hidden?: (skill: string) => boolean } = {}): SearchResult {
    const { hidden, ...asked } = options;
    const skillOf: SkillOf = (name) => this.deps.registry.get(name);
    const catalog = this.catalogs.synced();
    const answer = (limit: number | undefined): SearchResult => {
      const result = catalog.search(query, { ...asked, ...(limit === undefined ? {} : { limit }), broken: brokenBy(skillOf) });
      // While typing, a word cut short is no typo: what was meant is asked only of a finished query.
      return searchHits(result, skillOf, null, () => (asked.prefix === true ? null : catalog.suggest(query)));
    };
    if (hidden === undefined) return this.whileFilling(answer(asked.limit));
    // Hits of hidden skills are left out, so more are asked for until the answer is full or the catalog has no more.
    const wanted = asked.limit ?? DEFAULT_SEARCH_LIMIT;
    for (let ask = wanted; ; ask = Math.min(MAX_HIDDEN_FETCH, ask * 4)) {
      const found = answer(ask);
      const kept = found.results.filter((hit) => !hidden(hit.skill));
      if (kept.length < wanted && found.results.length === ask && ask < MAX_HIDDEN_FETCH) continue;
      const results = kept.slice(0, wanted).map((hit, i) => ({ ...hit, rank: i + 1 }));
      if (results.length > 0 || found.results.length === 0) return this.whileFilling({ ...found, results });
      return this.whileFilling({ ...found, results, message: noResultsMessage(query, null, null), did_you_mean: null });
    }
  }

  /** An empty answer given while the app's first catalog sync is still reading says so: the words may be in a skill not read yet. */
  private whileFilling(result: SearchResult): SearchResult {
    if (result.results.length > 0 || !this.catalogs.syncing) return result;
    const filling = this.catalogs.filling;
    const read = filling === null ? '' : ` (${filling.done} of ${filling.total} skills read)`;
    return {
      ...result,
      message: `no results for "${result.query}" yet: the search catalog is still being filled${read}; ask again in a moment`,
      did_you_mean: null,
    };
  }

  close(): void {
    this.indexes.close();
    this.logger.flush();
    this.catalogs.close();
  }
}
