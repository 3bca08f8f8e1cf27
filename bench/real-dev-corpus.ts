/**
 * The development corpus of real skills (README beside it in shared/corpora): where it is, and its
 * skill roots once extracted. CI has no copy, so every caller must cope with `null`.
 */
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { x as extract } from 'tar';

/** A tarball or an already extracted folder; the default is where the shared corpora live. */
export const DEV_CORPUS_ENV = 'SKILLTRAY_DEV_CORPUS';
const DEFAULT_DEV_CORPUS = '/work/shared/corpora/real-dev.tar.gz';

/** The corpus to load, or null (with the reason) when there is none on this machine. */
export function devCorpusSource(): { path: string } | { missing: string } {
  const given = process.env[DEV_CORPUS_ENV];
  const path = given !== undefined && given !== '' ? given : DEFAULT_DEV_CORPUS;
  return existsSync(path) ? { path } : { missing: `no development corpus at ${path} (set ${DEV_CORPUS_ENV} to the tarball or its extracted folder)` };
}

/** Its skill roots (`<owner+repo>/`), extracting a tarball into `into` first. */
export async function devCorpusRoots(source: string, into: string): Promise<string[]> {
  let folder = source;
  if (statSync(source).isFile()) {
    mkdirSync(into, { recursive: true });
    await extract({ file: source, cwd: into });
    folder = into;
  }
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(folder, entry.name))
    .sort();
}
