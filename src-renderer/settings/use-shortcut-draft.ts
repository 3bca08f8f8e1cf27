/** A global shortcut recorded from key presses in a read-only field, for the settings that keep one (palette, voice hotkeys). */
import { useState, type KeyboardEvent } from 'react';
import { formatShortcut, shortcutFromKeys } from '../../src-main/shared/shortcut.js';

export interface ShortcutDraft {
  /** The shortcut pressed and not yet saved, or null. */
  draft: string | null;
  setDraft: (draft: string | null) => void;
  /** The field's onKeyDown: records the keys pressed, Escape drops the draft. */
  record: (event: KeyboardEvent<HTMLInputElement>) => void;
  /** What the field shows: the draft, else `saved`, as the platform writes it ('None' when off). */
  text: string;
}

export function useShortcutDraft(saved: string, mac: boolean): ShortcutDraft {
  const [draft, setDraft] = useState<string | null>(null);
  const record = (event: KeyboardEvent<HTMLInputElement>): void => {
    // Tab and Shift+Tab still move on; everything else is the shortcut being recorded.
    if (event.key === 'Tab' && !event.ctrlKey && !event.metaKey && !event.altKey) return;
    event.preventDefault();
    if (event.key === 'Escape') return setDraft(null);
    const shortcut = shortcutFromKeys(event, mac);
    if (shortcut !== null) setDraft(shortcut);
  };
  const shown = draft ?? saved;
  return { draft, setDraft, record, text: shown === '' ? 'None' : formatShortcut(shown, mac) };
}
