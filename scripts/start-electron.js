#!/usr/bin/env node
/**
 * `npm start`: run the tray app from the checkout. On first use it fetches the Electron binary and
 * builds better-sqlite3 for Electron's ABI into .electron-native/ (the Node build in node_modules stays
 * for the tests and the CLI); then it builds the app and launches it. Every step that can fail says
 * what to do about it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const require = createRequire(import.meta.url);
const electronDir = join(root, 'node_modules', 'electron');
const electronVersion = JSON.parse(readFileSync(join(electronDir, 'package.json'), 'utf8')).version;
const REQUIRED_NODE = [22, 12];

/** Prints a problem and what to do, then exits. */
function fail(lines) {
  process.stderr.write(
    `\nSkilltray cannot start the desktop app:\n\n${lines.map((l) => `  ${l}`).join('\n')}\n\n` +
      '  Meanwhile the command line (skilltray …, put on your PATH once with npm link --ignore-scripts;\n' +
      '  or node bin/skilltray.js …) and browser mode (npm run web) work without Electron.\n\n',
  );
  process.exit(1);
}

function run(command, args, options = {}) {
  return spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: false, ...options });
}

// 1. Electron 45's download and rebuild tooling needs Node 22.12+.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < REQUIRED_NODE[0] || (major === REQUIRED_NODE[0] && minor < REQUIRED_NODE[1])) {
  fail([
    `Skilltray's desktop app uses Electron ${electronVersion}, whose download tooling needs Node.js ${REQUIRED_NODE.join('.')} or later;`,
    `this is Node.js ${process.versions.node}.`,
    'Install Node.js 22 LTS or later (https://nodejs.org, or `nvm install 22`), run `npm install` again, then `npm start`.',
  ]);
}

// 2. The Electron binary, fetched once (npm install skips Electron's own download script on purpose).
if (!existsSync(join(electronDir, 'path.txt')) || !existsSync(join(electronDir, 'dist'))) {
  process.stdout.write(`Fetching Electron ${electronVersion} for ${process.platform}-${process.arch} (first start only)…\n`);
  const install = run(process.execPath, [join(electronDir, 'install.js')]);
  if (install.status !== 0) {
    fail([
      `Electron ${electronVersion} could not be downloaded for ${process.platform}-${process.arch}.`,
      'Check the internet connection; behind a proxy set HTTPS_PROXY; to use a mirror set ELECTRON_MIRROR',
      '(e.g. ELECTRON_MIRROR=https://npmmirror.com/mirrors/electron/); or unpack an Electron release yourself',
      'and set ELECTRON_OVERRIDE_DIST_PATH to its folder. Then run `npm start` again.',
    ]);
  }
}
const electronBinary = require('electron');

// 3. better-sqlite3 built for Electron's ABI, kept beside the Node build rather than replacing it.
const nativeDir = join(root, '.electron-native', `${electronVersion}-${process.platform}-${process.arch}`);
const nativeBinding = join(nativeDir, 'better_sqlite3.node');
if (!existsSync(nativeBinding)) {
  process.stdout.write(`Building better-sqlite3 for Electron ${electronVersion} (first start only)…\n`);
  const buildDir = join(root, '.electron-native', 'build');
  rmSync(buildDir, { recursive: true, force: true });
  const moduleDir = join(buildDir, 'node_modules', 'better-sqlite3');
  const { version: sqliteVersion } = JSON.parse(readFileSync(join(root, 'node_modules', 'better-sqlite3', 'package.json'), 'utf8'));
  cpSync(join(root, 'node_modules', 'better-sqlite3'), moduleDir, { recursive: true, filter: (src) => !src.includes(`${join('better-sqlite3', 'build')}`) });
  // @electron/rebuild finds what to rebuild from the package.json at buildPath.
  writeFileSync(
    join(buildDir, 'package.json'),
    JSON.stringify({ name: 'skilltray-electron-native', private: true, dependencies: { 'better-sqlite3': sqliteVersion } }),
  );
  try {
    const { rebuild } = await import('@electron/rebuild');
    await rebuild({ buildPath: buildDir, electronVersion, arch: process.arch, onlyModules: ['better-sqlite3'], force: true });
    mkdirSync(nativeDir, { recursive: true });
    cpSync(join(moduleDir, 'build', 'Release', 'better_sqlite3.node'), nativeBinding);
  } catch (error) {
    fail([
      `better-sqlite3 could not be built for Electron ${electronVersion}: ${error instanceof Error ? error.message : String(error)}`,
      "It needs Electron's headers (downloaded from electronjs.org) and a C++ toolchain:",
      'Python 3, make and g++ on Linux; Xcode command line tools on macOS; Visual Studio Build Tools on Windows.',
      'Install them, then run `npm start` again.',
    ]);
  } finally {
    rmSync(buildDir, { recursive: true, force: true });
  }
}

// 4. The app itself: compiled main, bundled preload, built UI.
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
if (run(npm, ['run', 'build:app'], { shell: process.platform === 'win32' }).status !== 0) {
  fail(['Building the app failed (see above). `npm run typecheck` and `npm run lint` usually say why.']);
}

// 5. Launch; the tray app runs until it is quit from its menu.
const env = { ...process.env, SKILLTRAY_NATIVE_BINDING: nativeBinding };
delete env.ELECTRON_RUN_AS_NODE;
const child = spawn(electronBinary, [root], { stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
