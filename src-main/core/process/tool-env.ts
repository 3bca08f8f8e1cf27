/**
 * The environment a tool runs with: an allow-list of what programs need to behave (paths, locale,
 * terminal, identity), each value checked against the shape it must have, plus exactly the
 * variables its skill declares. Nothing else passes: no XDG_* folders, no socket addresses
 * (SSH_AUTH_SOCK, DBUS_*, DISPLAY…), no tokens unless declared, and SKILLTRAY_* not even then.
 * PATH keeps only the system folders the box shows (system-paths.ts), so a program a tool starts
 * by name is never one from the person's own folders.
 */
import { delimiter } from 'node:path';
import { onSystemPath } from './sandbox/system-paths.js';

/** A locale name: C, POSIX, or language[_TERRITORY][.codeset][@modifier] (en_GB.UTF-8, sr_RS@latin). */
const LOCALE = /^(?:C|POSIX|[a-z]{2,3}(?:_[A-Z]{2}|_\d{3})?)(?:\.[A-Za-z0-9-]{1,20})?(?:@[A-Za-z0-9]{1,20})?$/;

const isLocale = (value: string): boolean => LOCALE.test(value);

/** The locale categories of POSIX and glibc: other LC_ names are not locale settings. */
export const LOCALE_CATEGORIES: readonly string[] = [
  'LC_ALL',
  'LC_CTYPE',
  'LC_NUMERIC',
  'LC_TIME',
  'LC_COLLATE',
  'LC_MONETARY',
  'LC_MESSAGES',
  'LC_PAPER',
  'LC_NAME',
  'LC_ADDRESS',
  'LC_TELEPHONE',
  'LC_MEASUREMENT',
  'LC_IDENTIFICATION',
];

/** What each variable every tool gets must look like; a value of another shape is dropped. */
const SHAPES: Record<string, (value: string) => boolean> = {
  HOME: (value) => value.startsWith('/'),
  USER: (value) => /^[A-Za-z0-9._][A-Za-z0-9._-]{0,31}\$?$/.test(value),
  LOGNAME: (value) => /^[A-Za-z0-9._][A-Za-z0-9._-]{0,31}\$?$/.test(value),
  SHELL: (value) => value.startsWith('/'),
  LANG: isLocale,
  LANGUAGE: (value) => value.split(':').every(isLocale),
  ...Object.fromEntries(LOCALE_CATEGORIES.map((name) => [name, isLocale])),
  TERM: (value) => /^[A-Za-z0-9._+-]{1,64}$/.test(value),
  COLORTERM: (value) => /^[A-Za-z0-9._-]{1,32}$/.test(value),
  NO_COLOR: (value) => /^[A-Za-z0-9._-]{0,16}$/.test(value),
  TZ: (value) => /^:?[A-Za-z0-9_+\-/.,:<>]{1,64}$/.test(value),
  TMPDIR: () => true,
  TMP: () => true,
  TEMP: () => true,
};

/** Variables every tool gets when the parent has them (and their values have the right shape). */
export const TOOL_ENV_ALLOW_LIST: readonly string[] = ['PATH', ...Object.keys(SHAPES)];

/** Added on Windows, where many programs cannot start or find their files without them. */
export const WINDOWS_TOOL_ENV_ALLOW_LIST: readonly string[] = [
  'SystemRoot',
  'SYSTEMROOT',
  'windir',
  'COMSPEC',
  'PATHEXT',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
  'ProgramData',
  'ProgramFiles',
  'ProgramFiles(x86)',
  'HOMEDRIVE',
  'HOMEPATH',
  'NUMBER_OF_PROCESSORS',
  'PROCESSOR_ARCHITECTURE',
];

/** Skilltray's own settings and credentials: a skill cannot obtain them by declaring them. */
export const TOOL_ENV_DENIED_PREFIX = 'SKILLTRAY_';

/** PATH with only the entries the box shows: absolute folders inside the system folders. */
export function systemPath(path: string, platform: NodeJS.Platform): string {
  return path
    .split(delimiter)
    .filter((entry) => entry.startsWith('/') && onSystemPath(entry, platform))
    .join(delimiter);
}

/** Builds the complete environment of a tool from the parent's: the allow-list plus the skill's declared names. */
export function buildToolEnv(parent: NodeJS.ProcessEnv, declared: readonly string[], platform: NodeJS.Platform = process.platform): Record<string, string> {
  const env: Record<string, string> = {};
  if (platform === 'win32') {
    // Windows treats variable names case-insensitively (PATH is usually spelled Path there); its paths are its own.
    const fold = (name: string) => name.toUpperCase();
    const exact = new Set([...TOOL_ENV_ALLOW_LIST, ...WINDOWS_TOOL_ENV_ALLOW_LIST, ...declared].map(fold));
    for (const [name, value] of Object.entries(parent)) {
      if (value !== undefined && !fold(name).startsWith(TOOL_ENV_DENIED_PREFIX) && exact.has(fold(name))) env[name] = value;
    }
    return env;
  }
  const wanted = new Set(declared);
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined || name.startsWith(TOOL_ENV_DENIED_PREFIX)) continue;
    // PATH is filtered even when declared: a user folder on it is not in the box anyway.
    if (name === 'PATH') env[name] = systemPath(value, platform);
    // Own keys only: a variable named toString or __proto__ must meet no Object.prototype member.
    else if (wanted.has(name) || (Object.hasOwn(SHAPES, name) && SHAPES[name]?.(value) === true)) env[name] = value;
  }
  return env;
}
