import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildToolEnv, LOCALE_CATEGORIES, systemPath, TOOL_ENV_ALLOW_LIST, WINDOWS_TOOL_ENV_ALLOW_LIST } from '../../../src-main/core/process/tool-env.js';

const parent = {
  PATH: '/home/ada/.local/bin:/usr/local/bin:/usr/bin:/bin:/home/ada/go/bin:relative:/opt/tool/bin',
  HOME: '/home/ada',
  USER: 'ada',
  LANG: 'en_GB.UTF-8',
  LC_ALL: 'C.UTF-8',
  LC_TIME: 'en_DK.UTF-8',
  XDG_CONFIG_HOME: '/home/ada/.config',
  XDG_SESSION_COOKIE: 'cookie',
  XDG_RUNTIME_DIR: '/run/user/1000',
  LC_SECRET: 'token',
  LC_MESSAGES: 'secret-token-value',
  SSH_AUTH_SOCK: '/run/user/1000/ssh-agent',
  DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus',
  WAYLAND_DISPLAY: 'wayland-0',
  DISPLAY: ':0',
  TERM: 'xterm-256color',
  TZ: 'Europe/London',
  SECRET_TOKEN: 's3cret',
  GITHUB_TOKEN: 'ghp_x',
  AWS_ACCESS_KEY_ID: 'AKIA',
  AWS_SECRET_ACCESS_KEY: 'aws',
  SKILLTRAY_HOME: '/home/ada/.local/share/skilltray',
  SKILLTRAY_TOKEN: 'api',
  MY_API_KEY: 'declared',
  NODE_OPTIONS: '--require /tmp/evil.js',
  LD_PRELOAD: '/tmp/evil.so',
  UNSET: undefined,
};

describe('buildToolEnv', () => {
  it('passes the allow-list with values of the right shape, PATH without user folders, and drops everything else: XDG_*, other LC_* names, socket addresses', () => {
    expect(buildToolEnv(parent, [], 'linux')).toEqual({
      PATH: '/usr/local/bin:/usr/bin:/bin',
      HOME: '/home/ada',
      USER: 'ada',
      LANG: 'en_GB.UTF-8',
      LC_ALL: 'C.UTF-8',
      LC_TIME: 'en_DK.UTF-8',
      TERM: 'xterm-256color',
      TZ: 'Europe/London',
    });
  });

  it('takes locale values only in locale form', () => {
    const locale = (value: string) => buildToolEnv({ LANG: value, LANGUAGE: value }, [], 'linux');
    for (const good of ['C', 'POSIX', 'C.UTF-8', 'en_GB.UTF-8', 'sr_RS@latin', 'de', 'es_419.UTF-8'])
      expect(locale(good), good).toEqual({ LANG: good, LANGUAGE: good });
    expect(buildToolEnv({ LANGUAGE: 'en_GB:en:fr' }, [], 'linux')).toEqual({ LANGUAGE: 'en_GB:en:fr' });
    for (const bad of ['secret-token-value', 'ghp_0123456789abcdef', 'en_GB.UTF-8 x', '../../x', 'en_GB.UTF-8;rm', '']) expect(locale(bad), bad).toEqual({});
    expect(LOCALE_CATEGORIES).toContain('LC_MESSAGES');
    expect(LOCALE_CATEGORIES).not.toContain('LC_SECRET');
  });

  it('keeps only absolute PATH entries in the system folders', () => {
    expect(systemPath('/home/u/.local/bin:/usr/bin::.:bin:/usr/local/sbin:/home/u/go/bin:/nix/store/x/bin:/usr/../home/u', 'linux')).toBe(
      '/usr/bin:/usr/local/sbin:/nix/store/x/bin',
    );
    expect(systemPath('/opt/homebrew/bin:/Users/u/bin:/usr/bin', 'darwin')).toBe('/opt/homebrew/bin:/usr/bin');
  });

  it('adds exactly the declared names the parent has', () => {
    const env = buildToolEnv(parent, ['MY_API_KEY', 'GITHUB_TOKEN', 'NOT_SET', 'UNSET'], 'linux');
    expect(env).toMatchObject({ MY_API_KEY: 'declared', GITHUB_TOKEN: 'ghp_x' });
    expect(env).not.toHaveProperty('NOT_SET');
    expect(env).not.toHaveProperty('UNSET');
    expect(env).not.toHaveProperty('SECRET_TOKEN');
    expect(env).not.toHaveProperty('AWS_SECRET_ACCESS_KEY');
  });

  it("never passes Skilltray's own variables, even when declared", () => {
    const env = buildToolEnv(parent, ['SKILLTRAY_TOKEN', 'SKILLTRAY_HOME'], 'linux');
    expect(Object.keys(env).filter((name) => name.startsWith('SKILLTRAY_'))).toEqual([]);
  });

  it('matches names case-sensitively on POSIX', () => {
    expect(buildToolEnv({ Path: '/bin', home: '/h', my_api_key: 'x' }, ['MY_API_KEY'], 'linux')).toEqual({});
  });

  it('matches names case-insensitively on Windows and keeps their spelling', () => {
    const env = buildToolEnv(
      {
        Path: 'C:\\Windows',
        SystemRoot: 'C:\\Windows',
        ComSpec: 'cmd.exe',
        PATHEXT: '.EXE',
        'ProgramFiles(x86)': 'C:\\P86',
        My_Api_Key: 'x',
        Skilltray_Token: 't',
        GITHUB_TOKEN: 'g',
      },
      ['MY_API_KEY', 'skilltray_token'],
      'win32',
    );
    expect(env).toEqual({
      Path: 'C:\\Windows',
      SystemRoot: 'C:\\Windows',
      ComSpec: 'cmd.exe',
      PATHEXT: '.EXE',
      'ProgramFiles(x86)': 'C:\\P86',
      My_Api_Key: 'x',
    });
  });

  it('takes a variable named like an Object member (__proto__, toString) for a name like any other', () => {
    // JSON.parse makes __proto__ an own key, as an environment can hold it.
    const parent = JSON.parse('{"__proto__": "w", "toString": "x", "constructor": "y", "hasOwnProperty": "z", "LANG": "C.UTF-8"}') as Record<string, string>;
    expect(buildToolEnv(parent, [], 'linux')).toEqual({ LANG: 'C.UTF-8' });
    expect(buildToolEnv(parent, ['toString'], 'linux')).toEqual({ LANG: 'C.UTF-8', toString: 'x' });
  });

  it('gives Windows names only on Windows', () => {
    expect(buildToolEnv({ SystemRoot: 'C:\\Windows', APPDATA: 'x' }, [], 'linux')).toEqual({});
  });

  it('lets through no name outside the allow-list and the declared names', () => {
    const allowed = (name: string, declared: readonly string[]): boolean =>
      !name.startsWith('SKILLTRAY_') && (TOOL_ENV_ALLOW_LIST.includes(name) || declared.includes(name));
    const name = fc.oneof(
      fc.string({ minLength: 1, maxLength: 12 }),
      fc.constantFrom(...TOOL_ENV_ALLOW_LIST, ...WINDOWS_TOOL_ENV_ALLOW_LIST, 'LC_X', 'XDG_Y', 'SKILLTRAY_Z', 'toString', 'constructor', 'hasOwnProperty'),
    );
    fc.assert(
      fc.property(fc.dictionary(name, fc.string()), fc.array(name, { maxLength: 4 }), (env, declared) => {
        const out = buildToolEnv(env, declared, 'linux');
        for (const [key, value] of Object.entries(out)) {
          expect(allowed(key, declared)).toBe(true);
          if (key !== 'PATH') expect(value).toBe(env[key]);
        }
        for (const key of declared) if (Object.hasOwn(env, key) && !key.startsWith('SKILLTRAY_')) expect(Object.hasOwn(out, key)).toBe(true);
      }),
    );
  });
});
