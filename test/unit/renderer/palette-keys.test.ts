import { describe, expect, it } from 'vitest';
import { moveActive, opensPalette, submitsForm } from '../../../src-renderer/palette/palette-keys.js';

const press = (key: string, mods: { ctrlKey?: boolean; metaKey?: boolean; altKey?: boolean; shiftKey?: boolean } = {}) => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...mods,
});

describe('palette keys', () => {
  it('Ctrl+K (⌘K on macOS) opens the palette; other modifiers or keys do not', () => {
    expect(opensPalette(press('k', { ctrlKey: true }), false)).toBe(true);
    expect(opensPalette(press('K', { ctrlKey: true }), false)).toBe(true);
    expect(opensPalette(press('k', { metaKey: true }), true)).toBe(true);
    expect(opensPalette(press('k', { metaKey: true }), false)).toBe(false);
    expect(opensPalette(press('k', { ctrlKey: true }), true)).toBe(false);
    expect(opensPalette(press('k', { ctrlKey: true, shiftKey: true }), false)).toBe(false);
    expect(opensPalette(press('k', { ctrlKey: true, altKey: true }), false)).toBe(false);
    expect(opensPalette(press('j', { ctrlKey: true }), false)).toBe(false);
    expect(opensPalette(press('k'), false)).toBe(false);
  });

  it('Ctrl+Enter (⌘↩) runs the form from any field', () => {
    expect(submitsForm(press('Enter', { ctrlKey: true }), false)).toBe(true);
    expect(submitsForm(press('Enter', { metaKey: true }), true)).toBe(true);
    expect(submitsForm(press('Enter'), false)).toBe(false);
    expect(submitsForm(press('Enter', { ctrlKey: true, shiftKey: true }), false)).toBe(false);
  });

  it('arrows wrap around the list; Home and End jump; other keys do not move', () => {
    expect(moveActive('ArrowDown', 2, 3)).toBe(0);
    expect(moveActive('ArrowUp', 0, 3)).toBe(2);
    expect(moveActive('End', 0, 3)).toBe(2);
    expect(moveActive('Home', 2, 3)).toBe(0);
    expect(moveActive('a', 1, 3)).toBeNull();
    expect(moveActive('ArrowDown', 0, 0)).toBeNull();
  });
});
