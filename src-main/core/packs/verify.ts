/**
 * The loader's check of an installed pack's skill against `packs.lock.json`: the skill's manifest
 * hash must be the one recorded at install; otherwise a W416 diagnostic names the files that were
 * changed, added or removed behind the lock's back. The lock is read once per change of the file.
 */
import { statSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import type { Skill } from '../../shared/model.js';
import type { DiagnosticList } from '../skills/diagnostics.js';
import { changedFiles } from '../skills/changed-files.js';
import type { SkillFile } from '../skills/walk.js';
import { readLock, type PackLock } from './lock-file.js';

let cached: { path: string; mtimeMs: number; size: number; lock: PackLock | null } | null = null;

/** The lock beside a packs root, read again only when the file changed; null when unreadable. */
function lockFor(packsRoot: string): PackLock | null {
  const home = dirname(packsRoot);
  const path = join(home, 'packs.lock.json');
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return { version: 1, packs: {} };
  }
  if (cached !== null && cached.path === path && cached.mtimeMs === stats.mtimeMs && cached.size === stats.size) return cached.lock;
  let lock: PackLock | null;
  try {
    lock = readLock(home);
  } catch {
    lock = null;
  }
  cached = { path, mtimeMs: stats.mtimeMs, size: stats.size, lock };
  return lock;
}

/** Adds W416 to an installed pack's skill whose files are not the ones its lock entry records. */
export function checkAgainstLock(skill: Skill, files: readonly SkillFile[], diags: DiagnosticList): void {
  const rel = relative(skill.root.path, skill.dir).split(sep);
  const pack = rel[0];
  if (rel.length !== 2 || pack === undefined) return;
  const lock = lockFor(skill.root.path);
  if (lock === null) {
    diags.add('W416', `packs.lock.json cannot be read, so installed pack '${pack}' cannot be verified`, skill.file, 1);
    return;
  }
  const entry = lock.packs[pack];
  const locked = entry?.skills[basename(skill.dir)];
  if (entry === undefined || locked === undefined) {
    diags.add('W416', `skill '${skill.name}' in pack folder '${pack}' is not in packs.lock.json: it was not installed by Skilltray`, skill.file, 1);
    return;
  }
  if (locked.hash === skill.hash) return;
  const changed = changedFiles(files, entry.files, `${locked.dir}/`);
  const shown = changed.slice(0, 5).join(', ');
  diags.add(
    'W416',
    `installed pack '${pack}' was edited behind its back: ${shown || 'its files differ'}${changed.length > 5 ? ` and ${changed.length - 5} more` : ''} differ from packs.lock.json; reinstall or update it`,
    skill.file,
    1,
  );
}
