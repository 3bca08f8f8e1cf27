/**
 * Path safety for paths users hand to the gateway (`open <path>`, `sources --dir`): a path is
 * relative to the skill root and must stay inside it after canonicalisation, symlinks included
 * (RFC-0002:C-OPEN, C-SOURCES; E012). Nothing outside a skill root is ever read or listed.
 */
import { isAbsolute, posix, relative, resolve, sep, win32 } from 'node:path';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import { canonicalise, isInside } from '../files/paths.js';

export interface InsidePath {
  /** Path relative to the root, `/`-separated, `..` and `.` segments resolved ('' for the root). */
  rel: string;
  /** Canonical absolute path (symlinks resolved as far as the path exists). */
  abs: string;
  /** Whether something exists at the path. */
  exists: boolean;
}

/** Resolves `userPath` inside the canonical `root`; E012 when it is absolute or escapes the root. */
export function resolveInsideRoot(root: string, userPath: string): InsidePath {
  if (isAbsolute(userPath) || win32.isAbsolute(userPath)) throw skillcErrors.pathEscapesRoot(userPath);
  const lexical = resolve(root, userPath);
  if (!isInside(root, lexical)) throw skillcErrors.pathEscapesRoot(userPath);
  const { abs, exists } = canonicalise(lexical);
  if (!isInside(root, abs)) throw skillcErrors.pathEscapesRoot(userPath);
  return { rel: relative(root, lexical).split(sep).join(posix.sep), abs, exists };
}

/** True when a segment of a root-relative path is hidden: the skill walk never shows those. */
export function hasHiddenSegment(rel: string): boolean {
  return rel.split('/').some((segment) => segment.startsWith('.'));
}
