/**
 * What of a program outside the system folders a run's box binds read-only: a program under
 * /opt/<name> gets its whole folder (it keeps its libraries beside it); any other (~/.local/bin,
 * ~/go/bin) gets its own file, and a script also its interpreter when that lies outside too. A
 * program in the system folders or the skill's own folder (the snapshot) needs nothing.
 */
import { closeSync, openSync, readSync, realpathSync } from 'node:fs';
import { isInside } from '../../files/paths.js';
import { onSystemPath } from './system-paths.js';

/** The canonical path, or null when nothing is there. */
function canonical(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/** The interpreter a script names on its first line (`#!/path/to/python -u`), or null. */
function shebang(program: string): string | null {
  const buffer = Buffer.alloc(256);
  let read: number;
  try {
    const fd = openSync(program, 'r');
    try {
      read = readSync(fd, buffer, 0, buffer.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
  const line = buffer.subarray(0, read).toString('utf8').split('\n')[0] ?? '';
  const match = /^#!\s*(\/\S+)/.exec(line);
  return match === null ? null : (match[1] ?? null);
}

/** The paths (canonical) the box binds for `programPath`, none for a system program or one of the skill's own. */
export function programBinds(programPath: string, skillDir: string, platform: NodeJS.Platform): string[] {
  if (onSystemPath(programPath, platform) || isInside(skillDir, programPath)) return [];
  const opt = /^\/opt\/[^/]+/.exec(programPath);
  if (opt !== null && platform === 'linux') return [opt[0]];
  const interpreter = shebang(programPath);
  const real = interpreter === null ? null : canonical(interpreter);
  return real === null || onSystemPath(real, platform) || real === programPath ? [programPath] : [programPath, real];
}
