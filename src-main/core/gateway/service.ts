/**
 * The gateway and search as one service over the loaded skills: resolve the skill (RFC-0007),
 * run the operation, log the access. In app mode (`autoBuild`) indexes are kept current, so a
 * person in the UI never meets E002; the CLI keeps the RFC's behaviour and says to build.
 */
import { homedir } from 'node:os';
import { basename } from 'node:path';
import type { Skill } from '../../shared/model.js';
import { skillcErrors, toSkilltrayError } from '../errors.js';
import type { ErrorShape } from '../../shared/errors.js';
import { locateSkill } from '../skills/locate.js';
import { parseSkill } from '../skills/parse-skill.js';
import type { SkillRegistry } from '../skills/registry.js';
import { AccessLogger, withAccessLog, type LoggedCommand } from '../logs/access-log.js';
import { logArgs } from '../logs/log-args.js';
import { skillStats, type StatsOptions } from '../logs/stats.js';
import type { BuildResult, CatalogResult, OpenResult, OutlineResult, SearchResult, ShowResult, SourcesResult, StatsResult, SyncResult } from '../../shared/gateway.js';
import { syncLogs } from '../logs/sync.js';
import { buildIndex } from '../search/index.js';
import { SkillCatalog } from '../search/catalog.js';
import { searchSkill } from '../search/query.js';
import { openFile, type OpenOptions } from './open.js';
import { outlineSkill, type OutlineOptions } from './outline.js';
import { runtimeDir } from './runtime-dir.js';
import { showSection } from './show.js';
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
}

/** The skill a gateway call is about, resolved. */
interface Target extends LoggedCommand {
  /** Canonical source directory. */
  dir: string;
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

  constructor(private readonly deps: GatewayDeps) {
    this.logger = new AccessLogger({ env: deps.env, ...(deps.nativeBinding === undefined ? {} : { nativeBinding: deps.nativeBinding }) });
  }

  private get binding(): { nativeBinding?: string } {
    return this.deps.nativeBinding === undefined ? {} : { nativeBinding: this.deps.nativeBinding };
  }

  /** Warnings logging produced so far (logging disabled, stale fallback logs), for stderr. */
  get warnings(): readonly string[] {
    return this.logger.warnings;
  }

  private target(command: string, skill: string, cwd: string): Target {
    const at = locateSkill(skill, cwd, this.deps.registry);
    // The canonical directory's basename names the runtime dir and the access log's skill.
    const name = basename(at.canonical);
    const read = (): Skill => at.loaded ?? parseSkill(at.dir, at.root);
    return { command, skill: name, skillPath: at.canonical, runtimeDir: runtimeDir(this.deps.home, name), cwd, dir: at.canonical, read };
  }

  /** In app mode, makes sure the index is current before reading it. */
  private ensureIndex(t: Target): void {
    if (this.deps.autoBuild) buildIndex(t.dir, t.runtimeDir, this.binding);
  }

  outline(skill: string, options: OutlineOptions, cwd: string): OutlineResult {
    const t = this.target('outline', skill, cwd);
    return withAccessLog(this.logger, t, () => logArgs.outline(options), () => outlineSkill(t.dir, options));
  }

  show(skill: string, input: ShowInput, cwd: string): ShowResult {
    const t = this.target('show', skill, cwd);
    const options = { ...input, skill, ...this.binding };
    return withAccessLog(this.logger, t, (result) => logArgs.show(options, result), () => {
      this.ensureIndex(t);
      return showSection(t.dir, t.runtimeDir, options);
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
      this.ensureIndex(t);
      return searchSkill(t.dir, t.runtimeDir, query, { ...options, skill, ...this.binding });
    });
  }

  build(skill: string, cwd: string): BuildResult & { skill: string } {
    const t = this.target('build', skill, cwd);
    const result = withAccessLog(this.logger, t, () => logArgs.build(), () => {
      requireIdentity(t.read());
      return buildIndex(t.dir, t.runtimeDir, this.binding);
    });
    return { skill: t.skill, ...result };
  }

  /** Brings a loaded skill's index up to date for the app; not an access, so not logged. */
  refreshIndex(name: string): void {
    const skill = this.deps.registry.get(name);
    if (skill) buildIndex(skill.dir, runtimeDir(this.deps.home, skill.name), this.binding);
  }

  /** Builds the index of every loaded skill; one failure (E003) does not stop the others. */
  buildAll(cwd: string): { built: (BuildResult & { skill: string })[]; failed: { skill: string; error: ErrorShape }[] } {
    const built: (BuildResult & { skill: string })[] = [];
    const failed: { skill: string; error: ErrorShape }[] = [];
    for (const skill of this.deps.registry.list()) {
      try {
        built.push(this.build(skill.dir, cwd));
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
    if (generation !== this.catalogGeneration) {
      this.catalogDb.sync(this.deps.registry.list().map((s) => ({ name: s.name, dir: s.dir, hash: s.hash, tools: s.tools.map((t) => t.name) })));
      this.catalogGeneration = generation;
    }
    return this.catalogDb;
  }

  /** One ranked list over every loaded skill; `prefix` makes the last word a prefix (search-as-you-type). */
  searchAll(query: string, options: { limit?: number; prefix?: boolean } = {}): CatalogResult {
    return this.catalog().search(query, options);
  }

  close(): void {
    this.catalogDb?.close();
    this.catalogDb = undefined;
  }
}

/** Where gateway commands say they were invoked from when the caller is not a shell (HTTP, MCP, IPC). */
export function defaultGatewayCwd(env: NodeJS.ProcessEnv): string {
  return env.HOME || homedir();
}
