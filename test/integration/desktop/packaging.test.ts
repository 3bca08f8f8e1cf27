import { createRequire } from 'node:module';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const require = createRequire(import.meta.url);

describe('packaging configuration (electron.config.ts)', () => {
  it('loads and passes electron-builder’s own schema validation', async () => {
    const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config.js');
    const { DebugLogger } = require('builder-util');
    const config = await getConfig(ROOT, join(ROOT, 'electron.config.ts'), null);
    await validateConfiguration(config, new DebugLogger(false));
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.win.target).toEqual(['nsis']);
    expect(config.extraResources).toEqual(expect.arrayContaining([expect.objectContaining({ from: 'skills', to: 'skills' })]));
    // The manifest that makes them bundled ships inside app.asar, where the asar integrity fuse covers it (paths.ts reads it there).
    expect(config.files).toEqual([expect.objectContaining({ filter: expect.arrayContaining(['dist/bundled-manifest.json']) })]);
    expect(config.npmRebuild).toBe(true);
    expect(config.asar).not.toBe(false);
    // The bridge a connected assistant starts is the packaged executable run as Node (docs/connect.md).
    // The bin is CommonJS by bin/package.json, and so are the chunks (.cjs); the helper threads' script beside them is an ES module (.js).
    expect(config.files[0].filter).toEqual(expect.arrayContaining(['bin/skilltray.js', 'bin/package.json', 'dist/cli/**/*.cjs', 'dist/cli/**/*.js']));
    expect(config.electronFuses).toEqual({
      runAsNode: true,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('refuses a fuse electron-builder does not know, so the check above is a real schema check', async () => {
    const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config.js');
    const { DebugLogger } = require('builder-util');
    const config = await getConfig(ROOT, join(ROOT, 'electron.config.ts'), null);
    config.electronFuses = { ...config.electronFuses, runAsNod: false };
    await expect(validateConfiguration(config, new DebugLogger(false))).rejects.toThrow(/electronFuses/);
  });
});

const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
const tooOld = major < 22 || (major === 22 && minor < 12);

describe('npm start on a Node.js too old for Electron 45', () => {
  it.runIf(tooOld)('says exactly what to do, and builds or downloads nothing', async () => {
    const result = await execa(process.execPath, [join(ROOT, 'scripts', 'start-electron.js')], { reject: false, cwd: ROOT });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`whose download tooling needs Node.js 22.12 or later;\n  this is Node.js ${process.versions.node}.`);
    expect(result.stderr).toContain('Install Node.js 22 LTS or later');
    expect(result.stderr).toContain('browser mode (npm run web) work without Electron');
    // npx resolves the package on every call (the README says to avoid it): the way in is the linked command.
    expect(result.stderr).toContain('the command line (skilltray …, put on your PATH once with npm link --ignore-scripts;');
    expect(result.stderr).not.toContain('npx');
  });
});
