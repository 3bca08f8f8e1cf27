/**
 * The life of one process's connection to state.db: opened on first use (checked, recovered if
 * damaged), replaced when a call meets damage later (SQLITE_CORRUPT), maintained on a schedule
 * (retention and vacuum), closed once. The core holds one and reads `db` from it on every use.
 */
import type { MaintenanceReport, Notice } from '../../shared/runs.js';
import { dirname } from 'node:path';
import { diskFaultError } from '../disk-faults.js';
import { SkilltrayError, toSkilltrayError } from '../../shared/skilltray-error.js';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import { stateErrors } from '../../shared/error-messages/state.js';
import { isInside } from '../files/paths.js';
import { maintainHistory } from './retention.js';
import { isCorruption, openStateDb, passesIntegrityCheck, readOnlyReason, replaceDamaged, type OpenStateDbOptions, type StateDb } from './state-db.js';

export interface StateStoreOptions {
  nativeBinding?: string;
  /** PRAGMA quick_check at open (see OpenStateDbOptions). */
  quickCheck: boolean;
  /** Told each notice this process raises (a recovery it made). */
  onNotice: (notice: Notice) => void;
}

export class StateStore {
  private handle: StateDb | undefined;
  private closed = false;
  /** Maintenance is over (the core is closing): no new pass, and a pass under way stops at its next batch. */
  private stopped = false;
  /** The notice of the last recovery this process made, while a failure is being reported. */
  private recovered: Notice | undefined;
  private timer: NodeJS.Timeout | undefined;
  private maintaining: Promise<MaintenanceReport> | undefined;
  /** The last maintenance pass of this process, if any. */
  lastMaintenance: MaintenanceReport | null = null;

  constructor(
    private readonly path: string,
    private readonly options: StateStoreOptions,
  ) {}

  private get openOptions(): OpenStateDbOptions {
    return {
      ...(this.options.nativeBinding === undefined ? {} : { nativeBinding: this.options.nativeBinding }),
      quickCheck: this.options.quickCheck,
      onRecovered: (notice) => {
        this.recovered = notice;
        this.options.onNotice(notice);
      },
    };
  }

  /** The connection, opened (checked, and recovered if damaged) on first use, and never again once closed. */
  get db(): StateDb {
    if (this.closed) throw skillcErrors.internal('the Skilltray core is closed');
    this.handle ??= openStateDb(this.path, this.openOptions);
    return this.handle;
  }

  /**
   * What a surface reports for an error a call threw. A damaged state.db (SQLITE_CORRUPT) is
   * replaced at once — recovered here, or the file another process already recovered is opened — and
   * the call fails with E901 saying so and to try again; anything else keeps its code.
   */
  failure(error: unknown): SkilltrayError {
    if (!isCorruption(error) || this.handle === undefined || this.closed) return this.diskFailure(error) ?? toSkilltrayError(error);
    this.recovered = undefined;
    const reason = error instanceof Error ? error.message : String(error);
    // Two calls may meet the same damage: the second finds the file already replaced, and whole.
    if (passesIntegrityCheck(this.handle)) {
      return stateErrors.recoveredMeanwhile(reason, error);
    }
    try {
      this.handle = replaceDamaged(this.handle, this.openOptions, reason);
    } catch (failed) {
      this.handle = undefined;
      // A recovery that failed part way says so itself (E906).
      if (failed instanceof SkilltrayError) return failed;
      return skillcErrors.internal(`state.db is damaged and could not be replaced: ${toSkilltrayError(failed).message}`, { cause: failed });
    }
    const notice = this.recovered as Notice | undefined;
    // No notice here: another process had already recovered the file, and told its own user.
    const message = notice === undefined ? 'state.db was damaged; another Skilltray process has already replaced it with a recovered one.' : notice.message;
    return stateErrors.recovered(message, { ...(notice?.details ?? {}) }, error);
  }

  /**
   * E904 or E905 for a write the disk refused: SQLite's errors are state.db's (the others' are coded
   * where they are written), and a file error is about the path it names when that is in the home.
   */
  private diskFailure(error: unknown): SkilltrayError | null {
    if (error instanceof SkilltrayError) return null;
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && code.startsWith('SQLITE_')) {
      // A connection opened read-only because the disk was full refuses writes as read-only: the cause is the full disk.
      const full = code.startsWith('SQLITE_READONLY') && this.handle !== undefined && readOnlyReason(this.handle) === 'full';
      return diskFaultError(error, this.path, full ? 'full' : undefined);
    }
    const path = (error as { path?: unknown } | null)?.path;
    return typeof path === 'string' && isInside(dirname(this.path), path) ? diskFaultError(error, path) : null;
  }

  /** Applies retention to run output and vacuums state.db now; a pass already under way is joined, not doubled. */
  maintain(): Promise<MaintenanceReport> {
    // Closing stops the pass at its next batch instead of keeping close() waiting.
    const pause = (): Promise<void> =>
      new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        if (this.stopped) throw skillcErrors.internal('history maintenance stopped: the core is closing');
      });
    this.maintaining ??= maintainHistory(this.db, Date.now(), pause)
      .then((report) => {
        this.lastMaintenance = report;
        return report;
      })
      .finally(() => {
        this.maintaining = undefined;
      });
    return this.maintaining;
  }

  /**
   * For the long-running owner of runs: maintains history `firstAfterMs` after start and then every
   * `everyMs`; a failed pass (state.db busy) is reported and tried again next time.
   */
  startMaintenance(everyMs: number, firstAfterMs: number): void {
    if (this.timer !== undefined || this.stopped) return;
    const pass = async (): Promise<void> => {
      try {
        await this.maintain();
      } catch (error) {
        if (this.stopped) return;
        process.emitWarning(`history maintenance failed (it is tried again later): ${this.failure(error).message}`);
      }
      if (this.stopped) return;
      this.timer = setTimeout(() => void pass(), everyMs);
      this.timer.unref();
    };
    this.timer = setTimeout(() => void pass(), firstAfterMs);
    this.timer.unref();
  }

  /** Stops maintenance (a pass under way ends at its next batch); the connection stays open until close(). */
  stopMaintenance(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** Stops maintenance, waits for a pass under way to stop, and closes the connection. */
  async close(): Promise<void> {
    this.stopMaintenance();
    await this.maintaining?.catch(() => undefined);
    this.closed = true;
    this.handle?.close();
    this.handle = undefined;
  }
}
