/**
 * How the skill registry (registry.ts) reads skill folders: from the parse cache when the stats of
 * what a folder's last walk saw still match, else walked and parsed, many at once on helper threads
 * for a cold load. Which skill a name resolves to, and keeping the set current, stay in registry.ts.
 */
import type { Skill, SkillRoot } from '../../shared/model.js';
import { runInParallel, type EarlyHelpers } from '../parallel.js';
import { SETTLE_MS, treeFingerprint } from './fingerprint.js';
import { freshParseJob, freshParseOf, parseFresh, receivedParse, type FreshParse, type FreshParseInput, type ParseSkill, type PostedParse } from './fresh-parse.js';
import type { ParseCache } from './parse-cache.js';
import type { RootChecks } from './parse-skill.js';
import type { TreeChecks } from './tree-check.js';
import type { SkillTree } from './tree-fingerprint.js';
import type { SkillFile } from './walk.js';

/** A folder of a skill name in one root. */
export interface Holder {
  dir: string;
  root: SkillRoot;
}

/** Parses a cold load writes to the parse cache at a time while it goes on parsing (one transaction each). */
const CACHE_WRITE_EVERY = 500;

/**
 * Whether a root's skills are checked against more than their files (an installed pack's lock, an MCP
 * source's approvals), which the files' stats cannot vouch for: never taken from the parse cache.
 */
export function beyondFiles(root: SkillRoot): boolean {
  return root.kind === 'packs' || root.kind === 'mcp';
}

/** The paths a check of `tree` stats: the skill's folder, and its folders, files and links. */
function treeSize(tree: SkillTree): number {
  return 1 + tree.dirs.length + tree.files.length + tree.links.length;
}

/** Parses skill folders for one registry, keeping the cache and what each fresh parse walked. */
export class RegistryParser {
  /** The files each skill parsed in this process was found with, by folder (see walkedFiles). */
  private readonly walked = new Map<string, readonly SkillFile[]>();

  /**
   * `threads`: how many a full load parses on (parseMany reads on helper threads from two);
   * `checks`: a command's tree checks, which take one skill's stats on a helper thread (tree-check.ts).
   */
  constructor(
    readonly cache: ParseCache,
    private readonly parse: ParseSkill,
    readonly threads: number,
    private readonly rootChecks: RootChecks,
    private readonly checks: TreeChecks | null = null,
  ) {}

  /**
   * The skill in `dir`: from the cache when the stats of what its last walk saw still match (no
   * directory listed, no file read), else walked and parsed.
   */
  parseDir(dir: string, root: SkillRoot): Skill {
    return this.cached(dir, root) ?? this.recordFresh(dir, root, parseFresh(dir, root, this.parse));
  }

  /**
   * The cache's parse of `dir` as recorded, its tree handed to the command's helper thread to check
   * meanwhile; undefined when there is no such helper (or no parse to check). parseDir then takes
   * the helper's answer: the parse stands only if the files are as recorded.
   */
  checkAhead(dir: string, root: SkillRoot): Skill | undefined {
    if (this.checks?.helped !== true || beyondFiles(root)) return undefined;
    const recorded = this.cache.recorded(dir, root);
    return recorded !== undefined && this.checks.post(dir, recorded.tree) ? recorded.skill : undefined;
  }

  /** The cache's parse of `dir`, when the stats of what its last walk saw still match (no directory listed, no file read). */
  private cached(dir: string, root: SkillRoot): Skill | undefined {
    if (beyondFiles(root)) return undefined;
    const checks = this.checks;
    if (checks === null) return this.cache.get(dir, root, (tree) => treeFingerprint(dir, tree).fingerprint);
    return this.cache.get(dir, root, (tree) => {
      checks.note(dir, treeSize(tree));
      return checks.fingerprint(dir, tree);
    });
  }

  /** Keeps what a parse from disk saw (its files, and the parse in the cache once settled) and returns the skill. */
  private recordFresh(dir: string, root: SkillRoot, { skill, files, tree, seen, payload }: FreshParse & { payload?: string }): Skill {
    // A root whose skills are always parsed afresh never has its stats checked: no helper would help it.
    if (tree !== null && !beyondFiles(root)) this.checks?.note(dir, treeSize(tree));
    if (files === null) this.walked.delete(dir);
    else this.walked.set(dir, files);
    // Only settled content may be vouched for by its stats (see fingerprint.ts); unsettled content leaves the last settled parse recorded, for a rewrite in
    // progress to fall back to.
    const settled = tree !== null && seen !== null && seen.newest <= Date.now() - SETTLE_MS;
    if (settled && !beyondFiles(root)) this.cache.set(dir, root, tree, seen.fingerprint, skill, payload);
    return skill;
  }

  /**
   * Every skill of `folders` whose root adds no checks of its own, by folder: from the cache, else
   * parsed — on helper threads too when enough are not cached (a cold load); `absent`, the folders
   * of `listed` (not yet looked into) that hold nothing named SKILL.md. Skills of the other roots are
   * left to parseDir.
   */
  parseMany(
    folders: readonly Holder[],
    listed: ReadonlyMap<string, string | null>,
    early: EarlyHelpers | null,
  ): { parsed: Map<string, Skill>; absent: Set<string> } {
    const parsed = new Map<string, Skill>();
    const absent = new Set<string>();
    const threads = this.threads;
    if (threads < 2) return { parsed, absent };
    const fresh: FreshParseInput[] = [];
    for (const { dir, root } of folders) {
      if (this.rootChecks[root.kind] !== undefined) continue;
      const cached = this.cached(dir, root);
      if (cached !== undefined) {
        parsed.set(dir, cached);
        continue;
      }
      const canonical = listed.get(dir);
      fresh.push(canonical === undefined ? { dir, root } : { dir, root, listed: true, ...(canonical === null ? {} : { canonical }) });
    }
    const take = (result: PostedParse | null, i: number): void => {
      const { dir, root } = fresh[i] as FreshParseInput;
      if (result === null) absent.add(dir);
      else parsed.set(dir, this.recordFresh(dir, root, receivedParse(result)));
      // Written while helpers still parse, which then take more of the skills: written after them, it was a cold load's longest step on one thread.
      if ((i + 1) % CACHE_WRITE_EVERY === 0) this.cache.flush();
    };
    const here = (input: FreshParseInput): FreshParse | null => freshParseOf(input, this.parse);
    runInParallel(freshParseJob, fresh, take, { threads, here, early });
    return { parsed, absent };
  }

  /** The files the skill in `dir` was walked with when this process last parsed it; undefined when it came from the parse cache. */
  walkedFiles(dir: string): readonly SkillFile[] | undefined {
    return this.walked.get(dir);
  }

  /** Forgets the walks of folders no loaded skill is in any more. */
  retainWalked(dirs: ReadonlySet<string>): void {
    for (const dir of this.walked.keys()) if (!dirs.has(dir)) this.walked.delete(dir);
  }
}
