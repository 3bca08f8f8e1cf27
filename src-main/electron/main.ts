/**
 * The tray app's composition root: Electron's objects handed to each `setupX` piece (each testable
 * with stand-ins), over a core that owns runs and approvals. Resolve paths, open the core, serve the
 * UI over app://, start the loopback HTTP API for assistants and the CLI/MCP, then wire hardening,
 * windows, quitting, IPC and the tray. Everything real lives in src-main/core.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { app, BrowserWindow, dialog, globalShortcut, ipcMain, Menu, nativeImage, Notification, protocol, session, shell, Tray } from 'electron';
import { SkilltrayCore } from '../core/api.js';
import { callerOf } from '../core/authority.js';
import { resolveConfig, userHome } from '../core/config.js';
import { IPC_READY_CHANNEL } from '../shared/contract.js';
import { toSkilltrayError } from '../shared/skilltray-error.js';
import { startHttpServer } from '../server/http.js';
import { onShutdownSignal } from '../server/shutdown-signals.js';
import { registerAppScheme, serveApp } from './app-protocol.js';
import { setupHardening } from './hardening.js';
import { setupIpc } from './ipc.js';
import { appPaths } from './paths.js';
import { setupQuit } from './quit.js';
import { setupShortcuts } from './shortcuts.js';
import { setupTray } from './tray.js';
import { setupVoiceHotkeys } from './voice-hotkeys.js';
import { followCore, Windows } from './windows.js';

const log = (line: string): void => console.warn(`skilltray: ${line}`);

async function start(): Promise<void> {
  const paths = appPaths({
    appPath: app.getAppPath(),
    isPackaged: app.isPackaged,
    resourcesPath: process.resourcesPath,
    platform: process.platform,
    env: process.env,
  });
  const config = resolveConfig({
    env: process.env,
    bundledDir: paths.bundledDir,
    bundledManifest: paths.bundledManifest,
    netRelay: paths.netRelay,
    enterCgroup: paths.enterCgroup,
    // What a connected assistant starts: this very executable as Node in a package; in a checkout, Node with bin/skilltray.js.
    installation: { runtime: process.execPath, script: paths.cliScript, packaged: app.isPackaged },
    ...(paths.nativeBinding ? { nativeBinding: paths.nativeBinding } : {}),
  });
  const core = new SkilltrayCore(config, { autoBuild: true });
  const version = app.getVersion();
  const server = await startHttpServer({ core, owner: 'app', version, port: 0 });

  serveApp(protocol, paths.webDir);
  setupHardening({ app, session: session.defaultSession, openExternal: (url) => shell.openExternal(url), log, voiceOn: () => core.voice.settings().enabled });
  const windows = new Windows({
    create: (options) => new BrowserWindow(options),
    settings: { preload: paths.preload, icon: nativeImage.createFromPath(paths.appIcon), devTools: !app.isPackaged },
    log,
  });
  followCore(core, windows);
  ipcMain.on(IPC_READY_CHANNEL, (event) => windows.pageReady(event.sender));
  // The app's log: a recovered state.db is said here as well as in the window.
  core.on('event', (event) => {
    if (event.type === 'notice') log(`${event.notice.code === 'E902' ? 'warning' : 'notice'}[${event.notice.code}]: ${event.notice.message}`);
  });
  const quit = setupQuit({ app, server, core, log });
  // A closed terminal (SIGHUP), kill (SIGTERM) or Ctrl-C quits the same way: no tool outlives the app.
  onShutdownSignal(quit);
  const skillsFolder = join(config.home, 'skills');
  const openSkillsFolder = async (): Promise<void> => {
    mkdirSync(skillsFolder, { recursive: true });
    const failure = await shell.openPath(skillsFolder);
    if (failure) throw new Error(failure);
  };

  setupIpc({
    ipcMain,
    core,
    context: {
      surface: 'ui',
      // The app's own window (ipc-handlers.ts answers only its own page): the person's surface.
      caller: callerOf(config.home, { kind: 'window' }, 'ui'),
      cwd: userHome(config.env),
      approval: { kind: 'broker' },
      owner: 'app',
      version,
    },
    desktop: { openWindow: (route) => void windows.show(route), openSkillsFolder, quit },
    log,
  });
  setupTray({
    core,
    tray: new Tray(nativeImage.createFromPath(paths.trayIcon)),
    buildMenu: (template) => Menu.buildFromTemplate(template),
    actions: {
      open: (route) => void windows.show(route),
      openSkillsFolder: () => openSkillsFolder().catch((error: unknown) => dialog.showErrorBox('Skilltray could not open the skills folder', String(error))),
      quit,
    },
  });
  setupShortcuts({
    globalShortcut,
    core,
    openPalette: () => void windows.show('palette'),
    onUnavailable: (key, why) => log(`the palette shortcut ${key} is not available: ${why}`),
  });
  setupVoiceHotkeys({
    globalShortcut,
    core,
    tell: (text) => {
      if (Notification.isSupported()) new Notification({ title: 'Skilltray', body: text, silent: true }).show();
      else log(text);
    },
    onUnavailable: (key, why) => log(`the approval hotkey ${key} is not available: ${why}`),
  });
  app.on('second-instance', () => windows.show('skills'));
  await core.startWatching();
  windows.show('skills');
}

registerAppScheme(protocol);
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      dialog.showErrorBox('Skilltray could not start', toSkilltrayError(error).format());
      app.exit(1);
    });
}
