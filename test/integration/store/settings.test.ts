import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETENTION, getSettings, setMode, setPaletteShortcut, setPaused, setRetention } from '../../../src-main/core/store/settings.js';
import { DEFAULT_LIMIT_CEILING } from '../../../src-main/core/policy/resource-limits.js';
import { MIGRATIONS, applyMigrations } from '../../../src-main/core/store/migrations.js';
import { thrownBy } from '../../support/errors.js';
import { useTempHomes } from './temp-home.js';

const homes = useTempHomes();

describe('settings', () => {
  it('defaults to Global, not paused, and the palette on CommandOrControl+Shift+Space', () => {
    const db = homes.fresh();
    expect(getSettings(db)).toEqual({
      mode: 'Global',
      paused: false,
      paletteShortcut: 'CommandOrControl+Shift+Space',
      retention: { outputDays: 30, outputMaxMb: 100 },
      limitCeiling: DEFAULT_LIMIT_CEILING,
    });
    expect(getSettings(db).mode).toBe('Global');
    expect(getSettings(db).paused).toBe(false);
  });

  it('stores mode and paused across re-opening', () => {
    const path = join(homes.dir(), 'state.db');
    const db = homes.open(path);
    expect(setMode(db, 'meeting')).toBe('Meeting');
    setPaused(db, true);
    db.close();
    const again = homes.open(path);
    expect(getSettings(again)).toMatchObject({ mode: 'Meeting', paused: true, retention: DEFAULT_RETENTION });
    setPaused(again, false);
    expect(getSettings(again).paused).toBe(false);
  });

  it('rejects an unknown mode with E610 and keeps the current one', () => {
    const db = homes.fresh();
    setMode(db, 'Dev');
    expect(() => setMode(db, 'Focus')).toThrow(expect.objectContaining({ code: 'E610' }));
    expect(getSettings(db).mode).toBe('Dev');
  });

  it('recreates the settings row if it was deleted by hand', () => {
    const db = homes.fresh();
    db.prepare('DELETE FROM settings').run();
    expect(getSettings(db)).toEqual({
      mode: 'Global',
      paused: false,
      paletteShortcut: 'CommandOrControl+Shift+Space',
      retention: DEFAULT_RETENTION,
      limitCeiling: DEFAULT_LIMIT_CEILING,
    });
    setPaused(db, true);
    setMode(db, 'Dev');
    setPaletteShortcut(db, 'alt+k');
    expect(getSettings(db)).toEqual({ mode: 'Dev', paused: true, paletteShortcut: 'Alt+K', retention: DEFAULT_RETENTION, limitCeiling: DEFAULT_LIMIT_CEILING });
    db.prepare('DELETE FROM settings').run();
    expect(setRetention(db, { outputDays: 7 })).toEqual({ ...DEFAULT_RETENTION, outputDays: 7 });
  });

  it('changes retention setting by setting, across re-opening, and refuses values out of range with E100', () => {
    const path = join(homes.dir(), 'state.db');
    const db = homes.open(path);
    expect(setRetention(db, { outputDays: 7 })).toEqual({ outputDays: 7, outputMaxMb: 100 });
    expect(setRetention(db, { outputMaxMb: 5 })).toEqual({ outputDays: 7, outputMaxMb: 5 });
    for (const bad of [{ outputDays: 0 }, { outputDays: 3651 }, { outputMaxMb: 1.5 }, { outputMaxMb: 102_401 }]) {
      expect(thrownBy(() => setRetention(db, bad))).toMatchObject({ code: 'E100' });
    }
    db.close();
    expect(getSettings(homes.open(path)).retention).toEqual({ outputDays: 7, outputMaxMb: 5 });
  });

  it('stores the palette shortcut normalised, or none; E617 for one without a modifier or key, keeping the current one', () => {
    const path = join(homes.dir(), 'state.db');
    const db = homes.open(path);
    expect(setPaletteShortcut(db, ' shift+CMDORCTRL+p ')).toBe('CommandOrControl+Shift+P');
    for (const bad of ['P', 'Shift+P', 'Ctrl+', 'Ctrl+Hyper+P', 'Ctrl+Nope']) {
      expect(() => setPaletteShortcut(db, bad), bad).toThrow(expect.objectContaining({ code: 'E617' }));
    }
    db.close();
    const again = homes.open(path);
    expect(getSettings(again).paletteShortcut).toBe('CommandOrControl+Shift+P');
    expect(setPaletteShortcut(again, '')).toBe('');
    expect(getSettings(again).paletteShortcut).toBe('');
  });

  it('a database from before the palette keeps its settings and gets the default shortcut', () => {
    const path = join(homes.dir(), 'state.db');
    const old = new Database(path);
    applyMigrations(old, MIGRATIONS.slice(0, 1));
    old.prepare("UPDATE settings SET mode = 'Dev', paused = 1").run();
    old.close();
    expect(getSettings(homes.open(path))).toEqual({
      mode: 'Dev',
      paused: true,
      paletteShortcut: 'CommandOrControl+Shift+Space',
      retention: DEFAULT_RETENTION,
      limitCeiling: DEFAULT_LIMIT_CEILING,
    });
  });

  it('keeps invalid values out at the schema level', () => {
    const db = homes.fresh();
    expect(() => db.prepare("UPDATE settings SET mode = 'Focus'").run()).toThrow(/CHECK/);
    expect(() => db.prepare('INSERT INTO settings (id) VALUES (2)').run()).toThrow(/CHECK/);
    expect(() => db.prepare('UPDATE settings SET output_days = 0').run()).toThrow(/CHECK/);
    expect(() => db.prepare('UPDATE settings SET output_max_mb = -1').run()).toThrow(/CHECK/);
  });
});
