/**
 * What the person set (mode, pause, the palette's shortcut, history retention, the ceiling on
 * resource limits), the upkeep of state.db's history, and the notices it leaves for the person.
 * Every change is told on the 'event' stream, so the tray and the UI follow.
 */
import type { ServerEvent } from '../../shared/contract.js';
import type { Mode, ResourceLimits } from '../../shared/model.js';
import type { HistoryUsage, MaintenanceReport, Notice, Retention, Settings } from '../../shared/runs.js';
import { dismissNotice, listNotices } from '../store/notices.js';
import { historyUsage } from '../store/retention.js';
import { getSettings, setLimitCeiling, setMode, setPaletteShortcut, setPaused, setRetention } from '../store/settings.js';
import type { StateDb } from '../store/state-db.js';
import type { StateStore } from '../store/state-store.js';
import { skillcErrors } from '../../shared/error-messages/skillc.js';

export interface PreferencesDeps {
  state: StateStore;
  db(): StateDb;
  closed(): boolean;
  emit(event: ServerEvent): void;
}

export class Preferences {
  constructor(private readonly deps: PreferencesDeps) {}

  settings(): Settings {
    return getSettings(this.deps.db());
  }

  /** Switches mode (Global, Dev, Meeting): tools of skills outside it are not offered and cannot run. */
  setMode(mode: string): Mode {
    const db = this.deps.db();
    const set = setMode(db, mode);
    this.deps.emit({ type: 'settings', settings: getSettings(db) });
    return set;
  }

  /** Pauses or resumes every run. */
  setPaused(paused: boolean): Settings {
    return this.changed(setPaused, paused);
  }

  /** Sets the desktop app's global shortcut for the command palette ('' for none); E617 for one that cannot be. */
  setPaletteShortcut(shortcut: string): Settings {
    return this.changed(setPaletteShortcut, shortcut);
  }

  /** Sets history retention (E100 for a value out of range) and returns every setting. */
  setRetention(change: Partial<Retention>): Settings {
    return this.changed(setRetention, change);
  }

  /** Sets the ceiling on what a skill may ask for in `limits:` (E100 for a value out of range) and returns every setting. */
  setLimitCeiling(change: Partial<ResourceLimits>): Settings {
    return this.changed(setLimitCeiling, change);
  }

  /** Applies one setting, tells the 'event' stream and returns every setting. */
  private changed<T>(set: (db: StateDb, value: T) => unknown, value: T): Settings {
    const db = this.deps.db();
    set(db, value);
    const settings = getSettings(db);
    this.deps.emit({ type: 'settings', settings });
    return settings;
  }

  /** What history holds now, and the last maintenance pass of this process. */
  historyUsage(): HistoryUsage & { lastMaintenance: MaintenanceReport | null } {
    return { ...historyUsage(this.deps.db()), lastMaintenance: this.deps.state.lastMaintenance };
  }

  /** Applies retention to run output and vacuums state.db now. */
  maintainHistory(): Promise<MaintenanceReport> {
    if (this.deps.closed()) return Promise.reject(skillcErrors.internal('the Skilltray core is closed'));
    return this.deps.state.maintain();
  }

  /** For the long-running owner of runs: history maintained a minute after start, then every `everyMs` (an hour). */
  startMaintenance(everyMs = 60 * 60 * 1000, firstAfterMs = 60 * 1000): void {
    this.deps.state.startMaintenance(everyMs, firstAfterMs);
  }

  /** Notices not dismissed yet (a recovered state.db). */
  notices(): Notice[] {
    return listNotices(this.deps.db());
  }

  /** Dismisses a notice: it is not shown again. */
  dismissNotice(id: number): void {
    dismissNotice(this.deps.db(), id);
    this.deps.emit({ type: 'notice.dismissed', id });
  }
}
