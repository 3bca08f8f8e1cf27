/**
 * What a run's folders hold that the box must treat apart: the guarded entries other programs act
 * on later (box-fields.ts: a repository's hooks and config, an editor's tasks, CI workflows, shell
 * and package-manager startup files), which stay read-only inside a writable workspace unless the
 * skill declares it writes them; Unix sockets, which a read-only bind would still let a tool connect
 * to; and the real git folder a worktree's `.git` file names, without which git cannot read it.
 */
import { lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync, type Dirent } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { GUARDED, INNER_GUARDS } from '../../skills/box-fields.js';
import { isInside } from '../../files/paths.js';
import type { Mask } from './secret-paths.js';

/** How far the scan looks: folders below the top, and entries in all. */
export const SCAN_DEPTH = 4;
export const SCAN_ENTRIES = 20_000;

/** Folders the scan never enters: dependencies hold neither guarded entries of this project nor its sockets. */
const UNSCANNED = new Set(['node_modules']);

/** What a scan found. */
export interface FolderScan {
  /** Guarded entries that exist (canonical), to bind read-only, minus those declared written. */
  guarded: Mask[];
  /** Guarded names absent at the top of a writable folder, which placeholders hold during the run. */
  absent: Mask[];
  /** Unix sockets, to hide. */
  sockets: string[];
  /** Repositories' real git folders a `.git` file points to (worktrees, submodules) outside the folder. */
  gitdirs: string[];
  /** True when the scan stopped at SCAN_ENTRIES: deeper entries were not looked at. */
  truncated: boolean;
}

/** The folder a `.git` file (`gitdir: …`) names, and the repository's common folder for a worktree; canonical, existing. */
function gitdirsOf(dotGit: string): string[] {
  let text: string;
  try {
    text = readFileSync(dotGit, 'utf8');
  } catch {
    return [];
  }
  const match = /^gitdir: (.+)$/m.exec(text);
  if (match === null) return [];
  const found: string[] = [];
  try {
    const gitdir = realpathSync(resolve(dirname(dotGit), (match[1] ?? '').trim()));
    found.push(gitdir);
    const common = readFileSync(join(gitdir, 'commondir'), 'utf8').trim();
    found.push(realpathSync(resolve(gitdir, common)));
  } catch {
    // no such folder, or not a worktree (no commondir)
  }
  return found;
}

/** Where a guarded symlink leads, when that is inside `root`: existing (to guard) or not yet (to hold with a placeholder). */
function linkTarget(root: string, link: string, kind: 'dir' | 'file', scan: FolderScan): void {
  let target: string;
  try {
    target = resolve(dirname(link), readlinkSync(link));
  } catch {
    return;
  }
  try {
    const real = realpathSync(target);
    if (isInside(root, real)) scan.guarded.push({ path: real, kind: lstatSync(real).isDirectory() ? 'dir' : 'file' });
  } catch {
    // Dangling: writing through the link would create the target, so a placeholder holds it (when its folder exists).
    try {
      const parent = realpathSync(dirname(target));
      if (isInside(root, parent)) scan.absent.push({ path: join(parent, basename(target)), kind });
    } catch {
      // its folder does not exist either: nothing a write could create
    }
  }
}

/**
 * Scans `root` (canonical) breadth-first, SCAN_DEPTH folders deep and SCAN_ENTRIES entries at most,
 * for guarded entries (only when `guard`: a writable workspace), sockets and the git folders `.git`
 * files name. `writes` are the top-level guarded names the skill declares it writes.
 */
export function scanFolder(root: string, options: { guard: boolean; writes: readonly string[] }): FolderScan {
  const scan: FolderScan = { guarded: [], absent: [], sockets: [], gitdirs: [], truncated: false };
  const declared = new Set(options.writes);
  const guardNamed = (rel: string) => GUARDED.find((guard) => guard.rel === rel);
  const exists = (path: string): boolean => {
    try {
      lstatSync(path);
      return true;
    } catch {
      return false;
    }
  };
  if (options.guard) {
    for (const guard of GUARDED) {
      if (declared.has(guard.rel) || exists(join(root, guard.rel))) continue;
      // A nested name (.github/workflows) whose folder is missing too is held by a placeholder for that folder.
      const parent = guard.rel.split('/')[0] ?? guard.rel;
      const holder =
        guard.rel === parent || exists(join(root, parent))
          ? { path: join(root, guard.rel), kind: guard.kind }
          : { path: join(root, parent), kind: 'dir' as const };
      if (!scan.absent.some((entry) => entry.path === holder.path)) scan.absent.push(holder);
    }
  }
  let level: { dir: string; rel: string }[] = [{ dir: root, rel: '' }];
  let seen = 0;
  for (let depth = 0; depth <= SCAN_DEPTH && level.length > 0; depth++) {
    const next: { dir: string; rel: string }[] = [];
    for (const { dir, rel } of level) {
      let entries: Dirent[];
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const entry of entries) {
        if (++seen > SCAN_ENTRIES) {
          scan.truncated = true;
          return scan;
        }
        const path = join(dir, entry.name);
        const entryRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
        if (entry.isSocket()) {
          scan.sockets.push(path);
          continue;
        }
        if (entry.name === '.git' && entry.isFile()) scan.gitdirs.push(...gitdirsOf(path).filter((gitdir) => !isInside(root, gitdir)));
        // Guarded names count at every depth: a nested repository's .git is as live as the top one.
        const guard = guardNamed(entry.name) ?? (entry.name === 'workflows' ? guardNamed(`${basename(dir)}/workflows`) : undefined);
        if (options.guard && guard !== undefined) {
          if (entry.isSymbolicLink()) linkTarget(root, path, guard.kind, scan);
          else if (entryRel !== guard.rel || !declared.has(guard.rel)) scan.guarded.push({ path, kind: entry.isDirectory() ? 'dir' : 'file' });
          else for (const inner of INNER_GUARDS[guard.rel] ?? []) if (!declared.has(inner)) innerGuard(root, inner, scan);
        }
        if (!entry.isDirectory() || UNSCANNED.has(entry.name)) continue;
        // A guarded folder is not entered (.git/objects alone is thousands of entries); only its sockets are looked for.
        if (guard !== undefined) socketsIn(path, scan);
        else if (depth < SCAN_DEPTH) next.push({ dir: path, rel: entryRel });
      }
    }
    level = next;
  }
  return scan;
}

/** A guarded path inside a declared one (`.git/hooks` inside `.git`) kept read-only when it exists. */
function innerGuard(root: string, rel: string, scan: FolderScan): void {
  const path = join(root, rel);
  try {
    const stat = lstatSync(path);
    if (!stat.isSymbolicLink()) scan.guarded.push({ path, kind: stat.isDirectory() ? 'dir' : 'file' });
  } catch {
    // absent: git makes hooks/ and config only on init, which a declared writer may do
  }
}

/** Sockets directly in a guarded folder (git's fsmonitor daemon keeps one in .git). */
function socketsIn(dir: string, scan: FolderScan): void {
  try {
    for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isSocket()) scan.sockets.push(join(dir, entry.name));
  } catch {
    // unreadable: nothing to hide that the run could reach
  }
}
