/**
 * The programs `npm test` needs from the system, and where the end-to-end tests find a browser.
 * Plain Node with no dependency installed: `.ci/run` asks it what to install before `npm ci`.
 */
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));

/** Debian packages that hold a program, where the name differs (coreutils and findutils come with every system). */
const DEBIAN_PACKAGES = {
  ping: 'iputils-ping',
  getent: 'libc-bin',
  uptime: 'procps',
  free: 'procps',
  ps: 'procps',
  shasum: 'perl',
  bwrap: 'bubblewrap',
  'ssh-keygen': 'openssh-client',
  cc: 'gcc',
  ip: 'iproute2',
  chromium: 'chromium',
  pocketsphinx_batch: 'pocketsphinx',
};

/** The US English model the voice tests hear answers with (Debian's pocketsphinx-en-us), by a file it installs. */
const VOICE_MODEL = '/usr/share/pocketsphinx/model/en-us/en-us/mdef';

/** Programs every Linux or macOS system has, not worth checking. */
const ALWAYS_THERE = new Set(['ls', 'head', 'wc', 'find', 'df']);

/** `bins: [a, b]` in a SKILL.md's frontmatter (the bundled packs write them so; a test holds them to the loader). */
function frontmatterBins(text) {
  const frontmatter = /^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? '';
  return [...frontmatter.matchAll(/^\s*bins:\s*\[([^\]]*)\]/gm)].flatMap((m) =>
    m[1]
      .split(',')
      .map((b) => b.trim())
      .filter(Boolean),
  );
}

/** Every program the bundled packs require (their tests run them for real), each with the packs that need it. */
export function bundledPackBins(skillsDir = join(root, 'skills')) {
  const packs = new Map();
  for (const name of readdirSync(skillsDir).sort()) {
    const file = join(skillsDir, name, 'SKILL.md');
    if (!existsSync(file)) continue;
    for (const bin of frontmatterBins(readFileSync(file, 'utf8'))) packs.set(bin, [...new Set([...(packs.get(bin) ?? []), name])]);
  }
  return new Map([...packs].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The first executable called `name` on PATH, or null. */
export function onPath(name, env = process.env) {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    const path = join(dir, name);
    try {
      if (dir !== '' && statSync(path).isFile()) return path;
    } catch {
      // not in this directory
    }
  }
  return null;
}

/** Where Playwright keeps its browsers by default, per platform. */
function playwrightCache(env, platform) {
  const home = env.HOME ?? env.USERPROFILE ?? '';
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'ms-playwright');
  if (platform === 'win32') return join(env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'), 'ms-playwright');
  return join(env.XDG_CACHE_HOME ?? join(home, '.cache'), 'ms-playwright');
}

/** Playwright's own Chromium when it is installed, else the system's (Debian's `chromium`); null when neither is. */
export async function chromiumExecutable(env = process.env, platform = process.platform) {
  // Loading playwright-core takes seconds on a busy machine: only when its browsers may be there.
  if (env.PLAYWRIGHT_BROWSERS_PATH !== undefined || existsSync(playwrightCache(env, platform))) {
    try {
      const { chromium } = await import('playwright-core');
      const own = chromium.executablePath();
      if (own && existsSync(own)) return own;
    } catch {
      // playwright-core is not installed yet (before npm ci) or knows no browser for this platform
    }
  }
  return onPath('chromium', env) ?? onPath('chromium-browser', env);
}

/** What `npm test` needs that this machine lacks: each with why, and the package that brings it. */
export async function missingDependencies({ platform = process.platform, env = process.env } = {}) {
  const needs = [
    ...[...bundledPackBins()]
      .filter(([bin]) => !ALWAYS_THERE.has(bin))
      .map(([bin, packs]) => ({
        program: bin,
        why: `the bundled ${packs.join(', ')} pack${packs.length > 1 ? 's run' : ' runs'} it, and the tests run it for real`,
      })),
    { program: 'git', why: 'the tests make Git repositories' },
    { program: 'ssh-keygen', why: 'the pack tests sign commits with SSH keys they generate' },
    { program: 'bash', why: 'the CLI tests pipe through a shell, and the completion tests ask its completion' },
    { program: 'zsh', why: "the completion tests parse and ask skilltray's zsh completion" },
    { program: 'fish', why: "the completion tests parse and ask skilltray's fish completion" },
    {
      program: 'cc',
      why: "the build compiles the relay a sandboxed run starts first, and the state.db salvage test compiles sqlite3's shell (for its .recover)",
    },
    { program: 'curl', why: "the network tests reach a loopback host through a run's proxy with it" },
    { program: 'python3', why: 'the hostile tests map shared memory and call ptrace from inside a run with it' },
    ...(platform === 'linux'
      ? [
          { program: 'bwrap', why: 'runs are contained in a bubblewrap sandbox on Linux' },
          { program: 'ip', why: 'the network tests make network namespaces of their own (ip netns) to try the proxy against private addresses' },
          { program: 'espeak-ng', why: 'the voice tests speak answers and prompts with it (docs/voice.md)' },
          { program: 'pocketsphinx_batch', why: 'the voice tests hear spoken answers with it (docs/voice.md)' },
        ]
      : []),
  ];
  const seen = new Set();
  const missing = [];
  for (const need of needs) {
    if (seen.has(need.program)) continue;
    seen.add(need.program);
    if (onPath(need.program, env) === null) missing.push({ ...need, package: DEBIAN_PACKAGES[need.program] ?? need.program });
  }
  if (platform === 'linux' && !existsSync(VOICE_MODEL)) {
    missing.push({ program: 'pocketsphinx-en-us', why: 'the US English model the voice tests hear answers with', package: 'pocketsphinx-en-us' });
  }
  if ((await chromiumExecutable(env)) === null) {
    missing.push({
      program: 'chromium',
      why: "the end-to-end tests' browser (Playwright's own Chromium serves too: npx playwright install chromium)",
      package: 'chromium',
    });
  }
  return missing;
}

/**
 * Why the tests cannot run from `dir` on this platform, or null. On Linux every run gets a private
 * /tmp and /var/tmp, so test fixtures in a checkout under either are invisible to the tools the
 * tests run (docs/runner.md, "A private temp").
 */
export function checkoutProblem(dir = root, platform = process.platform) {
  if (platform !== 'linux') return null;
  const real = realpathSync(dir);
  const under = ['/tmp', '/var/tmp'].find((tmp) => real === tmp || real.startsWith(`${tmp}/`));
  return under === undefined
    ? null
    : `the checkout ${real} is under ${under}, which every sandboxed run sees as a private, empty folder, so the tools the tests run cannot see the test fixtures. Clone it anywhere else (.ci/run moves itself).`;
}
