import { describe, expect, it } from 'vitest';
import { formatShortcut, normaliseShortcut, parseShortcut, shortcutFromKeys, type KeyPress } from '../../../src-main/shared/shortcut.js';

const press = (key: string, code: string, mods: Partial<Omit<KeyPress, 'key' | 'code'>> = {}): KeyPress => ({
  key,
  code,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...mods,
});

describe('palette shortcuts as Electron accelerators', () => {
  it('normalises spellings and the order of modifiers', () => {
    expect(normaliseShortcut('shift+cmdorctrl+space')).toBe('CommandOrControl+Shift+Space');
    expect(normaliseShortcut('Option+Ctrl+k')).toBe('Control+Alt+K');
    expect(normaliseShortcut('Super+F12')).toBe('Super+F12');
    expect(normaliseShortcut('Alt+Plus')).toBe('Alt+Plus');
    expect(normaliseShortcut('Ctrl+Enter')).toBe('Control+Return');
  });

  it('says why a text is not a usable global shortcut', () => {
    expect(parseShortcut('K')).toEqual({ error: expect.stringMatching(/needs Ctrl, Cmd, Alt or Super/) });
    expect(parseShortcut('Shift+K')).toEqual({ error: expect.stringMatching(/needs Ctrl, Cmd, Alt or Super/) });
    expect(parseShortcut('Hyper+K')).toEqual({ error: expect.stringMatching(/'Hyper' is not a modifier/) });
    expect(parseShortcut('Ctrl+F25')).toEqual({ error: expect.stringMatching(/'F25' is not a key/) });
    expect(parseShortcut('Ctrl++')).toEqual({ error: expect.stringMatching(/joined by \+/) });
  });

  it('records a key press the way the platform means it: Cmd on macOS and Ctrl elsewhere are CommandOrControl', () => {
    expect(shortcutFromKeys(press('K', 'KeyK', { ctrlKey: true, shiftKey: true }), false)).toBe('CommandOrControl+Shift+K');
    expect(shortcutFromKeys(press('k', 'KeyK', { metaKey: true }), true)).toBe('CommandOrControl+K');
    expect(shortcutFromKeys(press('k', 'KeyK', { ctrlKey: true }), true)).toBe('Control+K');
    // Shift+2 types '@' but is the 2 key; a space is Space.
    expect(shortcutFromKeys(press('@', 'Digit2', { altKey: true, shiftKey: true }), false)).toBe('Alt+Shift+2');
    expect(shortcutFromKeys(press(' ', 'Space', { ctrlKey: true }), false)).toBe('CommandOrControl+Space');
    // A modifier alone, or no modifier, is not a shortcut yet.
    expect(shortcutFromKeys(press('Control', 'ControlLeft', { ctrlKey: true }), false)).toBeNull();
    expect(shortcutFromKeys(press('k', 'KeyK'), false)).toBeNull();
  });

  it('reads as the platform writes shortcuts', () => {
    expect(formatShortcut('CommandOrControl+Shift+Space', true)).toBe('⌘⇧Space');
    expect(formatShortcut('CommandOrControl+Shift+Space', false)).toBe('Ctrl+Shift+Space');
    expect(formatShortcut('Alt+Return', false)).toBe('Alt+Enter');
  });
});
