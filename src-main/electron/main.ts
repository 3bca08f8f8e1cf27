/**
 * The tray app's composition root: resolve paths, open the core (which owns runs and approvals),
 * serve the UI over the app:// scheme, start the loopback HTTP API for assistants and the CLI/MCP,
 * and wire IPC, windows and the tray. Everything real lives in src-main/core.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { app, dialog, globalShortcut, nativeImage, shell } from 'electron';
import { SkilltrayCore } from '../core/api.js';
import { resolveConfig } from '../core/config.js';
import { defaultGatewayCwd } from '../core/gateway/service.js';
import { toSkilltrayError } from '../core/errors.js';
import { startHttpServer } from '../server/http.js';
import { IPC_EVENT_CHANNEL } from '../shared/contract.js';
import { registerAppScheme, serveApp } from './app-protocol.js';
import { setupIpc } from './ipc.js';
import { setupShortcuts } from './shortcuts.js';
import { setupTray } from './tray.js';
import { Windows, hardenWebContents } from './windows.js';

/** Where the app's files are, in a checkout (`npm start`) and in a package. */
function appPaths() {
  const root = app.getAppPath();
  return {
    bundledDir: app.isPackaged ? join(process.resourcesPath, 'skills') : join(root, 'skills'),
    webDir: join(root, 'dist', 'web'),
    preload: join(root, 'dist', 'preload', 'preload.cjs'),
    // macOS tints a black template image for the menu bar; other platforms get the light glyph.
    trayIcon: join(app.isPackaged ? join(process.resourcesPath, 'tray') : join(root, 'build', 'tray'), process.platform === 'darwin' ? 'trayTemplate.png' : 'tray.png'),
    appIcon: app.isPackaged ? join(process.resourcesPath, 'tray', 'icon.png') : join(root, 'build', 'icon.png'),
    // `npm start` builds better-sqlite3 for Electron's ABI and says where; a package carries it rebuilt in place.
    nativeBinding: process.env.SKILLTRAY_NATIVE_BINDING || undefined,
  };
}

async function start(): Promise<void> {
  const paths = appPaths();
  const config = resolveConfig({ env: process.env, bundledDir: paths.bundledDir, ...(paths.nativeBinding ? { nativeBinding: paths.nativeBinding } : {}) });
  const core = new SkilltrayCore(config, { autoBuild: true });
  const version = app.getVersion();
  const server = await startHttpServer({ core, owner: 'app', version, port: 0 });

  serveApp(paths.webDir);
  hardenWebContents();
  const windows = new Windows({ preload: paths.preload, icon: nativeImage.createFromPath(paths.appIcon), devTools: !app.isPackaged });
  const skillsFolder = join(config.home, 'skills');
  const openSkillsFolder = async (): Promise<void> => {
    mkdirSync(skillsFolder, { recursive: true });
    const failure = await shell.openPath(skillsFolder);
    if (failure) throw new Error(failure);
  };

  let quitting = false;
  const quit = (): void => {
    if (quitting) return;
    quitting = true;
    // The server first (no new requests), then the core: it cancels live runs (their process trees
    // die) and withdraws pending approvals.
    void server
      .close()
      .catch((error: unknown) => console.error('closing the HTTP API failed:', error))
      .then(() => core.close())
      .catch((error: unknown) => console.error('closing the core failed:', error))
      .then(() => app.exit(0));
  };

  setupIpc({
    core,
    context: { surface: 'ui', cwd: defaultGatewayCwd(config.env), approval: { kind: 'broker' }, owner: 'app', version },
    desktop: { openWindow: (route) => void windows.show(route), openSkillsFolder, quit },
  });
  core.on('event', (event) => {
    windows.broadcast(IPC_EVENT_CHANNEL, event);
    if (event.type === 'approval.added') windows.surfaceApprovals();
    if (event.type === 'approval.resolved' && core.pendingApprovals().length === 0) windows.releaseApprovals();
  });
  setupTray(core, nativeImage.createFromPath(paths.trayIcon), {
    open: (route) => void windows.show(route),
    openSkillsFolder: () => openSkillsFolder().catch((error: unknown) => dialog.showErrorBox('Skilltray could not open the skills folder', String(error))),
    quit,
  });

  setupShortcuts({ globalShortcut, core, openPalette: () => void windows.show('palette'), onUnavailable: (key, why) => console.warn(`the palette shortcut ${key} is not available: ${why}`) });
  app.on('second-instance', () => windows.show('skills'));
  // The tray keeps the app alive with every window closed.
  app.on('window-all-closed', () => undefined);
  app.on('before-quit', (event) => {
    if (quitting) return;
    event.preventDefault();
    quit();
  });
  await core.startWatching();
  windows.show('skills');
}

registerAppScheme();
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      const coded = toSkilltrayError(error);
      dialog.showErrorBox('Skilltray could not start', coded.format());
      app.exit(1);
    });
}
