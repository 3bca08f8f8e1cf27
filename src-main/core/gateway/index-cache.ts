/**
 * The gateway's index cache (service.ts): each read builds a missing or stale index of a skill
 * first, or, in app mode, skips the look at the sources while the registry's watcher vouches for an
 * index and reads the one kept open. The watcher's report of a change ends the vouching.
 */
import { SkilltrayError } from '../../shared/skilltray-error.js';
import type { IndexingWork } from '../search/catalog.js';
import { isIndexedFile } from '../search/documents.js';
import { buildIndex, openIndexForSearch, withSkillIndex, type BuildOptions, type OpenIndex } from '../search/skill-index.js';
import type { SkillRegistry } from '../skills/registry.js';
import type { Target } from './target.js';

/** What the index cache is told of the gateway it serves (GatewayDeps' fields of the same names). */
export interface IndexCacheDeps {
  registry: SkillRegistry;
  autoBuild: boolean;
  strict?: boolean;
  nativeBinding?: string;
  onIndexing?(work: IndexingWork): void;
}

export class IndexCache {
  /** App mode: loaded skills (name → canonical dir) whose index was found current since the watcher last reported a change in them. */
  private readonly current = new Map<string, string>();
  /** App mode: the open indexes of vouched-for skills, kept open between reads. */
  private readonly openIndexes = new Map<string, OpenIndex>();

  constructor(private readonly deps: IndexCacheDeps) {}

  private get binding(): { nativeBinding?: string } {
    return this.deps.nativeBinding === undefined ? {} : { nativeBinding: this.deps.nativeBinding };
  }

  /** How an index of `skill` is built: through the native binding, telling `onIndexing` before it writes. */
  buildOptions(skill: string): BuildOptions {
    const { onIndexing } = this.deps;
    if (onIndexing === undefined) return this.binding;
    return {
      ...this.binding,
      beforeWrite: (files) => onIndexing({ skills: [skill], bytes: files.reduce((sum, f) => sum + (isIndexedFile(f.rel) ? f.size : 0), 0) }),
    };
  }

  /** Remembers that a loaded skill's index is current, while the watcher can say when that stops being true. */
  vouch(name: string, canonicalDir: string): void {
    this.forget(name);
    if (this.deps.registry.watching) this.current.set(name, canonicalDir);
  }

  /** Stops vouching for a skill's index and closes it if it was kept open. */
  forget(name: string): void {
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
  readIndexOf<T>(t: Target, skill: string, read: (index: OpenIndex) => T): T {
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

  /** The watcher reported a change under `name` (null: anywhere): its index is no longer vouched for. */
  touched(name: string | null): void {
    for (const each of name === null ? [...this.current.keys()] : [name]) this.forget(each);
  }

  /** Closes every index kept open. */
  close(): void {
    for (const name of [...this.openIndexes.keys()]) this.forget(name);
  }
}
