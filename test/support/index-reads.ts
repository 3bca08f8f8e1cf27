/**
 * One skill's index read as the gateway reads it outside app mode (`--strict`, RFC-0004: E002 when
 * missing or stale, nothing built): the production steps, without resolving a target or logging.
 */
import { basename, resolve } from 'node:path';
import { sectionQuery, showInIndex, type ShowOptions } from '../../src-main/core/gateway/show.js';
import { searchIndex, skillQuery } from '../../src-main/core/search/query.js';
import { withSkillIndex, type OpenIndexOptions } from '../../src-main/core/search/skill-index.js';
import type { IndexSearchResult, ShowResult } from '../../src-main/shared/gateway.js';

interface ReadOptions extends OpenIndexOptions {
  /** The skill argument as the user gave it, for the E002 message (default: the directory's name). */
  skill?: string;
}

/** `show` of the skill at `dir` through its index in `runtimeDir`. */
export function showSection(dir: string, runtimeDir: string, options: ShowOptions & ReadOptions): ShowResult {
  const show = sectionQuery(options);
  const skill = options.skill ?? basename(resolve(dir));
  return withSkillIndex(dir, runtimeDir, skill, options, (index) => showInIndex(index, skill, show));
}

/** `search` of the skill at `dir` through its index in `runtimeDir` (E004, E002, E003 as RFC-0004 says). */
export function searchSkill(dir: string, runtimeDir: string, query: string, options: ReadOptions & { limit?: number } = {}): IndexSearchResult {
  const search = skillQuery(query, options);
  const skill = options.skill ?? basename(resolve(dir));
  return withSkillIndex(dir, runtimeDir, skill, options, (index) => searchIndex(index, skill, search));
}
