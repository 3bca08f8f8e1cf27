/** The person's settings: the context mode and whether runs are paused. */
import type { Mode } from '../../shared/model.js';
import { parseMode } from '../policy/modes.js';
import type { StateDb } from './state-db.js';
import { prepared } from './state-db.js';
import type { Settings } from '../../shared/runs.js';

/** Both settings at once (defaults if the row was ever deleted by hand; setters recreate it). */
export function getSettings(db: StateDb): Settings {
  const row = prepared<[], { mode: Mode; paused: number }>(db, 'SELECT mode, paused FROM settings WHERE id = 1').get();
  return { mode: row?.mode ?? 'Global', paused: row?.paused === 1 };
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
