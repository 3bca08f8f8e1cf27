/**
 * Skills turned on or off by the person, everywhere or in one mode. A mode's own switch wins over
 * the everywhere switch, and no switch means on: `disable git` then `enable git --mode Dev` leaves
 * git on in Dev only; `enable git` (everywhere) clears every switch of git.
 */
import type { Mode } from '../../shared/model.js';
import type { SkillSwitch, SwitchScope } from '../../shared/packs.js';
import type { StateDb } from './state-db.js';
import { prepared } from './state-db.js';

interface SwitchRow {
  skill: string;
  scope: SwitchScope;
  enabled: number;
}

/** Every switch, by skill then scope. */
export function listSwitches(db: StateDb): SkillSwitch[] {
  return prepared<[], SwitchRow>(db, 'SELECT skill, scope, enabled FROM skill_switches ORDER BY skill, scope')
    .all()
    .map((r) => ({ skill: r.skill, scope: r.scope, enabled: r.enabled === 1 }));
}

/** Turns `skill` on or off: everywhere (clearing its per-mode switches) or in `mode` only. */
export function setSwitch(db: StateDb, skill: string, enabled: boolean, mode: Mode | null, now: number = Date.now()): void {
  db.transaction(() => {
    if (mode === null) {
      prepared(db, 'DELETE FROM skill_switches WHERE skill = ?').run(skill);
      if (!enabled) prepared(db, `INSERT INTO skill_switches (skill, scope, enabled, updated_at) VALUES (?, 'all', 0, ?)`).run(skill, now);
      return;
    }
    prepared(db, 'INSERT OR REPLACE INTO skill_switches (skill, scope, enabled, updated_at) VALUES (?, ?, ?, ?)').run(skill, mode, enabled ? 1 : 0, now);
  })();
}

/** Forgets every switch of `skill` (it was uninstalled). */
export function clearSwitches(db: StateDb, skill: string): void {
  prepared(db, 'DELETE FROM skill_switches WHERE skill = ?').run(skill);
}

/** Whether `skill` is on in `mode` under `switches`: the mode's switch, else the everywhere switch, else on. */
export function isEnabled(switches: readonly SkillSwitch[], skill: string, mode: Mode): boolean {
  const own = switches.filter((s) => s.skill === skill);
  return (own.find((s) => s.scope === mode) ?? own.find((s) => s.scope === 'all'))?.enabled ?? true;
}
