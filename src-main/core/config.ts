/**
 * Where Skilltray keeps its state and finds skills. Everything is derived from an environment
 * passed in by the entry point (CLI, Electron, tests), never read from globals inside the core.
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import envPaths from 'env-paths';
import type { RootKind, RootStatus, RootWatch, SkillRoot } from '../shared/model.js';
import { errnoText } from './skills/entry-kinds.js';
import { defaultThreads } from './parallel.js';
import { skillcErrors } from '../shared/error-messages/skillc.js';

/** How this installation of Skilltray is started, so `connect` can tell a client the command that starts its bridge. */
export interface Installation {
  /** The program that runs `script`: Node, or the packaged app's own executable. */
  runtime: string;
  /** This installation's `bin/skilltray.js`. */
  script: string;
  /** The runtime is the packaged app's executable, which runs the script as Node with ELECTRON_RUN_AS_NODE=1. */
  packaged: boolean;
}

export interface CoreConfig {
  /** SKILLTRAY_HOME, or the env-paths data dir for `skilltray`. */
  home: string;
  /** Skill roots in precedence order, first match wins on a name. */
  roots: SkillRoot[];
  /** The environment tools inherit from (filtered by the runner) and requirements are checked against. */
  env: NodeJS.ProcessEnv;
  /** The manifest of the bundled skills shipped with the app: only a skill it lists, unchanged, is bundled. */
  bundledManifest: string;
  /** Path of a better-sqlite3 binary built for this process's ABI, when not the default one. */
  nativeBinding?: string;
  /** The network relay a sandboxed run with a host list starts first (Linux; core/process/network/net-relay.c). */
  netRelay: string;
  /** The launcher that starts a run's sandbox inside the cgroup Skilltray made for it, as root (Linux; core/process/sandbox/enter-cgroup.c). */
  enterCgroup: string;
  installation: Installation;
  /** Threads a cold load or a first search may use (SKILLTRAY_THREADS; every core, up to four, by default). */
  threads: number;
}

/** The manifest's file name, beside the bundled folder in a checkout (and an npm install). */
export const BUNDLED_MANIFEST = 'bundled-manifest.json';

export interface ConfigInput {
  env?: NodeJS.ProcessEnv;
  /** The bundled `skills/` directory (a resource of the packaged app, or the checkout's). */
  bundledDir: string;
  /** The bundled skills' manifest; default `bundled-manifest.json` beside the bundled folder. */
  bundledManifest?: string;
  platform?: NodeJS.Platform;
  nativeBinding?: string;
  /** The network relay's path; by default dist/native/net-relay beside the bundled skills' folder, as the build leaves it. */
  netRelay?: string;
  /** The cgroup launcher's path; by default dist/native/enter-cgroup beside the relay's default. */
  enterCgroup?: string;
  /** Default: this process's runtime and the `bin/skilltray.js` beside the bundled `skills/` (a checkout or an npm install). */
  installation?: Installation;
}

export function userHome(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  return (platform === 'win32' ? env.USERPROFILE : env.HOME) || homedir();
}

/** gibb.eri.sh's app-data skills directory, as its spec lists it for each platform. */
export function gibberishSkillsDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string {
  const home = userHome(env, platform);
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'gibb.eri.sh', 'skills');
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'gibb.eri.sh', 'skills');
  return join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'gibb.eri.sh', 'skills');
}

/**
 * The folders gibb.eri.sh keeps its tool packs under (`<dir>/tools/*.tool.json`, `<dir>/tools.d/<group>/`):
 * its config folder (Rust's `dirs::config_dir()`), and on macOS also `~/.config/gibb.eri.sh`, where its spec puts them.
 */
export function gibbConfigDirs(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string[] {
  const home = userHome(env, platform);
  const xdg = join(env.XDG_CONFIG_HOME || join(home, '.config'), 'gibb.eri.sh');
  if (platform === 'darwin') return [join(home, 'Library', 'Application Support', 'gibb.eri.sh'), join(home, '.config', 'gibb.eri.sh')];
  if (platform === 'win32') return [join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'gibb.eri.sh')];
  return [xdg];
}

/** Most threads SKILLTRAY_THREADS may ask for. */
export const MAX_THREADS = 64;

/** SKILLTRAY_THREADS (an integer from 1 to MAX_THREADS; 1 keeps every parse on the thread that asks), or the default: E100 for anything else. */
export function threadsOf(env: NodeJS.ProcessEnv): number {
  const raw = env.SKILLTRAY_THREADS;
  if (raw === undefined || raw === '') return defaultThreads();
  const threads = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || threads < 1 || threads > MAX_THREADS) {
    throw skillcErrors.invalidVariable('SKILLTRAY_THREADS', `SKILLTRAY_THREADS must be an integer between 1 and ${MAX_THREADS}, got '${raw}'`);
  }
  return threads;
}

/** Builds the configuration from an environment: SKILLTRAY_HOME, SKILLTRAY_SKILLS_PATH, HOME. */
export function resolveConfig(input: ConfigInput): CoreConfig {
  const env = input.env ?? process.env;
  const platform = input.platform ?? process.platform;
  const home = resolve(env.SKILLTRAY_HOME || envPaths('skilltray', { suffix: '' }).data);
  const roots: SkillRoot[] = [];
  const add = (path: string, kind: RootKind, onlyIfPresent: boolean): void => {
    const abs = resolve(path);
    if (roots.some((r) => r.path === abs)) return;
    if (onlyIfPresent && !existsSync(abs)) return;
    roots.push({ path: abs, kind, trust: kind === 'bundled' ? 'bundled' : 'user', syntax: kind === 'gibberish' ? 'braces' : 'angle' });
  };
  for (const entry of (env.SKILLTRAY_SKILLS_PATH ?? '').split(delimiter)) {
    if (entry.trim() !== '') add(entry, 'env', false);
  }
  add(join(home, 'skills'), 'home', false);
  // Installed packs: after your own skills, before the bundled ones; never bundled trust.
  add(join(home, 'packs'), 'packs', false);
  add(input.bundledDir, 'bundled', false);
  const userDir = userHome(env, platform);
  add(gibberishSkillsDir(env, platform), 'gibberish', true);
  // gibb.eri.sh's tool packs: its `tools` folder is one skill of the config folder, each `tools.d/<group>` one of tools.d.
  for (const dir of gibbConfigDirs(env, platform)) {
    add(dir, 'gibbtools', true);
    add(join(dir, 'tools.d'), 'gibbtools', true);
  }
  add(join(userDir, '.kode', 'skills'), 'kode', true);
  add(join(userDir, '.claude', 'skills'), 'claude', true);
  // The personal skill folders the assistants `connect` knows document (docs/connect.md).
  add(join(userDir, '.agents', 'skills'), 'agents', true);
  add(join(env.CODEX_HOME || join(userDir, '.codex'), 'skills'), 'codex', true);
  add(join(userDir, '.cursor', 'skills'), 'cursor', true);
  add(join(userDir, '.copilot', 'skills'), 'copilot', true);
  // Skills taken from MCP sources, as the person approved them: last, so one never hides another skill (its name is `<source>.<skill>` anyway).
  add(join(home, 'mcp', 'skills'), 'mcp', false);
  const installation = input.installation ?? {
    runtime: process.execPath,
    script: join(dirname(resolve(input.bundledDir)), 'bin', 'skilltray.js'),
    packaged: false,
  };
  const bundledManifest = resolve(input.bundledManifest ?? join(dirname(resolve(input.bundledDir)), BUNDLED_MANIFEST));
  const natives = join(dirname(resolve(input.bundledDir)), 'dist', 'native');
  const netRelay = input.netRelay ?? join(natives, 'net-relay');
  const enterCgroup = input.enterCgroup ?? join(natives, 'enter-cgroup');
  return {
    home,
    roots,
    env,
    bundledManifest,
    installation,
    netRelay,
    enterCgroup,
    threads: threadsOf(env),
    ...(input.nativeBinding === undefined ? {} : { nativeBinding: input.nativeBinding }),
  };
}

/** Why an existing root cannot be listed (`EACCES (permission denied)`), or null when it can or does not exist. */
export function unreadableRoot(path: string): string | null {
  try {
    accessSync(path, constants.R_OK | constants.X_OK);
    return null;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? null : errnoText(error);
  }
}

/**
 * The skill roots in precedence order, whether each exists and can be read, and how `watchStatus`
 * says it is watched (null: not by this process): one stat each, so the CLI's `roots` opens nothing.
 */
export function describeRoots(config: CoreConfig, watchStatus: (path: string) => RootWatch | null = () => null): { home: string; roots: RootStatus[] } {
  return {
    home: config.home,
    roots: config.roots.map((r) => ({ ...r, exists: existsSync(r.path), unreadable: unreadableRoot(r.path), watch: watchStatus(r.path) })),
  };
}
