/**
 * What an ordinary user can reach when the tests run as root and play one: root reads the checkout
 * wherever it lives, but a clone under a 0700 folder (/root, a mktemp folder) is closed to everyone
 * else. So the built app the ordinary user runs, and the folders it works in, go where everyone can
 * reach them: under the checkout's test-results when that is open, else in the system's temp folder.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll } from 'vitest';
import { BUNDLED_MANIFEST } from '../../src-main/core/config.js';
import { ROOT } from './fresh-build.js';

/** Whether everyone may pass through each folder down to `path` (their execute bit), and read `path` itself when `read`. */
export function openToAll(path: string, read = false): boolean {
  const real = realpathSync(path);
  if (read && (statSync(real).mode & 0o004) === 0) return false;
  for (let dir = statSync(real).isDirectory() ? real : dirname(real); ; dir = dirname(dir)) {
    if ((statSync(dir).mode & 0o001) === 0) return false;
    if (dir === dirname(dir)) return true;
  }
}

/** Where fresh reachable folders go: the checkout's test-results when everyone can enter it (or the tests are the ordinary user), else the temp folder. */
function reachableParent(): string {
  const results = join(ROOT, 'test-results');
  mkdirSync(results, { recursive: true });
  return process.getuid?.() !== 0 || openToAll(results) ? results : tmpdir();
}

/** A fresh folder (mode 0755) an ordinary user can reach; the caller removes it. */
export function reachableDir(prefix: string): string {
  const dir = mkdtempSync(join(reachableParent(), `skilltray-${prefix}`));
  chmodSync(dir, 0o755);
  return dir;
}

/** The built app an ordinary user runs: `bin/skilltray.js` under `root`, with `node`. */
export interface RunnableApp {
  root: string;
  node: string;
}

/** The hostile suite's driver of many in-process runs, which loads the core from dist/node/src-main. */
export const RUN_DRIVER = join('test', 'integration', 'sandbox', 'hostile', 'run-driver.mjs');

/**
 * A copy of what the CLI reads (bin, package.json, dist/cli, dist/native with the network relay,
 * the bundled skills and their manifest, the production packages), and of what the run driver
 * loads (itself, dist/node/src-main), and node, where everyone can read it.
 */
function stageApp(): RunnableApp {
  const root = reachableDir('app-');
  for (const entry of [
    'bin',
    'package.json',
    join('dist', 'cli'),
    join('dist', 'node', 'src-main'),
    join('dist', 'native'),
    'skills',
    BUNDLED_MANIFEST,
    RUN_DRIVER,
  ]) {
    cpSync(join(ROOT, entry), join(root, entry), { recursive: true });
  }
  const packages = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes('node_modules'));
  // A package inside another one's folder comes with it.
  for (const dir of packages.filter((dir) => !packages.some((other) => other !== dir && dir.startsWith(`${other}/`)))) {
    cpSync(dir, join(root, relative(ROOT, dir)), { recursive: true });
  }
  const node = join(root, 'node');
  cpSync(process.execPath, node);
  execFileSync('chmod', ['-R', 'a+rX', root]);
  return { root, node };
}

let staged: RunnableApp | undefined;
// A staged app is thousands of files: removing one took 15 s on the loaded 2-core machine.
afterAll(() => {
  if (staged !== undefined) rmSync(staged.root, { recursive: true, force: true });
  staged = undefined;
}, 120_000);

/**
 * The app for the ordinary user: the checkout and this node where everyone can read them (or the tests
 * are not root), else a copy staged once per test file and removed after it.
 */
export function appForOrdinaryUser(): RunnableApp {
  const open = process.getuid?.() !== 0 || (openToAll(join(ROOT, 'bin', 'skilltray.js'), true) && openToAll(process.execPath, true));
  if (open) return { root: ROOT, node: process.execPath };
  staged ??= stageApp();
  return staged;
}
