/**
 * The person's settings: the context mode, whether runs are paused, the palette's global shortcut, how long run output is kept, and the ceiling on resource
 * limits.
 */
import type { Mode, ResourceLimits } from '../../shared/model.js';
import { RESOURCE_LIMIT_NAMES } from '../../shared/model.js';
import { DEFAULT_LIMIT_CEILING, LIMIT_MAX } from '../policy/resource-limits.js';
import { parseMode } from '../policy/modes.js';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import type { StateDb } from './state-db.js';
import { prepared } from './state-db.js';
import type { Retention, Settings } from '../../shared/runs.js';
import { DEFAULT_PALETTE_SHORTCUT, normaliseShortcut, parseShortcut } from '../../shared/shortcut.js';
import { policyErrors } from '../../shared/error-messages/policy.js';

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
  /** JSON of the four limits, or null for the default ceiling. */
  limit_ceiling: string | null;
}

/** Every setting at once (defaults if the row was ever deleted by hand; setters recreate it). */
export function getSettings(db: StateDb): Settings {
  const row = prepared<[], SettingsRow>(
    db,
    'SELECT mode, paused, palette_shortcut, output_days, output_max_mb, limit_ceiling FROM settings WHERE id = 1',
  ).get();
  return {
    mode: row?.mode ?? 'Global',
    paused: row?.paused === 1,
    paletteShortcut: row?.palette_shortcut ?? DEFAULT_PALETTE_SHORTCUT,
    retention: row === undefined ? { ...DEFAULT_RETENTION } : { outputDays: row.output_days, outputMaxMb: row.output_max_mb },
    limitCeiling: { ...DEFAULT_LIMIT_CEILING, ...(row?.limit_ceiling ? (JSON.parse(row.limit_ceiling) as Partial<ResourceLimits>) : {}) },
  };
}

/**
 * Changes the ceiling on what a skill may ask for (E100 for a value that is not a whole number from
 * 1 to the widest any run may get) and returns it whole.
 */
export function setLimitCeiling(db: StateDb, change: Partial<ResourceLimits>): ResourceLimits {
  for (const [key, value] of Object.entries(change) as [keyof ResourceLimits, number | undefined][]) {
    if (value === undefined) continue;
    const max = LIMIT_MAX[key];
    if (max === undefined) throw skillcErrors.invalidOption(`there is no limit '${key}'; limits are ${RESOURCE_LIMIT_NAMES.join(', ')}`);
    if (!Number.isInteger(value) || value < 1 || value > max) throw skillcErrors.invalidOption(`${key} must be a whole number from 1 to ${max}, got ${value}`);
  }
  const next: ResourceLimits = { ...getSettings(db).limitCeiling, ...Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)) };
  prepared(db, 'INSERT INTO settings (id, limit_ceiling) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET limit_ceiling = excluded.limit_ceiling').run(
    JSON.stringify(next),
  );
  return next;
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
    throw policyErrors.invalidShortcut(shortcut, 'error' in parsed ? parsed.error : null);
  }
  prepared(db, 'INSERT INTO settings (id, palette_shortcut) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET palette_shortcut = excluded.palette_shortcut').run(
    stored,
  );
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
