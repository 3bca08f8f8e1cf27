/**
 * The development corpus (issue 40) ready to load for the search bench: found and extracted by
 * real-dev-corpus.ts (SKILLTRAY_DEV_CORPUS, else the shared corpora), then left to settle; and the
 * bytes of what a search index reads of it. CI has none: the benches that need it say so.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SETTLE_MS } from '../src-main/core/skills/fingerprint.js';
import { walkSkill } from '../src-main/core/skills/walk.js';
import { isIndexedFile } from '../src-main/core/search/documents.js';
import { devCorpusRoots, devCorpusSource } from './real-dev-corpus.js';

export interface DevCorpus {
  /** The skill roots, one per repository. */
  roots: string[];
  /** Where it came from, for the bench's lines. */
  source: string;
}

/** The line a bench prints instead of its figures when the corpus is not there. */
export function noDevCorpus(missing: string): string {
  return `skipped: ${missing}`;
}

/** The corpus ready to load (a tarball extracted under `dir` first, then left to settle), or the reason there is none. */
export async function devCorpus(dir: string): Promise<DevCorpus | { missing: string }> {
  const source = devCorpusSource();
  if ('missing' in source) return source;
  const roots = await devCorpusRoots(source.path, join(dir, 'real-dev'));
  // Files written a moment ago are re-read by freshness checks (skills/fingerprint.ts); settled files are what a person's disk holds.
  await sleep(SETTLE_MS + 100);
  return { roots, source: source.path };
}

/** Bytes of the files a search index reads (Markdown and text) in every skill of the roots: what the catalog holds. */
export function indexedBytes(roots: readonly string[]): number {
  let bytes = 0;
  for (const root of roots) {
    for (const entry of readdirSync(root, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith('.') || !existsSync(join(root, entry.name, 'SKILL.md'))) continue;
      for (const file of walkSkill(join(root, entry.name)).files) if (isIndexedFile(file.rel)) bytes += file.size;
    }
  }
  return bytes;
}
