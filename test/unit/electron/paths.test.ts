import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appPaths } from '../../../src-main/electron/paths.js';

const at = { appPath: '/checkout', resourcesPath: '/opt/Skilltray/resources', platform: 'linux' as const, env: { SKILLTRAY_NATIVE_BINDING: '/tmp/evil.node' } };

describe('the app’s paths', () => {
  it('in a checkout: skills, icons and the Electron build of better-sqlite3 that npm start names', () => {
    expect(appPaths({ ...at, isPackaged: false })).toEqual({
      bundledDir: join('/checkout', 'skills'),
      bundledManifest: join('/checkout', 'bundled-manifest.json'),
      webDir: join('/checkout', 'dist', 'web'),
      preload: join('/checkout', 'dist', 'preload', 'preload.cjs'),
      trayIcon: join('/checkout', 'build', 'tray', 'tray.png'),
      appIcon: join('/checkout', 'build', 'icon.png'),
      nativeBinding: '/tmp/evil.node',
      netRelay: join('/checkout', 'dist', 'native', 'net-relay'),
      enterCgroup: join('/checkout', 'dist', 'native', 'enter-cgroup'),
      cliScript: join('/checkout', 'bin', 'skilltray.js'),
    });
  });

  it('in a package: resources beside the app, the manifest inside it, and SKILLTRAY_NATIVE_BINDING ignored, so no variable loads other native code', () => {
    expect(appPaths({ ...at, isPackaged: true, appPath: '/opt/Skilltray/resources/app.asar' })).toMatchObject({
      bundledDir: join('/opt/Skilltray/resources', 'skills'),
      bundledManifest: join('/opt/Skilltray/resources/app.asar', 'dist', 'bundled-manifest.json'),
      trayIcon: join('/opt/Skilltray/resources', 'tray', 'tray.png'),
      appIcon: join('/opt/Skilltray/resources', 'tray', 'icon.png'),
      nativeBinding: undefined,
      netRelay: join('/opt/Skilltray/resources', 'net-relay'),
      enterCgroup: join('/opt/Skilltray/resources', 'enter-cgroup'),
      cliScript: join('/opt/Skilltray/resources/app.asar', 'bin', 'skilltray.js'),
    });
  });

  it('uses the macOS template glyph on macOS, and no binding when the variable is empty', () => {
    expect(appPaths({ ...at, isPackaged: false, platform: 'darwin', env: { SKILLTRAY_NATIVE_BINDING: '' } })).toMatchObject({
      trayIcon: join('/checkout', 'build', 'tray', 'trayTemplate.png'),
      nativeBinding: undefined,
    });
  });
});
