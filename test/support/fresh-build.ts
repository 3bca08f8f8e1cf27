/**
 * Keeps dist/ in step with its sources before tests that run it (`bin/skilltray.js` runs the CLI
 * bundle dist/cli, made from dist/node,
 * `serve --web` serves dist/web): a target whose output is older than any of its sources is rebuilt
 * with its npm script; a fresh one costs a few hundred stats, so `npm test` (which builds first)
 * does not build twice.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout the tests belong to. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export type TargetName = 'node' | 'cli' | 'web' | 'preload';

interface BuildTarget {
  /** The npm script that builds it. */
  script: string;
  /** Each source file (relative to the root) with the output that must be at least as new. */
  sources(root: string): { source: string; output: string }[];
  /** Build settings: no newer than the oldest output. */
  configs: string[];
}

/** Every file under `dir` (relative to `root`) whose name passes `keep`; a missing dir has none. */
function filesUnder(root: string, dir: string, keep: (name: string) => boolean): string[] {
  let entries;
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true, recursive: true });
  } catch {
    return [];
  }
  return entries.filter((e) => e.isFile() && keep(e.name)).map((e) => relative(root, join(e.parentPath, e.name)));
}

const isTs = (name: string): boolean => name.endsWith('.ts') && !name.endsWith('.d.ts');
const PRELOAD = join('src-main', 'electron', 'preload.ts');
const NATIVE_SOURCES = join('src-main', 'core', 'process');
const bundledInto = (output: string) => (source: string) => ({ source, output });

const TARGETS: Record<TargetName, BuildTarget> = {
  node: {
    script: 'build:node',
    // tsc rewrites every output on each build, so each .ts is compared with its own .js.
    sources: (root) => [
      ...[...filesUnder(root, 'src-main', isTs), ...filesUnder(root, 'bench', isTs)]
        .filter((source) => source !== PRELOAD)
        .map((source) => ({ source, output: join('dist', 'node', source.replace(/\.ts$/, '.js')) })),
      // The network relay and the cgroup launcher are C, compiled on Linux only (scripts/build-native.js).
      ...(process.platform === 'linux'
        ? filesUnder(root, NATIVE_SOURCES, (name) => name.endsWith('.c')).map((source) => ({ source, output: join('dist', 'native', basename(source, '.c')) }))
        : []),
    ],
    configs: ['tsconfig.node.json', 'tsconfig.base.json', join('scripts', 'build-native.js')],
  },
  cli: {
    script: 'build:cli',
    // The CLI bundle is made from tsc's output (scripts/bundle-cli.js), so it is compared with each compiled module the CLI can load.
    sources: (root) =>
      filesUnder(root, join('dist', 'node', 'src-main'), (name) => name.endsWith('.js'))
        .filter((source) => !source.startsWith(`${join('dist', 'node', 'src-main', 'electron')}${sep}`))
        .map(bundledInto(join('dist', 'cli', 'main.cjs'))),
    configs: [join('scripts', 'bundle-cli.js')],
  },
  web: {
    script: 'build:web',
    sources: (root) =>
      [...filesUnder(root, 'src-renderer', () => true), ...filesUnder(root, join('src-main', 'shared'), isTs)].map(
        bundledInto(join('dist', 'web', 'index.html')),
      ),
    configs: ['vite.config.ts'],
  },
  preload: {
    script: 'build:preload',
    sources: (root) => [PRELOAD, ...filesUnder(root, join('src-main', 'shared'), isTs)].map(bundledInto(join('dist', 'preload', 'preload.cjs'))),
    configs: ['vite.preload.config.ts'],
  },
};

function mtimeOf(path: string): number | null {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

/** Why `target`'s build in `root` is stale (an output missing, or older than a source or a build setting), or null when it is fresh. */
export function staleness(target: TargetName, root = ROOT): string | null {
  const { sources, configs } = TARGETS[target];
  let oldest: { output: string; time: number } | null = null;
  for (const { source, output } of sources(root)) {
    const outputTime = mtimeOf(join(root, output));
    if (outputTime === null) return `${output} is missing`;
    const sourceTime = mtimeOf(join(root, source));
    if (sourceTime !== null && sourceTime > outputTime) return `${source} is newer than ${output}`;
    if (oldest === null || outputTime < oldest.time) oldest = { output, time: outputTime };
  }
  if (oldest === null) return `nothing to build ${target} from in ${root}`;
  for (const config of configs) {
    const time = mtimeOf(join(root, config));
    if (time !== null && time > oldest.time) return `${config} is newer than ${oldest.output}`;
  }
  return null;
}

/** Runs an npm script in `root`, output shown; throws when it fails. */
function runScript(root: string, script: string): void {
  execFileSync('npm', ['run', '--silent', script], { cwd: root, stdio: 'inherit' });
}

export interface FreshBuildOptions {
  root?: string;
  log?: (line: string) => void;
  /** Builds with an npm script (the default runs it). */
  build?: (root: string, script: string) => void;
}

/** Rebuilds each stale target; throws, saying which source, when the build leaves it stale. */
export function ensureFreshBuild(targets: readonly TargetName[], options: FreshBuildOptions = {}): void {
  const { root = ROOT, log = console.log, build = runScript } = options;
  for (const target of targets) {
    const reason = staleness(target, root);
    if (reason === null) continue;
    const { script } = TARGETS[target];
    log(`dist is stale (${reason}): npm run ${script}`);
    try {
      build(root, script);
    } catch (error) {
      // tsc still emits when it finds type errors; what matters here is that dist matches the sources.
      log(`npm run ${script} failed (${(error as Error).message.split('\n')[0]}); npm run typecheck says why`);
    }
    const still = staleness(target, root);
    if (still !== null) throw new Error(`the tests would run a stale build: ${still}, and npm run ${script} did not fix it`);
  }
}
