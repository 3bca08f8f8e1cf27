/**
 * Requests that reach for secrets. Credentials conventionally live in hidden files and folders
 * (~/.ssh, ~/.aws, .env), and Skilltray's own home holds the API token and the run records: a tool
 * that would run without asking must not reach them unasked. The working directory and every string
 * argument that is a path (it looks like one, or it exists) are checked as written and, resolved
 * against the working directory, after following symlinks.
 */
import { existsSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { isInside } from '../files/paths.js';

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
