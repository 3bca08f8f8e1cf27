/**
 * Reading SKILL.md as text without ever crashing: a size cap, binary detection and strict UTF-8,
 * then BOM and line-ending normalisation so line numbers mean the same thing everywhere.
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { errnoText, kindOf } from './entry-kinds.js';
import { normaliseText } from '../files/text.js';

/** SKILL.md files above this size are refused (a skill is instructions, not a data dump). */
export const MAX_SKILL_MD_BYTES = 1024 * 1024;

/** SKILL.md as text, or why its bytes are not text. */
type SkillText = { ok: true; text: string } | { ok: false; message: string };

/** SKILL.md's bytes, read once (so what is hashed is what is parsed), or why they cannot be read. */
export type SkillBytes = { ok: true; bytes: Buffer } | { ok: false; message: string };

/**
 * Reads SKILL.md's bytes, refusing a file above MAX_SKILL_MD_BYTES without reading it, and anything
 * that is not a regular file without opening it: opening a FIFO waits for a writer forever, and
 * opening a device can do something. The open itself does not wait either (O_NONBLOCK), and what it
 * opened is checked again, so a file swapped for a FIFO in between is refused too. `walkedAsFile`:
 * the skill's walk has just stat'ed it as a regular file, so it is not stat'ed again before the open.
 */
export function readSkillBytes(file: string, walkedAsFile = false): SkillBytes {
  let fd: number;
  try {
    if (!walkedAsFile) {
      const st = statSync(file);
      if (!st.isFile()) return { ok: false, message: `SKILL.md is ${kindOf(st)}, not a file` };
    }
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return { ok: false, message: `cannot read SKILL.md: ${errnoText(error)}` };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { ok: false, message: `SKILL.md is ${kindOf(st)}, not a file` };
    const size = st.size;
    if (size > MAX_SKILL_MD_BYTES) {
      return { ok: false, message: `SKILL.md is ${size} bytes; Skilltray reads SKILL.md files up to ${MAX_SKILL_MD_BYTES} bytes` };
    }
    const buffer = Buffer.alloc(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, buffer, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    return { ok: true, bytes: buffer.subarray(0, read) };
  } catch (error) {
    return { ok: false, message: `cannot read SKILL.md: ${errnoText(error)}` };
  } finally {
    closeSync(fd);
  }
}

/** SKILL.md's bytes as text, or says in one sentence why they are not text. */
export function decodeSkillText(bytes: Buffer): SkillText {
  if (bytes.includes(0)) return { ok: false, message: 'SKILL.md is binary (it contains NUL bytes)' };
  try {
    return { ok: true, text: normaliseText(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) };
  } catch {
    return { ok: false, message: 'SKILL.md is not valid UTF-8' };
  }
}
