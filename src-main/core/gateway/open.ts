/**
 * RFC-0002:C-OPEN: any file inside the skill root, bytes as they are (text when they are UTF-8),
 * cut after `--max-lines` lines. E012 for a path that escapes the root after canonicalisation,
 * E021 for nothing there, a directory, or a hidden path the skill walk never shows, E023 for a file
 * that is there but cannot be read (permission denied).
 */
import { isUtf8 } from 'node:buffer';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import { errnoText } from '../skills/entry-kinds.js';
import { checkIntegerOption } from '../options.js';
import { hasHiddenSegment, resolveInsideRoot } from './paths.js';
import type { OpenResult } from '../../shared/gateway.js';

export interface OpenOptions {
  maxLines?: number;
}

/** Lines in `bytes`: LF-terminated lines plus an unterminated last one. */
function countLines(bytes: Buffer): number {
  let lines = 0;
  for (let i = bytes.indexOf(0x0a); i !== -1; i = bytes.indexOf(0x0a, i + 1)) lines++;
  return bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a ? lines + 1 : lines;
}

/** The first `maxLines` lines of `bytes`, each with its own line ending. */
function firstLines(bytes: Buffer, maxLines: number): Buffer {
  let end = -1;
  for (let n = 0; n < maxLines; n++) {
    end = bytes.indexOf(0x0a, end + 1);
    if (end === -1) return bytes;
  }
  return bytes.subarray(0, end + 1);
}

/** Reads `path` (relative to the skill root at `dir`). */
export function openFile(dir: string, path: string, options: OpenOptions = {}): OpenResult {
  checkIntegerOption('max-lines', options.maxLines, 1);
  const target = resolveInsideRoot(realpathSync(dir), path);
  if (!target.exists || target.rel === '' || hasHiddenSegment(target.rel) || !statSync(target.abs).isFile()) {
    throw skillcErrors.fileNotFound(path);
  }
  let bytes: Buffer;
  try {
    bytes = readFileSync(target.abs);
  } catch (error) {
    throw skillcErrors.notReadable(path, errnoText(error), (error as NodeJS.ErrnoException).code ?? null, error);
  }
  const kept = options.maxLines === undefined ? bytes : firstLines(bytes, options.maxLines);
  const utf8 = isUtf8(bytes);
  return {
    file: target.rel,
    encoding: utf8 ? 'utf-8' : 'base64',
    content: kept.toString(utf8 ? 'utf8' : 'base64'),
    size: bytes.length,
    more_lines: kept.length === bytes.length ? 0 : countLines(bytes) - countLines(kept),
  };
}
