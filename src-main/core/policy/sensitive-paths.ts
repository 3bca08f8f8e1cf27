/**
 * Requests that reach for secrets. Credentials conventionally live in hidden files and folders
 * (~/.ssh, ~/.aws, .env) and in the places core/files/secret-places.ts lists, and Skilltray's own
 * home holds the API token and the run records: a tool that would run without asking must not reach
 * them unasked. The working directory and every string argument that is a path (it looks like one,
 * or it exists) are checked as written and, resolved against the working directory, after following
 * symlinks; so is the path a git revision names (`HEAD:.env`, `stash@{0}:.aws/credentials`), which
 * prints a committed file as surely as reading it does.
 */
import { existsSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { runnerErrors } from '../../shared/error-messages/runner.js';
import type { SkilltrayError } from '../../shared/skilltray-error.js';
import { isInside } from '../files/paths.js';
import { reachText, secretReach, type KnownPlaces } from '../files/secret-places.js';

export interface SensitiveArgument {
  /** The argument's name, or `cwd`. */
  param: string;
  value: string;
  /** Why it asks, as the end of a sentence. */
  why: string;
}

/** The first hidden segment of a path (`.ssh`), ignoring `.` and `..`. */
function hiddenSegment(path: string): string | null {
  return path.split(/[/\\]/).find((segment) => segment.startsWith('.') && segment !== '.' && segment !== '..') ?? null;
}

/** Pathspec magic git reads before a path (`:(top,icase)`, `:!`, `:^`, `:/`): what follows it is the path. */
const PATHSPEC_MAGIC = /^(?:\([^)]*\)|[!^/])+/;

/**
 * The first hidden segment of a path a git revision or pathspec names, or null: the text after any
 * `:` (`HEAD:.env`, `:0:.env`, `main:config/.npmrc`, `stash@{0}:.env`, `HEAD@{10:00}:.env`, `:!.env`),
 * taken after each colon, since a reflog date may hold colons of its own.
 */
function revisionHiddenSegment(value: string): string | null {
  for (let at = value.indexOf(':'); at !== -1; at = value.indexOf(':', at + 1)) {
    const hidden = hiddenSegment(value.slice(at + 1).replace(PATHSPEC_MAGIC, ''));
    if (hidden !== null) return hidden;
  }
  return null;
}

function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Why a resolved path is sensitive, or null. */
function sensitivePlace(path: string, skilltrayHome: string): string | null {
  const hidden = hiddenSegment(path);
  if (hidden !== null) return `it leads into a hidden path ('${hidden}'), where secrets are usually kept`;
  if (isInside(skilltrayHome, path)) return "it is inside Skilltray's own data (its token and records)";
  const reach = secretReach(path, { platform: process.platform });
  if (reach !== null && reach.relation !== 'holds') return `it ${reachText(reach)}, where secrets are kept`;
  return null;
}

/** The first part of a request (its cwd, or an argument) that names a sensitive path, or null. */
export function sensitiveArgument(args: Record<string, unknown>, cwd: string, home: string): SensitiveArgument | null {
  const skilltrayHome = canonical(home);
  const where = canonical(cwd);
  const cwdWhy = sensitivePlace(where, skilltrayHome);
  if (cwdWhy !== null) return { param: 'cwd', value: cwd, why: cwdWhy };
  for (const [param, value] of Object.entries(args)) {
    if (typeof value !== 'string' || value === '') continue;
    const revision = revisionHiddenSegment(value);
    if (revision !== null) return { param, value, why: `it names a hidden path ('${revision}') in a git revision, where secrets are usually kept` };
    const target = resolve(where, value);
    const looksLikePath = /[/\\]/.test(value) || value.startsWith('.') || value.startsWith('~') || existsSync(target);
    if (!looksLikePath) continue;
    const written = hiddenSegment(value);
    if (written !== null) return { param, value, why: `it names a hidden path ('${written}'), where secrets are usually kept` };
    const why = sensitivePlace(canonical(target), skilltrayHome);
    if (why !== null) return { param, value, why };
  }
  return null;
}

/**
 * E707 when a tool's resolved program (canonical) lies in a place no run may read — found through a
 * PATH entry or a symlink that leads there, so the box would have to bind a secret to run it — and
 * null otherwise. `skillDir` (canonical) is the skill's own folder: a file of it is its own, even
 * inside Skilltray's home.
 */
export function secretProgram(skill: string, tool: string, programPath: string, skillDir: string, places: KnownPlaces): SkilltrayError | null {
  const reach = secretReach(programPath, places);
  if (reach === null || reach.relation === 'holds' || (reach.skilltray && isInside(skillDir, programPath))) return null;
  return runnerErrors.programInSecretPlace(skill, tool, programPath, reachText(reach));
}
