/**
 * Packages the core loads synchronously the first time it needs them, not when its modules load:
 * a command that never parses Markdown or YAML (a search served from the parse cache) never pays
 * for loading a parser. Node ≥ 20.19 requires ES modules too (marked is one).
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A function returning package `id` (as `require` gives it), loaded on its first call. */
export function lazyRequire<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(id) as T);
}
