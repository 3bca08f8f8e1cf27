/**
 * The gateway's all-skills search catalog (service.ts): opened on first use and kept in step with
 * the loaded skills, at once for a command line or in the background for a long-running process;
 * in app mode it also keeps which skills changed on disk before the registry reloaded them.
 */
import type { Skill } from '../../shared/model.js';
import { SkillCatalog, type CatalogOptions, type CatalogProgress, type CatalogSkill, type IndexingWork } from '../search/catalog.js';
import type { SkillRegistry } from '../skills/registry.js';
import type { SkillFile } from '../skills/walk.js';

/** What the catalog is told of the gateway it serves (GatewayDeps' fields of the same names). */
export interface GatewayCatalogDeps {
  home: string;
  registry: SkillRegistry;
  nativeBinding?: string;
  threads?: number;
  onIndexProgress?: CatalogProgress;
  onIndexing?(work: IndexingWork): void;
}

/** The catalog's view of a loaded skill; `files`, the ones its load walked, when known. */
export function catalogSkill(skill: Skill, files?: readonly SkillFile[]): CatalogSkill {
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

export class GatewayCatalog {
  private catalogDb: SkillCatalog | undefined;
  /** Registry generation the catalog was last synced with. */
  private catalogGeneration = -1;
  /** A sync under way in the background (the app at start): searches meanwhile read the catalog as it is. */
  private catalogSyncing: Promise<void> | undefined;
  /** How far that sync has read: skills read of those it has to (null before it says, and when none is under way). */
  private filled: { done: number; total: number } | null = null;
  /** App mode: loaded skills changed on disk whose catalog rows a search of that skill must read again (the registry reloads them only after its debounce). */
  private readonly unsynced = new Set<string>();

  constructor(private readonly deps: GatewayCatalogDeps) {}

  /** Why the catalog lives in memory (its file could not be written); null while it is the file, undefined before it is opened. */
  get inMemory(): string | null | undefined {
    return this.catalogDb?.inMemory;
  }

  /** The watcher reported a change under `name` (null: anywhere): a search of it reads its rows again. */
  touched(name: string | null): void {
    for (const each of name === null ? this.deps.registry.list().map((skill) => skill.name) : [name]) this.unsynced.add(each);
  }

  /** Whether a background sync is under way: until it ends, the catalog may not hold every loaded skill as loaded. */
  get syncing(): boolean {
    return this.catalogSyncing !== undefined;
  }

  /** While a background sync is under way, how far it has read (null before it says, and when none is). */
  get filling(): { done: number; total: number } | null {
    return this.filled;
  }

  /** Whether `name` changed on disk since a search last read its rows; forgotten once asked. */
  takeUnsynced(name: string): boolean {
    return this.unsynced.delete(name);
  }

  get options(): CatalogOptions {
    const { onIndexing, nativeBinding } = this.deps;
    return { ...(nativeBinding === undefined ? {} : { nativeBinding }), threads: this.deps.threads ?? 1, ...(onIndexing === undefined ? {} : { onIndexing }) };
  }

  /** The all-skills catalog, opened on first use (not synced). */
  open(): SkillCatalog {
    this.catalogDb ??= SkillCatalog.open(this.deps.home, this.options);
    return this.catalogDb;
  }

  /** The all-skills catalog, synced with the loaded skills whenever they have changed since the last sync. */
  synced(): SkillCatalog {
    const catalog = this.open();
    const generation = this.deps.registry.generation;
    if (generation !== this.catalogGeneration && this.catalogSyncing === undefined) {
      catalog.sync(this.skills(), this.deps.onIndexProgress);
      this.catalogGeneration = generation;
    }
    return catalog;
  }

  /**
   * Syncs the catalog without holding up a long-running process: skills are read in batches with
   * the event loop free between them (progress told), so requests and events keep flowing. A
   * catalog already current costs nothing; a sync in flight is joined.
   */
  syncInBackground(): Promise<void> {
    if (this.catalogSyncing === undefined && this.catalogDb !== undefined && this.deps.registry.generation === this.catalogGeneration) return Promise.resolve();
    this.catalogSyncing ??= (async () => {
      const catalog = this.open();
      const generation = this.deps.registry.generation;
      const progress = (done: number, total: number): void => {
        this.filled = { done, total };
        this.deps.onIndexProgress?.(done, total);
      };
      try {
        await catalog.syncInBackground(this.skills(), progress);
        this.catalogGeneration = generation;
      } finally {
        this.catalogSyncing = undefined;
        this.filled = null;
      }
    })();
    return this.catalogSyncing;
  }

  private skills(): CatalogSkill[] {
    const { registry } = this.deps;
    return registry.list().map((skill) => catalogSkill(skill, registry.walkedFiles(skill)));
  }

  close(): void {
    this.catalogDb?.close();
    this.catalogDb = undefined;
  }
}
