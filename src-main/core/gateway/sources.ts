/**
 * RFC-0002:C-SOURCES: a skill's files as a tree, directories before files at each level, each
 * group in bytewise order; `--depth` stops expanding (an unexpanded directory shows its file
 * count), `--dir` scopes the tree (depth counts from there), `--pattern` keeps matching files
 * (and the directories that hold them), `--limit` cuts the listing with `... (N more)`. A skill of
 * more files than a walk reads (MAX_SKILL_FILES) is listed as far as the walk went, and says so.
 */
import { realpathSync } from 'node:fs';
import { basename } from 'node:path';
import type Picomatch from 'picomatch';
import { lazyRequire } from '../lazy-require.js';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import { compareBytewise } from '../files/paths.js';
import { MAX_SKILL_FILES, walkSkill } from '../skills/walk.js';
import { checkIntegerOption } from '../options.js';
import { hasHiddenSegment, resolveInsideRoot } from './paths.js';
import type { SourceEntry, SourcesResult } from '../../shared/gateway.js';

const picomatch = lazyRequire<typeof Picomatch>('picomatch');

export interface SourcesOptions {
  depth?: number;
  /** Subdirectory to list, relative to the skill root. */
  dir?: string;
  /** Most entries to list (default 100). */
  limit?: number;
  /** Glob a file must match: against its path relative to the skill root, or its basename. */
  pattern?: string;
}

/** Default of `--limit`. */
export const DEFAULT_SOURCES_LIMIT = 100;

interface TreeNode {
  name: string;
  path: string;
  dirs: Map<string, TreeNode>;
  files: string[];
}

function node(name: string, path: string): TreeNode {
  return { name, path, dirs: new Map(), files: [] };
}

/** The directory node for `segments` under `root`, created on the way. */
function dirNode(root: TreeNode, segments: readonly string[]): TreeNode {
  let current = root;
  for (const segment of segments) {
    let child = current.dirs.get(segment);
    if (child === undefined) {
      child = node(segment, current.path === '' ? segment : `${current.path}/${segment}`);
      current.dirs.set(segment, child);
    }
    current = child;
  }
  return current;
}

function fileCount(tree: TreeNode): number {
  let count = tree.files.length;
  for (const child of tree.dirs.values()) count += fileCount(child);
  return count;
}

function matcher(pattern: string): (rel: string) => boolean {
  let isMatch: (path: string) => boolean;
  try {
    isMatch = picomatch()(pattern);
  } catch (error) {
    throw skillcErrors.invalidOption(`--pattern is not a valid glob: ${(error as Error).message}`);
  }
  return (rel) => isMatch(rel) || isMatch(basename(rel));
}

/** Pre-order listing of `tree`'s children, directories first. */
function flatten(tree: TreeNode, depth: number, maxDepth: number, out: SourceEntry[]): void {
  const dirs = [...tree.dirs.values()].sort((a, b) => compareBytewise(a.name, b.name));
  const files = [...tree.files].sort(compareBytewise);
  const count = dirs.length + files.length;
  let index = 0;
  for (const dir of dirs) {
    const last = ++index === count;
    if (depth < maxDepth) {
      out.push({ path: dir.path, name: dir.name, type: 'dir', depth, last });
      flatten(dir, depth + 1, maxDepth, out);
    } else {
      out.push({ path: dir.path, name: dir.name, type: 'dir', depth, last, files: fileCount(dir) });
    }
  }
  for (const name of files) {
    const last = ++index === count;
    out.push({ path: tree.path === '' ? name : `${tree.path}/${name}`, name, type: 'file', depth, last });
  }
}

/** Lists the files of the skill at `dir`. */
export function listSources(dir: string, options: SourcesOptions = {}): SourcesResult {
  checkIntegerOption('depth', options.depth, 1);
  checkIntegerOption('limit', options.limit, 1);
  const root = realpathSync(dir);
  const skill = basename(root);
  const walk = walkSkill(root);
  let scope = '';
  if (options.dir !== undefined) {
    const target = resolveInsideRoot(root, options.dir);
    const known = target.rel === '' || (!hasHiddenSegment(target.rel) && walk.dirs.includes(target.rel));
    if (!target.exists || !known) throw skillcErrors.directoryNotFound(options.dir);
    scope = target.rel;
  }
  const prefix = scope === '' ? '' : `${scope}/`;
  const matches = options.pattern === undefined ? null : matcher(options.pattern);
  const tree = node(scope === '' ? skill : basename(scope), scope);
  const under = (rel: string): string[] | null => (rel.startsWith(prefix) ? rel.slice(prefix.length).split('/') : null);
  if (matches === null) {
    for (const rel of walk.dirs) {
      const segments = under(rel);
      if (segments !== null) dirNode(tree, segments);
    }
  }
  for (const file of walk.files) {
    const segments = under(file.rel);
    if (segments === null || (matches !== null && !matches(file.rel))) continue;
    dirNode(tree, segments.slice(0, -1)).files.push(segments[segments.length - 1] as string);
  }
  const all: SourceEntry[] = [];
  flatten(tree, 1, options.depth ?? Number.POSITIVE_INFINITY, all);
  const limit = options.limit ?? DEFAULT_SOURCES_LIMIT;
  const entries = all.slice(0, limit);
  return {
    skill,
    root: scope === '' ? `${skill}/` : `${skill}/${scope}/`,
    dir: scope === '' ? null : scope,
    pattern: options.pattern ?? null,
    entries,
    total: all.length,
    more: all.length - entries.length,
    more_depth: all[limit]?.depth ?? null,
    files_cap: walk.truncated ? MAX_SKILL_FILES : null,
  };
}
