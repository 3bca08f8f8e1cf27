import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { setupShortcuts, type ShortcutRegistry } from '../../../src-main/electron/shortcuts.js';
import type { ServerEvent } from '../../../src-main/shared/contract.js';
import type { Settings } from '../../../src-main/shared/runs.js';

/** globalShortcut as the OS sees it: what is held, by whom; `taken` is held by another app. */
function registry(taken: string[] = []) {
  const held = new Map<string, () => void>();
  const api: ShortcutRegistry = {
    register: (accelerator, callback) => {
      if (accelerator.includes('Bogus')) throw new Error(`Error processing argument: ${accelerator}`);
      if (taken.includes(accelerator) || held.has(accelerator)) return false;
      held.set(accelerator, callback);
      return true;
    },
    unregister: (accelerator) => void held.delete(accelerator),
  };
  return { api, held, press: (accelerator: string) => held.get(accelerator)?.() };
}

function setup(initial: string, taken: string[] = []) {
  const core = new EventEmitter<{ event: [ServerEvent] }>();
  let settings: Settings = {
    mode: 'Global',
    paused: false,
    paletteShortcut: initial,
    retention: { outputDays: 30, outputMaxMb: 100 },
    limitCeiling: { processes: 1024, memoryMiB: 8192, fileSizeMiB: 16384, cpuSeconds: 600 },
  };
  const os = registry(taken);
  const opened: string[] = [];
  const unavailable: string[] = [];
  const shortcuts = setupShortcuts({
    globalShortcut: os.api,
    core: Object.assign(core, { preferences: { settings: () => settings } }),
    openPalette: () => opened.push('palette'),
    onUnavailable: (key, why) => unavailable.push(`${key}: ${why}`),
  });
  const change = (paletteShortcut: string): void => {
    settings = { ...settings, paletteShortcut };
    core.emit('event', { type: 'settings', settings });
  };
  return { os, opened, unavailable, shortcuts, change };
}

describe('the palette global shortcut', () => {
  it('is registered from the setting, and pressing it opens the palette', () => {
    const { os, opened, shortcuts } = setup('CommandOrControl+Shift+Space');
    expect([...os.held.keys()]).toEqual(['CommandOrControl+Shift+Space']);
    expect(shortcuts.current()).toBe('CommandOrControl+Shift+Space');
    os.press('CommandOrControl+Shift+Space');
    expect(opened).toEqual(['palette']);
  });

  it('moves when the setting changes, lets go when it is cleared, and on dispose', () => {
    const { os, shortcuts, change } = setup('CommandOrControl+Shift+Space');
    change('Alt+K');
    expect([...os.held.keys()]).toEqual(['Alt+K']);
    change('');
    expect(os.held.size).toBe(0);
    expect(shortcuts.current()).toBe('');
    change('Alt+J');
    shortcuts.dispose();
    expect(os.held.size).toBe(0);
  });

  it('says so when another app holds it or the platform refuses it, and holds nothing', () => {
    const { os, unavailable, shortcuts, change } = setup('Alt+Space', ['Alt+Space']);
    expect(os.held.size).toBe(0);
    expect(shortcuts.current()).toBe('');
    change('Control+Bogus');
    expect(unavailable).toEqual(['Alt+Space: another application already uses it', 'Control+Bogus: Error processing argument: Control+Bogus']);
    change('Alt+K');
    expect([...os.held.keys()]).toEqual(['Alt+K']);
  });

  it('ignores events that are not settings and settings that keep the same shortcut', () => {
    const { os, change } = setup('Alt+K');
    const unregisterCalls: string[] = [];
    const unregister = os.api.unregister;
    os.api.unregister = (key) => {
      unregisterCalls.push(key);
      unregister(key);
    };
    change('Alt+K');
    expect(unregisterCalls).toEqual([]);
    expect([...os.held.keys()]).toEqual(['Alt+K']);
  });
});
