/**
 * Keyboard shortcuts for answering an approval, built so they cannot fire by accident: they need
 * the platform modifier (Ctrl, or ⌘ on macOS), act only on the focused request, ignore held-down
 * repeats, and do nothing until the request has been on screen (and its window focused) for a moment.
 */
import type { VerdictKind } from '../../src-main/shared/runs.js';

/** How long a request must have been visible in a focused window before keys or clicks answer it. */
export const ARM_DELAY_MS = 600;

/** The parts of a KeyboardEvent the shortcuts read. */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  repeat: boolean;
}

/** The verdict a key press asks for, or null: Mod+Enter once, Mod+Shift+Enter always, Mod+Backspace deny. */
export function verdictForKey(press: KeyPress, mac: boolean): VerdictKind | null {
  const modifier = mac ? press.metaKey && !press.ctrlKey : press.ctrlKey && !press.metaKey;
  if (!modifier || press.altKey || press.repeat) return null;
  if (press.key === 'Enter') return press.shiftKey ? 'always' : 'once';
  if (press.key === 'Backspace' && !press.shiftKey) return 'deny';
  return null;
}

/** The shortcut as the platform writes it, e.g. `Ctrl+Shift+Enter` or `⌘⇧↩`. */
export function shortcutLabel(verdict: VerdictKind, mac: boolean): string {
  const mod = mac ? '⌘' : 'Ctrl+';
  const shift = mac ? '⇧' : 'Shift+';
  const enter = mac ? '↩' : 'Enter';
  const backspace = mac ? '⌫' : 'Backspace';
  if (verdict === 'once') return `${mod}${enter}`;
  if (verdict === 'always') return `${mod}${shift}${enter}`;
  return `${mod}${backspace}`;
}

/** The `aria-keyshortcuts` value of a verdict's button. */
export function ariaShortcut(verdict: VerdictKind, mac: boolean): string {
  const mod = mac ? 'Meta' : 'Control';
  if (verdict === 'once') return `${mod}+Enter`;
  if (verdict === 'always') return `${mod}+Shift+Enter`;
  return `${mod}+Backspace`;
}

/** True once `since` (when the request appeared, or its window last gained focus) is far enough behind `now`. */
export function isArmed(since: number, now: number): boolean {
  return now - since >= ARM_DELAY_MS;
}
