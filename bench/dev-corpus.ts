/**
 * The development corpus (issue 40): 1,878 real skill folders from three MIT-licensed repositories,
 * as `<owner+repo>/<skill>/SKILL.md` roots. Found at SKILLTRAY_DEV_CORPUS (the tarball, or a
 * directory it was extracted into), else at `../shared/corpora/real-dev.tar.gz` beside the checkout;
 * a tarball is extracted into the bench's own dir. CI has neither: the benches that need it say so.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SETTLE_MS } from '../src-main/core/skills/fingerprint.js';
import { walkSkill } from '../src-main/core/skills/walk.js';
import { isIndexedFile } from '../src-main/core/search/documents.js';
import { ROOT } from './processes.js';

export interface DevCorpus {
  /** The skill roots, one per repository. */
  roots: string[];
  /** Where it came from, for the bench's lines. */
  source: string;
}

/** The line a bench prints instead of its figures when the corpus is not there. */
export const NO_DEV_CORPUS = 'skipped: no development corpus (set SKILLTRAY_DEV_CORPUS to real-dev.tar.gz or its extracted dir, or put it at ../shared/corpora/)';

const DEFAULT_TARBALL = join(ROOT, '..', 'shared', 'corpora', 'real-dev.tar.gz');

function rootsIn(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => join(dir, entry.name))
    .sort();
}

/** The corpus ready to load (a tarball extracted under `dir` first, then left to settle), or null when there is none. */
export async function devCorpus(dir: string): Promise<DevCorpus | null> {
  const given = process.env.SKILLTRAY_DEV_CORPUS;
  const source = given !== undefined && given !== '' ? given : DEFAULT_TARBALL;
  if (!existsSync(source)) return null;
  if (statSync(source).isDirectory()) return { roots: rootsIn(source), source };
  const into = join(dir, 'real-dev');
  mkdirSync(into, { recursive: true });
  const tar = spawnSync('tar', ['-xzf', source, '-C', into], { stdio: ['ignore', 'ignore', 'pipe'] });
  if (tar.status !== 0) throw new Error(`tar -xzf ${source} failed: ${tar.stderr.toString()}`);
  // Files written a moment ago are re-read by freshness checks (skills/fingerprint.ts); settled files are what a person's disk holds.
  await sleep(SETTLE_MS + 100);
  return { roots: rootsIn(into), source };
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
