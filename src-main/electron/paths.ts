/** Where the app's files are, in a checkout (`npm start`) and in a package: pure, so a test checks both. */
import { join } from 'node:path';

export interface AppLocation {
  /** `app.getAppPath()`. */
  appPath: string;
  /** `app.isPackaged`. */
  isPackaged: boolean;
  /** `process.resourcesPath` (read only in a package). */
  resourcesPath: string;
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
}

export interface AppPaths {
  bundledDir: string;
  /** The bundled skills' manifest: made by the build inside app.asar (whose integrity Electron checks) in a package, the checked-in one in a checkout. */
  bundledManifest: string;
  webDir: string;
  preload: string;
  trayIcon: string;
  appIcon: string;
  /** better-sqlite3 built for Electron's ABI, when not the one in node_modules. */
  nativeBinding: string | undefined;
  /** The network relay a sandboxed run with a host list starts first (built by scripts/build-native.js). */
  netRelay: string;
  /** The launcher that starts a root run's sandbox inside its cgroup (built by scripts/build-native.js). */
  enterCgroup: string;
  /** The `skilltray` command's script: what a connected assistant's bridge runs (in a package, inside app.asar, run by the app's own executable as Node). */
  cliScript: string;
}

/** The app's paths for where it runs. */
export function appPaths(at: AppLocation): AppPaths {
  const resources = (...parts: string[]): string => join(at.resourcesPath, ...parts);
  return {
    bundledDir: at.isPackaged ? resources('skills') : join(at.appPath, 'skills'),
    bundledManifest: at.isPackaged ? join(at.appPath, 'dist', 'bundled-manifest.json') : join(at.appPath, 'bundled-manifest.json'),
    webDir: join(at.appPath, 'dist', 'web'),
    preload: join(at.appPath, 'dist', 'preload', 'preload.cjs'),
    // macOS tints a black template image for the menu bar; other platforms get the light glyph.
    trayIcon: join(at.isPackaged ? resources('tray') : join(at.appPath, 'build', 'tray'), at.platform === 'darwin' ? 'trayTemplate.png' : 'tray.png'),
    appIcon: at.isPackaged ? resources('tray', 'icon.png') : join(at.appPath, 'build', 'icon.png'),
    // `npm start` builds better-sqlite3 for Electron and says where; a package carries its own rebuilt
    // module, and an environment variable must never make it load other native code.
    nativeBinding: at.isPackaged ? undefined : at.env.SKILLTRAY_NATIVE_BINDING || undefined,
    netRelay: at.isPackaged ? resources('net-relay') : join(at.appPath, 'dist', 'native', 'net-relay'),
    enterCgroup: at.isPackaged ? resources('enter-cgroup') : join(at.appPath, 'dist', 'native', 'enter-cgroup'),
    cliScript: join(at.appPath, 'bin', 'skilltray.js'),
  };
}
