/**
 * Packaging (electron-builder): AppImage and deb on Linux, dmg on macOS, NSIS on Windows. The app's
 * compiled main, preload and UI go in app.asar, with the manifest of the bundled skills the build
 * made (it is what makes them bundled, and inside the asar Electron checks it is the file shipped);
 * bundled skill packs and tray icons ship as resources; better-sqlite3 is rebuilt for Electron's ABI
 * and unpacked from the asar (native modules must be); Electron's fuses are set so the shipped
 * binary runs only the app it was packaged with.
 * Build with `npm run dist` (on a machine that can download Electron and its headers).
 */
import type { Configuration } from 'electron-builder';

const config: Configuration = {
  appId: 'dev.skilltray.app',
  productName: 'Skilltray',
  copyright: 'Copyright © 2026 the Skilltray authors',
  directories: { output: 'release', buildResources: 'build' },
  // bin/skilltray.js and the CLI bundle: what a connected assistant starts (`Skilltray mcp` run as Node).
  files: [
    'package.json',
    'bin/skilltray.js',
    'bin/package.json',
    'dist/cli/**/*.cjs',
    'dist/cli/**/*.js',
    'dist/node/src-main/**/*.js',
    'dist/bundled-manifest.json',
    'dist/preload/preload.cjs',
    'dist/web/**/*',
    '!**/*.map',
  ],
  extraResources: [
    { from: 'skills', to: 'skills', filter: ['**/*'] },
    { from: 'build/tray', to: 'tray', filter: ['*.png'] },
  ],
  asarUnpack: ['**/node_modules/better-sqlite3/**/*.node'],
  npmRebuild: true,
  // Flipped in the packaged Electron binary: it cannot be told what to load through NODE_OPTIONS or
  // --inspect, or made to run code from outside its checked app.asar; cookies are encrypted with the
  // OS keychain; file:// gets no extra powers. ELECTRON_RUN_AS_NODE stays honoured: it is how an
  // assistant `skilltray connect` wired up starts the MCP bridge (`Skilltray bin/skilltray.js mcp`)
  // without a Node of its own (docs/connect.md says what that costs).
  electronFuses: {
    runAsNode: true,
    enableCookieEncryption: true,
    enableNodeOptionsEnvironmentVariable: false,
    enableNodeCliInspectArguments: false,
    enableEmbeddedAsarIntegrityValidation: true,
    onlyLoadAppFromAsar: true,
    grantFileProtocolExtraPrivileges: false,
  },
  icon: 'build/icon.png',
  linux: {
    target: ['AppImage', 'deb'],
    category: 'Utility',
    synopsis: 'A tray host for assistant skills',
    description: 'Runs SKILL.md tools for assistants after you approve them, bounded and recorded.',
    // The network relay and the cgroup launcher run as processes of their own, so they ship as files, never in the asar.
    extraResources: [{ from: 'dist/native', to: '.', filter: ['net-relay', 'enter-cgroup'] }],
  },
  deb: { depends: ['libnotify4', 'libxtst6', 'libnss3'] },
  mac: { target: ['dmg'], category: 'public.app-category.developer-tools', hardenedRuntime: true },
  win: { target: ['nsis'] },
  nsis: { oneClick: false, perMachine: false, allowToChangeInstallationDirectory: true },
};

export default config;
