/**
 * The command palette's global shortcut: registered with Electron's globalShortcut from the
 * setting, and moved whenever the setting changes. Electron-free (globalShortcut is injected) so it
 * is tested as it is.
 */
import type { ServerEvent } from '../shared/contract.js';
import type { Settings } from '../shared/runs.js';

/** The part of Electron's globalShortcut this uses. */
export interface ShortcutRegistry {
  register(accelerator: string, callback: () => void): boolean;
  unregister(accelerator: string): void;
}

export interface ShortcutDeps {
  globalShortcut: ShortcutRegistry;
  core: { preferences: { settings(): Settings }; on(event: 'event', listener: (event: ServerEvent) => void): unknown };
  /** Brings the palette forward. */
  openPalette(): void;
  /** Told when a shortcut could not be registered (another app holds it, or the platform refuses it). */
  onUnavailable(shortcut: string, reason: string): void;
}

/** Registers the palette shortcut and follows the setting; returns what is registered now ('' for nothing) and a way to let go. */
export function setupShortcuts(deps: ShortcutDeps): { current(): string; dispose(): void } {
  let registered = '';
  const apply = (wanted: string): void => {
    if (wanted === registered) return;
    if (registered !== '') deps.globalShortcut.unregister(registered);
    registered = '';
    if (wanted === '') return;
    let ok: boolean;
    try {
      ok = deps.globalShortcut.register(wanted, () => deps.openPalette());
    } catch (error) {
      deps.onUnavailable(wanted, error instanceof Error ? error.message : String(error));
      return;
    }
    if (ok) registered = wanted;
    else deps.onUnavailable(wanted, 'another application already uses it');
  };
  apply(deps.core.preferences.settings().paletteShortcut);
  deps.core.on('event', (event) => {
    if (event.type === 'settings') apply(event.settings.paletteShortcut);
  });
  return { current: () => registered, dispose: () => apply('') };
}
