/**
 * A skill read from disk rather than the parse cache: walked, its stats fingerprinted, parsed. The
 * registry does it here one skill at a time, and a cold load of many does it on helper threads too
 * (core/parallel.ts): both go through parseFresh, so the two give the same skill.
 */
import type { Skill, SkillRoot } from '../../shared/model.js';
import type { ParallelJob } from '../parallel.js';
import { treeOf, walkFingerprint, type SkillTree, type TreeFingerprint } from './fingerprint.js';
import { parseSkill } from './parse-skill.js';
import { payloadJson, recordedPayload, type CachePayload } from './cache-payload.js';
import { walkListed, walkSkill, type SkillFile, type SkillWalk } from './walk.js';
import { holdsSkillFile } from './root-layout.js';

/** Parses one skill directory (the walk is the one its fingerprint was taken from, or null if it failed). */
export type ParseSkill = (dir: string, root: SkillRoot, walk: SkillWalk | null) => Skill;

/** A parse with what the cache and the catalog keep of its walk: its files, tree and stats (all null when the walk failed). */
export interface FreshParse {
  skill: Skill;
  files: readonly SkillFile[] | null;
  tree: SkillTree | null;
  seen: TreeFingerprint | null;
}

/** Walks and parses the skill in `dir`. */
export function parseFresh(dir: string, root: SkillRoot, parse: ParseSkill): FreshParse {
  let walk: SkillWalk | null = null;
  try {
    walk = walkSkill(dir);
  } catch {
    // The parse reports the unreadable directory.
  }
  return parseWalked(dir, root, parse, walk);
}

function parseWalked(dir: string, root: SkillRoot, parse: ParseSkill, walk: SkillWalk | null): FreshParse {
  // The walk's own stats, taken before the parse reads anything: a change after them moves the stats recorded.
  const tree = walk === null ? null : treeOf(walk);
  const seen = walk === null ? null : walkFingerprint(dir, walk);
  return { skill: parse(dir, root, walk), files: walk?.files ?? null, tree, seen };
}

/**
 * parseFresh of a folder listed without looking into it (root-layout.ts listedDirsIn), or null when
 * it holds nothing named SKILL.md. The walk's first listing answers that before it goes further, so
 * a folder that is no skill (a checkout, a node_modules) is not walked; where that listing fails,
 * holdsSkillFile answers (an unreadable skill is reported, a folder gone is none). `canonical`: the
 * folder's canonical path, when the root's listing showed a folder and not a link (null: unknown).
 */
export function parseListed(dir: string, root: SkillRoot, parse: ParseSkill, canonical: string | null = null): FreshParse | null {
  let walk: SkillWalk | null = null;
  try {
    walk = walkListed(dir, canonical);
    if (walk === null) return null;
    if (walk.unreadable.some(({ rel }) => rel === '') && !holdsSkillFile(dir)) return null;
  } catch {
    // Not even resolved (gone, or a link that leads nowhere now): as parseFresh, the parse reports it, if it is a skill at all.
    if (!holdsSkillFile(dir)) return null;
  }
  return parseWalked(dir, root, parse, walk);
}

/**
 * A parse as a helper thread posts it: the skill and its tree as the parse cache's JSON payload where
 * JSON gives them back exactly (the thread taking it then parses text instead of cloning objects,
 * and the cache stores the text as it is), else as they are.
 */
export type PostedParse = FreshParse | (Omit<FreshParse, 'skill' | 'tree'> & { payload: string });

/** The parse to post for `parse`. */
function posted(parse: FreshParse): PostedParse {
  const { skill, tree, ...rest } = parse;
  const payload = tree === null ? null : payloadJson(recordedPayload(tree, skill));
  return payload === null ? parse : { ...rest, payload };
}

/** A posted parse as a parse, with the payload it came as (for the cache to store as it is). */
export function receivedParse(parse: PostedParse): FreshParse & { payload?: string } {
  if (!('payload' in parse)) return parse;
  const { tree, skill } = JSON.parse(parse.payload) as CachePayload;
  return { ...parse, tree, skill };
}

/**
 * A folder to read on a helper thread; `listed`: not yet looked into (parseListed), else known to
 * hold SKILL.md; `canonical`: for a listed folder, its canonical path when the listing knew it.
 */
export interface FreshParseInput {
  dir: string;
  root: SkillRoot;
  listed?: boolean;
  canonical?: string;
}

/** parseFresh of `input`, or parseListed for a folder only listed. */
export function freshParseOf({ dir, root, listed, canonical }: FreshParseInput, parse: ParseSkill): FreshParse | null {
  return listed === true ? parseListed(dir, root, parse, canonical ?? null) : parseFresh(dir, root, parse);
}

/**
 * parseFresh (parseListed for a folder only listed) on a helper thread, for a skill whose kind of
 * root adds no checks of its own (those need the caller's state); null: no skill there.
 */
export const freshParseJob: ParallelJob<FreshParseInput, PostedParse | null> = {
  name: 'skill-parse',
  run: (input) => {
    const parse: ParseSkill = (at, under, walk) => parseSkill(at, under, walk ?? undefined);
    const fresh = freshParseOf(input, parse);
    return fresh === null ? null : posted(fresh);
  },
};
