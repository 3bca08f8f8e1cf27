/** The person's settings: the context mode, whether runs are paused, and the palette's global shortcut. */
import type { Mode } from '../../shared/model.js';
import { parseMode } from '../policy/modes.js';
import type { StateDb } from './state-db.js';
import { prepared } from './state-db.js';
import type { Settings } from '../../shared/runs.js';
import { DEFAULT_PALETTE_SHORTCUT, normaliseShortcut, parseShortcut } from '../../shared/shortcut.js';
import { SkilltrayError } from '../errors.js';

/** Both settings at once (defaults if the row was ever deleted by hand; setters recreate it). */
export function getSettings(db: StateDb): Settings {
  const row = prepared<[], { mode: Mode; paused: number; palette_shortcut: string }>(db, 'SELECT mode, paused, palette_shortcut FROM settings WHERE id = 1').get();
  return { mode: row?.mode ?? 'Global', paused: row?.paused === 1, paletteShortcut: row?.palette_shortcut ?? DEFAULT_PALETTE_SHORTCUT };
}

/** Sets the context mode; accepts any casing, E610 for an unknown mode. Returns the canonical name. */
export function setMode(db: StateDb, mode: string): Mode {
  const canonical = parseMode(mode);
  prepared(db, 'INSERT INTO settings (id, mode) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET mode = excluded.mode').run(canonical);
  return canonical;
}

/** Pauses or resumes runs. */
export function setPaused(db: StateDb, paused: boolean): void {
  prepared(db, 'INSERT INTO settings (id, paused) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET paused = excluded.paused').run(paused ? 1 : 0);
}

/** Sets the palette's global shortcut ('' for none); E617 for what is not a usable accelerator. Returns it as stored. */
export function setPaletteShortcut(db: StateDb, shortcut: string): string {
  const stored = shortcut.trim() === '' ? '' : normaliseShortcut(shortcut);
  if (stored === null) {
    const parsed = parseShortcut(shortcut);
    throw new SkilltrayError('E617', 'error' in parsed ? parsed.error : `'${shortcut}' is not a shortcut`, { details: { shortcut } });
  }
  prepared(db, 'INSERT INTO settings (id, palette_shortcut) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET palette_shortcut = excluded.palette_shortcut').run(stored);
  return stored;
}
