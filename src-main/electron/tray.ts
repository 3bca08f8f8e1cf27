/**
 * The tray icon and its menu: pending approvals (count), the skill browser, the mode, pause all
 * runs, the skills folder, quit. It mirrors the tray window and follows the core's events. The Tray
 * and Menu.buildFromTemplate are passed in, so a test drives this with stand-ins.
 */
import { codeShown } from '../shared/voice.js';
import type { MenuItemConstructorOptions } from 'electron';
import type { SkilltrayCore } from '../core/api.js';
import type { WindowRoute } from '../shared/contract.js';
import { MODES } from '../shared/model.js';

export interface TrayActions {
  open(route: WindowRoute): void;
  openSkillsFolder(): void;
  quit(): void;
}

/** The part of Electron's Tray the menu uses. */
export interface TrayIcon<M> {
  setContextMenu(menu: M): void;
  setToolTip(text: string): void;
  on(event: 'click', listener: () => void): unknown;
}

export interface TrayDeps<M> {
  core: Pick<SkilltrayCore, 'on' | 'broker' | 'preferences'>;
  tray: TrayIcon<M>;
  /** `Menu.buildFromTemplate`. */
  buildMenu(template: MenuItemConstructorOptions[]): M;
  actions: TrayActions;
}

/** The menu for the core's current approvals and settings. */
export function trayMenu(core: TrayDeps<unknown>['core'], actions: TrayActions): { template: MenuItemConstructorOptions[]; tooltip: string } {
  const entries = core.broker.list();
  const pending = entries.length;
  const settings = core.preferences.settings();
  const template: MenuItemConstructorOptions[] = [
    { label: pending === 0 ? 'No pending approvals' : `Pending approvals (${pending})…`, enabled: pending > 0, click: () => actions.open('approvals') },
    // Each waiting request with the code the person says back to answer it aloud (docs/voice.md).
    ...entries
      .slice(-3)
      .map((e): MenuItemConstructorOptions => ({ label: `   ${e.skill}/${e.tool} — code ${codeShown(e.code ?? '')}`, click: () => actions.open('approvals') })),
    { label: 'Command palette…', accelerator: settings.paletteShortcut || undefined, registerAccelerator: false, click: () => actions.open('palette') },
    { label: 'Open skill browser…', click: () => actions.open('skills') },
    { label: 'History…', click: () => actions.open('history') },
    { type: 'separator' },
    {
      label: `Mode: ${settings.mode}`,
      submenu: MODES.map((mode) => ({ label: mode, type: 'radio', checked: settings.mode === mode, click: () => core.preferences.setMode(mode) })),
    },
    { label: 'Pause all runs', type: 'checkbox', checked: settings.paused, click: (item) => core.preferences.setPaused(item.checked) },
    { type: 'separator' },
    { label: 'Open skills folder', click: () => actions.openSkillsFolder() },
    { label: 'Settings…', click: () => actions.open('settings') },
    { type: 'separator' },
    { label: 'Quit Skilltray', click: () => actions.quit() },
  ];
  const tooltip = pending === 0 ? `Skilltray — ${settings.mode}${settings.paused ? ', paused' : ''}` : `Skilltray — ${pending} waiting for you`;
  return { template, tooltip };
}

/** Sets the tray's menu, and rebuilds it whenever approvals or settings change. */
export function setupTray<M>(deps: TrayDeps<M>): void {
  const refresh = (): void => {
    const { template, tooltip } = trayMenu(deps.core, deps.actions);
    deps.tray.setContextMenu(deps.buildMenu(template));
    deps.tray.setToolTip(tooltip);
  };
  deps.core.on('event', (event) => {
    if (event.type === 'approval.added' || event.type === 'approval.resolved' || event.type === 'settings') refresh();
  });
  deps.tray.on('click', () => deps.actions.open('tray'));
  refresh();
}
