#!/usr/bin/env node
/**
 * npm's `prepare` (run by `npm install` and `npm link`): builds dist/node, the bundled manifest, the
 * CLI bundle and the relay (`npm run build:node`), unless all of them are newer than every file
 * they are made from, so `npm link` right after `npm install` does not build everything again.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));

/** Every file under `dir` (relative to the root), or none when it is missing. */
function filesUnder(dir) {
  try {
    return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
  } catch {
    return [];
  }
}

/** A file's mtime, or null when it is missing. */
function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

/** What build:node reads: the sources, the bundled skills (the manifest), the build's settings and scripts, and the dependencies' versions. */
const inputs = [
  ...filesUnder('src-main'),
  ...filesUnder('bench'),
  ...filesUnder('skills'),
  ...['tsconfig.node.json', 'tsconfig.base.json', 'package.json', 'package-lock.json'].map((file) => join(root, file)),
  ...['bundled-manifest.js', 'bundle-cli.js', 'build-native.js'].map((file) => join(root, 'scripts', file)),
];

/** What it writes last in each step: tsc's output comes first, so each of these is newer than all of it. */
const outputs = [
  join(root, 'dist', 'bundled-manifest.json'),
  join(root, 'dist', 'cli', 'chunks.json'),
  ...(process.platform === 'linux' ? ['net-relay', 'enter-cgroup'].map((name) => join(root, 'dist', 'native', name)) : []),
];

const built = outputs.map(mtime);
const newestInput = Math.max(...inputs.map((file) => mtime(file) ?? 0));
if (built.every((time) => time !== null && time > newestInput)) {
  process.stdout.write('skilltray: dist/ is newer than every source it is built from; nothing to build (npm run build:node builds anyway)\n');
} else {
  const npm = process.env.npm_execpath;
  const [program, args] = npm !== undefined && /\.[cm]?js$/.test(npm) ? [process.execPath, [npm]] : [npm ?? 'npm', []];
  execFileSync(program, [...args, 'run', 'build:node'], { cwd: root, stdio: 'inherit' });
}
