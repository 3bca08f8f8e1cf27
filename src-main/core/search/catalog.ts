/**
 * One ranked search across every loaded skill (`skilltray search --all`, search-as-you-type in the
 * UI and the palette): a catalog at `<home>/runtime/.catalog/search.db` holding each skill's
 * sections as plain text (its own index keeps the Markdown) plus the skill's name, and text in
 * scripts written without spaces a second time as character pairs (unspaced-text.ts). `sync` brings
 * it in line with the loaded skills by content hash in one transaction, so unchanged skills cost
 * nothing (their records are kept in memory until another process writes the catalog); a catalog
 * that fails to open or read is deleted and rebuilt. Schema and queries are in catalog-sql.ts; how
 * ranked rows become hits (nesting merged, grouped by skill) in catalog-hits.ts. The work is split by
 * phase: the file (catalog-store.ts), syncing it (catalog-sync.ts) and searching it (catalog-query.ts).
 */
import { CatalogQuery } from './catalog-query.js';
import { CatalogStore, catalogPath } from './catalog-store.js';
import { CatalogWriter } from './catalog-sync.js';
import type { CatalogOptions, CatalogProgress, CatalogResult, CatalogSearchOptions, CatalogSkill, CatalogSync } from './catalog-types.js';

export type {
  CatalogHit,
  CatalogOptions,
  CatalogProgress,
  CatalogResult,
  CatalogSearchOptions,
  CatalogSkill,
  CatalogSync,
  IndexingWork,
} from './catalog-types.js';
export { catalogPath } from './catalog-store.js';
export { closestWord, followingRanks } from './catalog-query.js';

/** An open catalog; keep it open for search-as-you-type (statements are prepared once). */
export class SkillCatalog {
  private readonly store: CatalogStore;
  private readonly writer: CatalogWriter;
  private readonly query: CatalogQuery;

  private constructor(path: string, options: CatalogOptions) {
    this.store = new CatalogStore(path, options);
    this.writer = new CatalogWriter(this.store);
    this.query = new CatalogQuery(this.store, this.writer);
  }

  /** Opens (creating or rebuilding as needed) the catalog under `home`. */
  static open(home: string, options: CatalogOptions = {}): SkillCatalog {
    return new SkillCatalog(catalogPath(home), options);
  }

  /** A catalog in memory, gone once closed: for a skill read by path, which no stored catalog holds. */
  static inMemory(options: CatalogOptions = {}): SkillCatalog {
    return new SkillCatalog(':memory:', options);
  }

  get path(): string {
    return this.store.path;
  }

  /** Why the catalog lives in memory (its file could not be written), for a warning; null while it is the file. */
  get inMemory(): string | null {
    return this.store.inMemory;
  }

  /** See CatalogWriter.sync. */
  sync(skills: readonly CatalogSkill[], progress?: CatalogProgress): CatalogSync {
    return this.writer.sync(skills, progress);
  }

  /** See CatalogWriter.syncOne. */
  syncOne(skill: CatalogSkill): CatalogSync {
    return this.writer.syncOne(skill);
  }

  /** See CatalogWriter.holding. */
  holding(skill: CatalogSkill): number | null {
    return this.writer.holding(skill);
  }

  /** See CatalogWriter.syncInBackground. */
  syncInBackground(skills: readonly CatalogSkill[], progress?: CatalogProgress): Promise<CatalogSync> {
    return this.writer.syncInBackground(skills, progress);
  }

  /** See CatalogQuery.search. */
  search(query: string, options: CatalogSearchOptions = {}): CatalogResult {
    return this.query.search(query, options);
  }

  /** See CatalogQuery.suggest. */
  suggest(query: string, options: { skill?: string } = {}): string | null {
    return this.query.suggest(query, options);
  }

  /** Skills the catalog holds, by name, with their hash and row count. */
  skills(): { name: string; dir: string; hash: string; sections: number }[] {
    return this.store.skills();
  }

  close(): void {
    this.store.close();
  }
}
