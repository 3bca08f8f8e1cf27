/**
 * The tray icon and its menu: pending approvals (count), the skill browser, the mode, pause all
 * runs, the skills folder, quit. It mirrors the tray window and follows the core's events.
 */
import { Menu, Tray, type MenuItemConstructorOptions, type NativeImage } from 'electron';
import type { SkilltrayCore } from '../core/api.js';
import type { WindowRoute } from '../shared/contract.js';
import { MODES } from '../shared/model.js';

export interface TrayActions {
  open(route: WindowRoute): void;
  openSkillsFolder(): void;
  quit(): void;
}

/** Creates the tray; it rebuilds its menu whenever approvals or settings change. */
export function setupTray(core: SkilltrayCore, icon: NativeImage, actions: TrayActions): Tray {
  const tray = new Tray(icon);
  const refresh = (): void => {
    const pending = core.pendingApprovals().length;
    const settings = core.settings();
    const template: MenuItemConstructorOptions[] = [
      { label: pending === 0 ? 'No pending approvals' : `Pending approvals (${pending})…`, enabled: pending > 0, click: () => actions.open('approvals') },
      { label: 'Command palette…', accelerator: settings.paletteShortcut || undefined, registerAccelerator: false, click: () => actions.open('palette') },
      { label: 'Open skill browser…', click: () => actions.open('skills') },
      { label: 'History…', click: () => actions.open('history') },
      { type: 'separator' },
      {
        label: `Mode: ${settings.mode}`,
        submenu: MODES.map((mode) => ({ label: mode, type: 'radio', checked: settings.mode === mode, click: () => core.setMode(mode) })),
      },
      { label: 'Pause all runs', type: 'checkbox', checked: settings.paused, click: (item) => core.setPaused(item.checked) },
      { type: 'separator' },
      { label: 'Open skills folder', click: () => actions.openSkillsFolder() },
      { label: 'Settings…', click: () => actions.open('settings') },
      { type: 'separator' },
      { label: 'Quit Skilltray', click: () => actions.quit() },
    ];
    tray.setContextMenu(Menu.buildFromTemplate(template));
    tray.setToolTip(pending === 0 ? `Skilltray — ${settings.mode}${settings.paused ? ', paused' : ''}` : `Skilltray — ${pending} waiting for you`);
  };
  core.on('event', (event) => {
    if (event.type === 'approval.added' || event.type === 'approval.resolved' || event.type === 'settings') refresh();
  });
  tray.on('click', () => actions.open('tray'));
  refresh();
  return tray;
}
