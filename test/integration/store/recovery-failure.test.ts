/**
 * A recovery of a damaged state.db that fails part way (salvage made to throw here, as a bug in it
 * would): a coded error, the damaged file kept, and never a quiet near-empty state.db at the next open.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { addRule, listRules } from '../../../src-main/core/store/rules.js';
import { listNotices } from '../../../src-main/core/store/notices.js';
import { getSettings } from '../../../src-main/core/store/settings.js';
import { openStateDb } from '../../../src-main/core/store/state-db.js';
import type * as SalvageModule from '../../../src-main/core/store/salvage.js';
import { SkilltrayError } from '../../../src-main/shared/skilltray-error.js';
import type { Notice } from '../../../src-main/shared/runs.js';
import { damagePage, pagesOf } from './damage.js';
import { useTempHomes } from './temp-home.js';

/** How salvage fails in this file: not at all, by throwing, or by closing the new file first (so not even a notice can be written to it). */
const fault = vi.hoisted(() => ({ mode: 'none' as 'none' | 'throw' | 'close-target' }));

vi.mock('../../../src-main/core/store/salvage.js', async (importOriginal) => {
  const real = await importOriginal<typeof SalvageModule>();
  return {
    ...real,
    salvage: (...args: Parameters<typeof real.salvage>) => {
      if (fault.mode === 'close-target') args[2].close();
      if (fault.mode !== 'none') throw new Error('salvage broke');
      return real.salvage(...args);
    },
  };
});

const homes = useTempHomes();

const asideFiles = (dir: string): string[] => readdirSync(dir).filter((f) => f.startsWith('state.db.corrupt-') && !/-(wal|shm)$/.test(f));

/** A state.db holding two rules, then one of its rules' leaf pages overwritten; returns its path and damaged bytes. */
function damaged(): { dir: string; path: string; bytes: Buffer } {
  const dir = homes.dir();
  const path = join(dir, 'state.db');
  const db = openStateDb(path);
  addRule(db, 'tool:git/*', 'allow');
  addRule(db, 'skill:danger*', 'deny');
  db.close();
  damagePage(path, pagesOf(path, 'rules', 'leaf')[0] as number, 3);
  return { dir, path, bytes: readFileSync(path) };
}

function thrown(open: () => unknown): SkilltrayError {
  try {
    open();
  } catch (error) {
    expect(error).toBeInstanceOf(SkilltrayError);
    return error as SkilltrayError;
  }
  throw new Error('the open did not fail');
}

describe('a recovery that fails part way', () => {
  it('is E906, keeps the damaged file aside, and the new state.db says so with runs paused', () => {
    const { dir, path, bytes } = damaged();
    fault.mode = 'throw';
    const told: Notice[] = [];
    const error = thrown(() => openStateDb(path, { onRecovered: (n) => told.push(n) }));
    fault.mode = 'none';
    expect(error.code).toBe('E906');
    expect(error.message).toContain('recovering what it held failed (salvage broke)');
    expect(error.message).toContain('Runs are paused until you check your rules and skills');
    const aside = asideFiles(dir);
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dir, aside[0] as string))).toEqual(bytes);
    expect(told).toEqual([]);

    // The next open finds a healthy file that says what happened: never a quiet, near-empty one.
    const again: Notice[] = [];
    const db = openStateDb(path, { onRecovered: (n) => again.push(n) });
    try {
      expect(again).toEqual([]);
      expect(listNotices(db).map((n) => [n.code, n.message])).toEqual([['E906', error.message]]);
      expect(getSettings(db).paused).toBe(true);
    } finally {
      db.close();
    }
  });

  it('when not even a notice can be written to the new file, the damaged one is put back and recovered at the next open', () => {
    const { dir, path, bytes } = damaged();
    fault.mode = 'close-target';
    const error = thrown(() => openStateDb(path));
    fault.mode = 'none';
    expect(error.code).toBe('E906');
    expect(error.message).toContain('it was put back as it was, and will be recovered again when it is next opened');
    expect(asideFiles(dir)).toEqual([]);
    expect(readFileSync(path)).toEqual(bytes);

    const told: Notice[] = [];
    const db = openStateDb(path, { onRecovered: (n) => told.push(n) });
    try {
      expect(told.map((n) => n.code)).toEqual(['E902']);
      expect(getSettings(db).paused).toBe(true);
      expect(listRules(db).length).toBeLessThan(2);
    } finally {
      db.close();
    }
  });
});
