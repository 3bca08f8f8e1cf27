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

/** One global shortcut that follows a setting: `apply(wanted)` moves it there ('' lets go); `current()` is what is registered. */
export function shortcutSlot(
  registry: ShortcutRegistry,
  onPress: () => void,
  onUnavailable: (shortcut: string, reason: string) => void,
): { apply(wanted: string): void; current(): string } {
  let registered = '';
  const apply = (wanted: string): void => {
    if (wanted === registered) return;
    if (registered !== '') registry.unregister(registered);
    registered = '';
    if (wanted === '') return;
    let ok: boolean;
    try {
      ok = registry.register(wanted, onPress);
    } catch (error) {
      onUnavailable(wanted, error instanceof Error ? error.message : String(error));
      return;
    }
    if (ok) registered = wanted;
    else onUnavailable(wanted, 'another application already uses it');
  };
  return { apply, current: () => registered };
}

/** Registers the palette shortcut and follows the setting; returns what is registered now ('' for nothing) and a way to let go. */
export function setupShortcuts(deps: ShortcutDeps): { current(): string; dispose(): void } {
  const slot = shortcutSlot(deps.globalShortcut, () => deps.openPalette(), deps.onUnavailable);
  slot.apply(deps.core.preferences.settings().paletteShortcut);
  deps.core.on('event', (event) => {
    if (event.type === 'settings') slot.apply(event.settings.paletteShortcut);
  });
  return { current: slot.current, dispose: () => slot.apply('') };
}
