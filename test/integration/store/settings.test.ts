import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getSettings, setMode, setPaused } from '../../../src-main/core/store/settings.js';
import { useTempHomes } from './temp-home.js';

const homes = useTempHomes();

describe('settings', () => {
  it('defaults to Global and not paused', () => {
    const db = homes.fresh();
    expect(getSettings(db)).toEqual({ mode: 'Global', paused: false });
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
    expect(getSettings(again)).toEqual({ mode: 'Meeting', paused: true });
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
    expect(getSettings(db)).toEqual({ mode: 'Global', paused: false });
    setPaused(db, true);
    setMode(db, 'Dev');
    expect(getSettings(db)).toEqual({ mode: 'Dev', paused: true });
  });

  it('keeps invalid values out at the schema level', () => {
    const db = homes.fresh();
    expect(() => db.prepare("UPDATE settings SET mode = 'Focus'").run()).toThrow(/CHECK/);
    expect(() => db.prepare('INSERT INTO settings (id) VALUES (2)').run()).toThrow(/CHECK/);
  });
});
