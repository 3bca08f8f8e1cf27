/**
 * The hotkeys that answer the newest pending request from any app (Settings › Voice): Deny, and Run,
 * which runs a writing tool only on a second press within two seconds (the core keeps that count).
 * Registered with Electron's globalShortcut like the palette's, and moved when the setting changes.
 */
import type { ServerEvent } from '../shared/contract.js';
import { toSkilltrayError } from '../shared/skilltray-error.js';
import type { HotkeyAnswer, VoiceSettings } from '../shared/voice.js';
import { shortcutSlot, type ShortcutRegistry } from './shortcuts.js';

export interface VoiceHotkeyDeps {
  globalShortcut: ShortcutRegistry;
  core: {
    voice: { settings(): VoiceSettings; hotkey(verdict: 'run' | 'deny', actor: string): HotkeyAnswer };
    on(event: 'event', listener: (event: ServerEvent) => void): unknown;
  };
  /** Tells the person what a press did, or that it asks for a second one. */
  tell(text: string): void;
  onUnavailable(shortcut: string, reason: string): void;
}

/** Registers the Run and Deny hotkeys and follows the voice settings; returns what is registered and a way to let go. */
export function setupVoiceHotkeys(deps: VoiceHotkeyDeps): { current(): { run: string; deny: string }; dispose(): void } {
  const press = (verdict: 'run' | 'deny') => (): void => {
    try {
      deps.tell(deps.core.voice.hotkey(verdict, 'tray (hotkey)').say);
    } catch (error) {
      deps.tell(toSkilltrayError(error).message);
    }
  };
  const run = shortcutSlot(deps.globalShortcut, press('run'), deps.onUnavailable);
  const deny = shortcutSlot(deps.globalShortcut, press('deny'), deps.onUnavailable);
  const apply = (settings: VoiceSettings): void => {
    run.apply(settings.runShortcut);
    deny.apply(settings.denyShortcut);
  };
  apply(deps.core.voice.settings());
  deps.core.on('event', (event) => {
    if (event.type === 'voice') apply(event.settings);
  });
  return {
    current: () => ({ run: run.current(), deny: deny.current() }),
    dispose: () => {
      run.apply('');
      deny.apply('');
    },
  };
}
