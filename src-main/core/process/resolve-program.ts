/**
 * Which file a command's program names, decided once before approval so the approval (and the
 * run) is pinned to a canonical path, never looked up again at spawn time. A bundled skill's program
 * is looked for in the system's own folders first, so its trust never passes to a file of the person's.
 */
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { onSystemPath } from './sandbox/system-paths.js';

/** Extensions Windows can start without a shell (.bat and .cmd need cmd.exe, which a tool never gets). */
const WINDOWS_RUNNABLE = ['.COM', '.EXE'];

function envValue(env: NodeJS.ProcessEnv, name: string, platform: NodeJS.Platform): string | undefined {
  if (platform !== 'win32') return env[name];
  const key = Object.keys(env).find((k) => k.toUpperCase() === name);
  return key === undefined ? undefined : env[key];
}

function candidates(file: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string[] {
  if (platform !== 'win32') return [file];
  if (WINDOWS_RUNNABLE.includes(path.win32.extname(file).toUpperCase())) return [file];
  const pathext = (envValue(env, 'PATHEXT', platform) ?? '.COM;.EXE').split(';').map((ext) => ext.trim().toUpperCase());
  return pathext.filter((ext) => WINDOWS_RUNNABLE.includes(ext)).map((ext) => file + ext.toLowerCase());
}

function executable(file: string, platform: NodeJS.Platform): string | null {
  try {
    if (!statSync(file).isFile()) return null;
    if (platform !== 'win32') accessSync(file, constants.X_OK);
    return realpathSync(file);
  } catch {
    return null; // missing, unreadable or not executable: not a program we can run
  }
}

/** Absolute directories of the env's PATH; empty and relative entries are skipped so the cwd is never searched. */
function searchPath(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string[] {
  const paths = platform === 'win32' ? path.win32 : path.posix;
  return (envValue(env, 'PATH', platform) ?? '')
    .split(paths.delimiter)
    .map((dir) => (platform === 'win32' ? dir.replace(/^"(.*)"$/, '$1') : dir))
    .filter((dir) => dir !== '' && paths.isAbsolute(dir));
}

/** resolveProgram, searching for a bare name only in the PATH entries `searched` keeps. */
function resolveIn(program: string, env: NodeJS.ProcessEnv, cwd: string, platform: NodeJS.Platform, searched: (dir: string) => boolean): string | null {
  if (program === '' || program.includes('\0')) return null;
  const paths = platform === 'win32' ? path.win32 : path.posix;
  const hasPath = platform === 'win32' ? /[\\/:]/.test(program) : program.includes('/');
  const dirs = hasPath ? [cwd] : searchPath(env, platform).filter(searched);
  for (const dir of dirs) {
    for (const file of candidates(paths.resolve(dir, program), env, platform)) {
      const found = executable(file, platform);
      if (found !== null) return found;
    }
  }
  return null;
}

/**
 * The canonical absolute path of the executable regular file `program` names, or null. A name with a
 * path separator resolves against `cwd`; a bare name is searched in the env's PATH (with PATHEXT on Windows).
 */
export function resolveProgram(program: string, env: NodeJS.ProcessEnv, cwd: string, platform: NodeJS.Platform = process.platform): string | null {
  return resolveIn(program, env, cwd, platform, () => true);
}

/**
 * resolveProgram for a tool of a bundled skill: a bare name is looked for first in the PATH entries
 * inside the system's own folders, so a `~/.local/bin/git` earlier on PATH never stands in for
 * `/usr/bin/git`. Only when none of them has it is the rest of PATH searched; what is found there is
 * not the system's, so its runs ask (docs/policy.md).
 */
export function resolveBundledProgram(program: string, env: NodeJS.ProcessEnv, cwd: string, platform: NodeJS.Platform = process.platform): string | null {
  return resolveIn(program, env, cwd, platform, (dir) => onSystemPath(dir, platform)) ?? resolveProgram(program, env, cwd, platform);
}
