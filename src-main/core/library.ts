/**
 * The skills and what reads them: the registry over the roots (parse cache behind it) and the
 * gateway (outline, show, open, sources, search, build, stats). It is the part of the core API that
 * needs no state.db, runs, policy, sandbox or packs, so a one-shot read from the CLI loads only
 * this; SkilltrayCore (api.ts) extends it with the rest, so every surface still calls one API.
 */
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import type { Skill } from '../shared/model.js';
import type { ServerEvent } from '../shared/contract.js';
import type { BuildResult, IndexSearchResult, OpenResult, OutlineHeading, OutlineResult, SearchResult, ShowResult, SourcesResult, StatsResult, SyncResult } from '../shared/gateway.js';
import type { CoreConfig } from './config.js';
import { emitSafely } from './events.js';
import { GatewayService, type ShowInput } from './gateway/service.js';
import type { IndexingWork } from './search/catalog.js';
import type { OpenOptions } from './gateway/open.js';
import type { OutlineOptions } from './gateway/outline.js';
import type { SourcesOptions } from './gateway/sources.js';
import type { StatsOptions } from './logs/stats.js';
import { recoverPacks } from './packs/transaction.js';
import { checkAgainstLock } from './packs/verify.js';
import { readBundledManifest } from './skills/bundled-manifest.js';
import { ParseCache } from './skills/parse-cache.js';
import { SkillRegistry } from './skills/registry.js';
import { skillNotFound } from './skills/skill-suggestions.js';

export interface LibraryOptions {
  /** The long-running owner (the app, `serve`, `mcp`): its watcher keeps search indexes current. */
  autoBuild?: boolean;
  /** RFC-0004 as written: reading a skill whose index is missing or stale is E002, not a build (`--strict`). */
  strict?: boolean;
  /** Told before a read indexes skills, so a command line can say why it takes a while. */
  onIndexing?(work: IndexingWork): void;
}

/** Loaded skills and the gateway over them; its 'event' stream says when skills change on disk. */
export class SkillLibrary extends EventEmitter<{ event: [ServerEvent] }> {
  readonly registry: SkillRegistry;
  readonly gateway: GatewayService;
  private readonly parseCache: ParseCache;
  private closingLibrary: Promise<void> | undefined;

  constructor(
    readonly config: CoreConfig,
    options: LibraryOptions = {},
  ) {
    super();
    // A pack change a killed process left half done is finished (or undone) before any skill is read.
    recoverPacks(config.home);
    // Skills are loaded on first use, and unchanged ones come from the parse cache instead of being parsed again.
    this.parseCache = ParseCache.file(join(config.home, 'runtime', '.loader', 'skills.db'), config.nativeBinding === undefined ? {} : { nativeBinding: config.nativeBinding });
    this.registry = new SkillRegistry(config.roots, {
      cache: this.parseCache,
      manifest: () => readBundledManifest(config.bundledManifest),
      // An installed pack's skill is checked against packs.lock.json (packs/verify.ts).
      rootChecks: { packs: checkAgainstLock },
    });
    this.registry.on('change', (change) => emitSafely(this, 'event', { type: 'skills.changed', kind: change.kind, name: change.name }));
    this.gateway = new GatewayService({
      home: config.home,
      registry: this.registry,
      env: config.env,
      autoBuild: options.autoBuild ?? false,
      onIndexProgress: (done, total) => emitSafely(this, 'event', { type: 'index.progress', done, total }),
      strict: options.strict ?? false,
      ...(options.onIndexing === undefined ? {} : { onIndexing: options.onIndexing }),
      ...(config.nativeBinding === undefined ? {} : { nativeBinding: config.nativeBinding }),
    });
  }

  /** A loaded skill by name (E001 when there is none). */
  getSkill(name: string): Skill {
    const skill = this.registry.get(name);
    if (!skill) throw skillNotFound(name, this.registry.list());
    return skill;
  }

  // ── gateway and search (RFC-0002, RFC-0004); `cwd` is where the caller stands, for resolution and logs ──

  outline(skill: string, options: OutlineOptions, cwd: string): OutlineResult {
    return this.gateway.outline(skill, options, cwd);
  }

  /** The outline streamed: each Markdown file's headings go to `each` as they are read. */
  outlineEach(skill: string, options: OutlineOptions, cwd: string, each: (headings: OutlineHeading[]) => void): void {
    this.gateway.outlineEach(skill, options, cwd, each);
  }

  show(skill: string, input: ShowInput, cwd: string): ShowResult {
    return this.gateway.show(skill, input, cwd);
  }

  open(skill: string, path: string, options: OpenOptions, cwd: string): OpenResult {
    return this.gateway.open(skill, path, options, cwd);
  }

  sources(skill: string, options: SourcesOptions, cwd: string): SourcesResult {
    return this.gateway.sources(skill, options, cwd);
  }

  /** One skill's sections and tools for the query, as searchAll shows them. */
  search(skill: string, query: string, options: { limit?: number }, cwd: string): SearchResult {
    return this.gateway.search(skill, query, options, cwd);
  }

  /**
   * Brings the search catalog up to date with the event loop free (index.progress told as it goes),
   * for a process that must keep answering meanwhile. Never rejects: a sync that failed is tried
   * again by the search that follows, which reports why.
   */
  async catalogCurrent(): Promise<void> {
    await this.gateway.syncCatalogInBackground().catch(() => undefined);
  }

  /** RFC-0004's search of a skill's own index, as `search --strict` prints it. */
  searchIndex(skill: string, query: string, options: { limit?: number }, cwd: string): IndexSearchResult {
    return this.gateway.searchIndex(skill, query, options, cwd);
  }

  /** One ranked result list over every loaded skill. */
  searchAll(query: string, options: { limit?: number; prefix?: boolean } = {}): SearchResult {
    return this.gateway.searchAll(query, options);
  }

  /** Builds a skill's search index (or keeps it); `verify` checks one found current for damage too. */
  build(skill: string, cwd: string, options: { verify?: boolean } = {}): BuildResult & { skill: string } {
    return this.gateway.build(skill, cwd, options);
  }

  buildAll(cwd: string, options: { verify?: boolean } = {}): ReturnType<GatewayService['buildAll']> {
    return this.gateway.buildAll(cwd, options);
  }

  stats(skill: string, options: StatsOptions, cwd: string): StatsResult {
    return this.gateway.stats(skill, options, cwd);
  }

  syncLogs(options: { project: string; skill?: string; dryRun?: boolean }): SyncResult {
    return this.gateway.sync(options);
  }

  /** Closes the gateway's indexes, stops watching the roots and closes the parse cache. */
  protected async closeLibrary(): Promise<void> {
    this.gateway.close();
    await this.registry.close();
    this.parseCache.close();
  }

  /** Closes what the library opened; calling it again waits for the first call. */
  close(): Promise<void> {
    this.closingLibrary ??= this.closeLibrary();
    return this.closingLibrary;
  }
}
