/**
 * The environment a tool runs with: an allow-list of what programs need to behave (paths, locale,
 * terminal, temp dirs, identity) plus exactly the variables its skill declares. Tokens, keys and
 * Skilltray's own settings never reach a tool unless declared, and SKILLTRAY_* not even then.
 */

/** Variables every tool gets when the parent has them. */
export const TOOL_ENV_ALLOW_LIST: readonly string[] = [
  'PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'TERM', 'COLORTERM', 'NO_COLOR',
  'TMPDIR', 'TMP', 'TEMP', 'TZ',
];

/** Families passed whole: locale categories and the XDG base directories. */
export const TOOL_ENV_ALLOW_PREFIXES: readonly string[] = ['LC_', 'XDG_'];

/** Added on Windows, where many programs cannot start or find their files without them. */
export const WINDOWS_TOOL_ENV_ALLOW_LIST: readonly string[] = [
  'SystemRoot', 'SYSTEMROOT', 'windir', 'COMSPEC', 'PATHEXT', 'USERPROFILE', 'APPDATA', 'LOCALAPPDATA',
  'ProgramData', 'ProgramFiles', 'ProgramFiles(x86)', 'HOMEDRIVE', 'HOMEPATH', 'NUMBER_OF_PROCESSORS',
  'PROCESSOR_ARCHITECTURE',
];

/** Skilltray's own settings and credentials: a skill cannot obtain them by declaring them. */
export const TOOL_ENV_DENIED_PREFIX = 'SKILLTRAY_';

/** Builds the complete environment of a tool from the parent's: the allow-list plus the skill's declared names. */
export function buildToolEnv(
  parent: NodeJS.ProcessEnv,
  declared: readonly string[],
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  // Windows treats variable names case-insensitively (PATH is usually spelled Path there).
  const fold = platform === 'win32' ? (name: string) => name.toUpperCase() : (name: string) => name;
  const exact = new Set([
    ...TOOL_ENV_ALLOW_LIST,
    ...(platform === 'win32' ? WINDOWS_TOOL_ENV_ALLOW_LIST : []),
    ...declared,
  ].map(fold));
  const prefixes = TOOL_ENV_ALLOW_PREFIXES.map(fold);
  const denied = fold(TOOL_ENV_DENIED_PREFIX);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined) continue;
    const key = fold(name);
    if (key.startsWith(denied)) continue;
    if (exact.has(key) || prefixes.some((prefix) => key.startsWith(prefix))) env[name] = value;
  }
  return env;
}
