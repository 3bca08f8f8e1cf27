import { describe, expect, it } from 'vitest';
import { ARM_DELAY_MS, ariaShortcut, isArmed, shortcutLabel, verdictForKey, type KeyPress } from '../../../src-renderer/approvals/approval-keys.js';

const press = (key: string, mods: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  repeat: false,
  ...mods,
});

describe('approval shortcuts', () => {
  it('Ctrl+Enter, Ctrl+Shift+Enter and Ctrl+Backspace off macOS', () => {
    expect(verdictForKey(press('Enter', { ctrlKey: true }), false)).toBe('once');
    expect(verdictForKey(press('Enter', { ctrlKey: true, shiftKey: true }), false)).toBe('always');
    expect(verdictForKey(press('Backspace', { ctrlKey: true }), false)).toBe('deny');
  });

  it('⌘ instead of Ctrl on macOS, and not the other way round', () => {
    expect(verdictForKey(press('Enter', { metaKey: true }), true)).toBe('once');
    expect(verdictForKey(press('Enter', { ctrlKey: true }), true)).toBeNull();
    expect(verdictForKey(press('Enter', { metaKey: true }), false)).toBeNull();
  });

  it('never fires without the modifier, with extra modifiers, or on a held-down repeat', () => {
    expect(verdictForKey(press('Enter'), false)).toBeNull();
    expect(verdictForKey(press('Backspace'), false)).toBeNull();
    expect(verdictForKey(press('Enter', { ctrlKey: true, altKey: true }), false)).toBeNull();
    expect(verdictForKey(press('Enter', { ctrlKey: true, metaKey: true }), false)).toBeNull();
    expect(verdictForKey(press('Backspace', { ctrlKey: true, shiftKey: true }), false)).toBeNull();
    expect(verdictForKey(press('Enter', { ctrlKey: true, repeat: true }), false)).toBeNull();
    expect(verdictForKey(press('a', { ctrlKey: true }), false)).toBeNull();
  });

  it('arms only after the delay', () => {
    expect(isArmed(1000, 1000)).toBe(false);
    expect(isArmed(1000, 1000 + ARM_DELAY_MS - 1)).toBe(false);
    expect(isArmed(1000, 1000 + ARM_DELAY_MS)).toBe(true);
  });

  it('labels the shortcuts for people and for assistive technology', () => {
    expect(shortcutLabel('always', false)).toBe('Ctrl+Shift+Enter');
    expect(shortcutLabel('deny', true)).toBe('⌘⌫');
    expect(ariaShortcut('once', false)).toBe('Control+Enter');
    expect(ariaShortcut('always', true)).toBe('Meta+Shift+Enter');
  });
});
