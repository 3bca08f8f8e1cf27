/** Temporary homes and skills for tests: every test gets fresh directories, removed afterwards. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach } from 'vitest';
import { BUNDLED_MANIFEST, resolveConfig, type CoreConfig } from '../../src-main/core/config.js';
import { bundledManifestOf, manifestText } from '../../src-main/core/skills/bundled-manifest.js';

const created: string[] = [];

/** The network relay as the build leaves it in this checkout (vitest's global setup builds it). */
export const NET_RELAY = join(import.meta.dirname, '..', '..', 'dist', 'native', 'net-relay');
/** The cgroup launcher as the build leaves it (scripts/build-native.js). */
export const ENTER_CGROUP = join(import.meta.dirname, '..', '..', 'dist', 'native', 'enter-cgroup');

afterEach(() => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh directory removed after the current test. */
export function tempDir(prefix = 'skilltray-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

/** Writes `files` (relative path → content) under `dir`. */
export function writeFiles(dir: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const path = join(dir, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
}

/** Writes a skill directory `<root>/<name>` with a SKILL.md and any other files; returns its path. */
export function writeSkill(root: string, name: string, skillMd: string | Buffer, files: Record<string, string | Buffer> = {}): string {
  const dir = join(root, name);
  writeFiles(dir, { 'SKILL.md': skillMd, ...files });
  return dir;
}

/**
 * The folder of the process fixtures (print-argv.mjs, behave.mjs…). A skill whose tools run one
 * declares it in `reads:`: a sandboxed run sees nothing outside its working directory unless declared.
 */
export const PROCESS_FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'processes');

/** A SKILL.md with the given frontmatter lines and body. */
export function skillMd(frontmatter: Record<string, unknown> | string, body = ''): string {
  const yaml =
    typeof frontmatter === 'string'
      ? frontmatter
      : Object.entries(frontmatter)
          .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
          .join('\n');
  return `---\n${yaml}\n---\n${body}`;
}

export interface TestHome {
  home: string;
  /** A user HOME with no compatibility roots unless a test creates them. */
  userHome: string;
  /** An empty skills root on SKILLTRAY_SKILLS_PATH. */
  skills: string;
  bundled: string;
  /** An ordinary folder for runs to work in: not a home, not a skill root (the workspace guard refuses those). */
  work: string;
  env: NodeJS.ProcessEnv;
  config(extraEnv?: NodeJS.ProcessEnv): CoreConfig;
  /**
   * Writes the manifest of what the test's own bundled folder holds now, as the build would ship it:
   * until then nothing there is bundled. Over the checkout's skills/ it writes nothing: the checked-in
   * manifest beside them is theirs.
   */
  sealBundled(): void;
}

/**
 * A temporary SKILLTRAY_HOME, HOME, SKILLTRAY_SKILLS_PATH root, bundled dir and work folder, under `base` (a
 * fresh temp dir removed after the test unless given); `bundled` points the bundled root elsewhere.
 */
export function testHome(options: { base?: string; bundled?: string } = {}): TestHome {
  const base = options.base ?? tempDir();
  const paths = {
    home: join(base, 'home'),
    userHome: join(base, 'user'),
    skills: join(base, 'skills'),
    bundled: options.bundled ?? join(base, 'bundled'),
    work: join(base, 'work'),
  };
  for (const p of Object.values(paths)) mkdirSync(p, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: paths.userHome,
    SKILLTRAY_HOME: paths.home,
    SKILLTRAY_SKILLS_PATH: paths.skills,
    XDG_DATA_HOME: join(paths.userHome, '.local', 'share'),
  };
  return {
    ...paths,
    env,
    config: (extraEnv = {}) =>
      resolveConfig({ env: { ...env, ...extraEnv }, bundledDir: paths.bundled, platform: 'linux', netRelay: NET_RELAY, enterCgroup: ENTER_CGROUP }),
    sealBundled: () => {
      if (options.bundled === undefined) writeFileSync(join(base, BUNDLED_MANIFEST), manifestText(bundledManifestOf(paths.bundled)));
    },
  };
}
