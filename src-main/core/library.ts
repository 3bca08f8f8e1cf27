/**
 * The skills and what reads them: the registry over the roots (parse cache behind it) and the
 * gateway (outline, show, open, sources, search, build, stats). It is the part of the core API that
 * needs no state.db, runs, policy, sandbox or packs, so a one-shot read from the CLI loads only
 * this; SkilltrayCore (api.ts) holds one beside the rest. Reads go to `gateway` itself.
 */
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import type { Skill } from '../shared/model.js';
import type { ServerEvent } from '../shared/contract.js';
import { userHome, type CoreConfig } from './config.js';
import { emitSafely } from './events.js';
import { keepPrivate } from './files/private-folder.js';
import { GatewayService } from './gateway/service.js';
import type { IndexingWork } from './search/catalog.js';
import { recoverPacks } from './packs/transaction.js';
import { checkAgainstLock } from './packs/verify.js';
import { checkServedSkill } from './served/served-check.js';
import { SourceFiles } from './served/source-files.js';
import { notLoaded } from './served/served-state.js';
import { readBundledManifest } from './skills/bundled-manifest.js';
import { ParseCache } from './skills/parse-cache.js';
import { SkillRegistry } from './skills/registry.js';
import type { TreeChecks } from './skills/tree-check.js';
import { skillNotFound } from './skills/skill-suggestions.js';

export interface LibraryOptions {
  /** The long-running owner (the app, `serve`, `mcp`): its watcher keeps search indexes current. */
  autoBuild?: boolean;
  /** RFC-0004 as written: reading a skill whose index is missing or stale is E002, not a build (`--strict`). */
  strict?: boolean;
  /** Told before a read indexes skills, so a command line can say why it takes a while. */
  onIndexing?(work: IndexingWork): void;
  /** A command about one skill: its tree checked on a helper thread started with the command (skills/tree-check.ts); ended with the library. */
  treeChecks?: TreeChecks;
}

/** Loaded skills and the gateway over them; its 'event' stream says when skills change on disk. */
export class SkillLibrary extends EventEmitter<{ event: [ServerEvent] }> {
  readonly registry: SkillRegistry;
  readonly gateway: GatewayService;
  private readonly parseCache: ParseCache;
  private closingLibrary: Promise<void> | undefined;
  private readonly treeChecks: TreeChecks | null;

  constructor(
    readonly config: CoreConfig,
    options: LibraryOptions = {},
  ) {
    super();
    // The home holds every run's output and the API token: nobody else may read it (docs/security.md).
    keepPrivate(config.home);
    // A pack change a killed process left half done is finished (or undone) before any skill is read.
    recoverPacks(config.home);
    // Skills are loaded on first use, and unchanged ones come from the parse cache instead of being parsed again.
    this.parseCache = ParseCache.file(
      join(config.home, 'runtime', '.loader', 'skills.db'),
      config.nativeBinding === undefined ? {} : { nativeBinding: config.nativeBinding },
    );
    this.registry = new SkillRegistry(config.roots, {
      cache: this.parseCache,
      manifest: () => readBundledManifest(config.bundledManifest),
      // An installed pack's skill is checked against packs.lock.json (packs/verify.ts); a served one against the person's approval (served/served-check.ts).
      rootChecks: { packs: checkAgainstLock, mcp: checkServedSkill },
      // A declaration may not reach the person's secrets or Skilltray's own home (E433, E434).
      places: { platform: process.platform, userHome: userHome(config.env), skilltrayHome: config.home },
      threads: config.threads,
      ...(options.treeChecks === undefined ? {} : { treeChecks: options.treeChecks }),
    });
    this.treeChecks = options.treeChecks ?? null;
    this.registry.on('change', (change) => emitSafely(this, 'event', { type: 'skills.changed', kind: change.kind, name: change.name }));
    this.gateway = new GatewayService({
      home: config.home,
      registry: this.registry,
      env: config.env,
      autoBuild: options.autoBuild ?? false,
      onIndexProgress: (done, total) => emitSafely(this, 'event', { type: 'index.progress', done, total }),
      strict: options.strict ?? false,
      threads: config.threads,
      ...(options.onIndexing === undefined ? {} : { onIndexing: options.onIndexing }),
      ...(config.nativeBinding === undefined ? {} : { nativeBinding: config.nativeBinding }),
    });
  }

  /** A loaded skill by name (E001 when there is none; E869 for a skill an MCP source serves that is not loaded, and why). */
  getSkill(name: string): Skill {
    const skill = this.registry.get(name);
    if (!skill) throw notLoaded(new SourceFiles(this.config.home), name) ?? skillNotFound(name, this.registry.list());
    return skill;
  }

  /**
   * Brings the search catalog up to date with the event loop free (index.progress told as it goes),
   * for a process that must keep answering meanwhile. Never rejects: a sync that failed is tried
   * again by the search that follows, which reports why.
   */
  async catalogCurrent(): Promise<void> {
    await this.gateway.syncCatalogInBackground().catch(() => undefined);
  }

  /** Closes the gateway's indexes, stops watching the roots and closes the parse cache; calling it again waits for the first call. */
  close(): Promise<void> {
    this.closingLibrary ??= (async () => {
      this.gateway.close();
      this.treeChecks?.close();
      await this.registry.close();
      this.parseCache.close();
    })();
    return this.closingLibrary;
  }
}
