/** Which files of a skill differ from the digests recorded for it (a pack's lock, the bundled manifest). */
import { hashFile } from '../files/hash.js';
import type { SkillFile } from './walk.js';

/**
 * Files of the skill that differ from the lock's digests (the walk skips hidden files, as the hash does); also what a bundled skill changed since it shipped.
 */
export function changedFiles(files: readonly SkillFile[], locked: Record<string, string>, prefix: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const file of files) {
    const path = `${prefix}${file.rel}`;
    seen.add(path);
    const digest = locked[path];
    if (digest === undefined) out.push(`${file.rel} (added)`);
    else if (safeHash(file.abs) !== digest) out.push(`${file.rel} (changed)`);
  }
  for (const path of Object.keys(locked)) {
    if (!path.startsWith(prefix) || seen.has(path)) continue;
    const rel = path.slice(prefix.length);
    if (!rel.split('/').some((s) => s.startsWith('.'))) out.push(`${rel} (removed)`);
  }
  return out;
}

function safeHash(abs: string): string {
  try {
    return hashFile(abs);
  } catch {
    return 'unreadable';
  }
}
