/** The person's settings: the context mode, whether runs are paused, the palette's global shortcut, and how long run output is kept. */
import type { Mode } from '../../shared/model.js';
import { parseMode } from '../policy/modes.js';
import { skillcErrors } from '../errors.js';
import type { StateDb } from './state-db.js';
import { prepared } from './state-db.js';
import type { Retention, Settings } from '../../shared/runs.js';
import { DEFAULT_PALETTE_SHORTCUT, normaliseShortcut, parseShortcut } from '../../shared/shortcut.js';
import { SkilltrayError } from '../errors.js';

/** Output retention when nobody chose otherwise: a month, and 100 MiB of output in all. */
export const DEFAULT_RETENTION: Retention = { outputDays: 30, outputMaxMb: 100 };

/** The bounds each retention setting takes (the CHECKs in state.db say the same). */
export const RETENTION_LIMITS: { [K in keyof Retention]: { min: number; max: number } } = {
  outputDays: { min: 1, max: 3650 },
  outputMaxMb: { min: 1, max: 102_400 },
};

interface SettingsRow {
  mode: Mode;
  paused: number;
  palette_shortcut: string;
  output_days: number;
  output_max_mb: number;
}

/** Every setting at once (defaults if the row was ever deleted by hand; setters recreate it). */
export function getSettings(db: StateDb): Settings {
  const row = prepared<[], SettingsRow>(db, 'SELECT mode, paused, palette_shortcut, output_days, output_max_mb FROM settings WHERE id = 1').get();
  return {
    mode: row?.mode ?? 'Global',
    paused: row?.paused === 1,
    paletteShortcut: row?.palette_shortcut ?? DEFAULT_PALETTE_SHORTCUT,
    retention: row === undefined ? { ...DEFAULT_RETENTION } : { outputDays: row.output_days, outputMaxMb: row.output_max_mb },
  };
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

/** Changes the retention settings given (E100 for a value out of range) and returns them all. */
export function setRetention(db: StateDb, change: Partial<Retention>): Retention {
  for (const [key, value] of Object.entries(change) as [keyof Retention, number | undefined][]) {
    if (value === undefined) continue;
    const { min, max } = RETENTION_LIMITS[key];
    if (!Number.isInteger(value) || value < min || value > max) {
      throw skillcErrors.invalidOption(`${key} must be a whole number from ${min} to ${max}, got ${value}`);
    }
  }
  const next = { ...getSettings(db).retention, ...Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)) };
  prepared(
    db,
    `INSERT INTO settings (id, output_days, output_max_mb) VALUES (1, @outputDays, @outputMaxMb)
     ON CONFLICT (id) DO UPDATE SET output_days = excluded.output_days, output_max_mb = excluded.output_max_mb`,
  ).run(next);
  return next;
}
