/**
 * Pending approvals, held in memory by the one process that owns runs. A caller asks and waits;
 * the person answers from the tray, the browser UI or the CLI; each answer reaches exactly the
 * caller that asked, whatever the order. Unanswered requests time out (E604) so no caller hangs.
 * Listeners ('added', 'resolved') let a UI and an SSE stream follow the queue; a listener that
 * throws is reported, never allowed to break the queue or strand a caller.
 */
import { randomInt } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { SkilltrayError } from '../../shared/skilltray-error.js';
import { policyErrors } from '../../shared/error-messages/policy.js';
import { skillcErrors } from '../../shared/error-messages/skillc.js';
import { emitGuarded } from '../events.js';
import {
  VERDICT_KINDS,
  type PendingApproval,
  type PendingEntry,
  type RememberExpiry,
  type RememberScope,
  type VerdictKind,
  type Verdict,
} from '../../shared/runs.js';
import { allCodes, spokenPrompt } from '../../shared/voice.js';

/** How a pending approval left the queue. */
export type Resolution = { id: string; kind: 'verdict'; verdict: Verdict } | { id: string; kind: 'timeout' } | { id: string; kind: 'cancelled' };

export interface BrokerEvents {
  added: [entry: PendingEntry];
  resolved: [resolution: Resolution];
}

/** The clock and timer the broker uses; tests inject a manual one. */
export interface BrokerClock {
  now: () => number;
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

const systemClock: BrokerClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    // A pending approval must not keep a CLI process alive on its own.
    handle.unref();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** Draws a fresh approval code, never one in `avoid` (codes pending now, and the last few given) while another is left. */
export type CodeSource = (avoid: ReadonlySet<string>) => string;

/** A code drawn at random (the OS's CSPRNG) from those not to avoid. */
export const randomCode: CodeSource = (avoid) => {
  const codes = allCodes();
  const left = codes.filter((code) => !avoid.has(code));
  const from = left.length > 0 ? left : codes;
  return from[randomInt(from.length)] as string;
};

/** How many of the last codes given are not given again, so a recording of one answer cannot answer the next request. */
const RECENT_CODES = 16;

interface Waiter {
  entry: PendingEntry;
  timer: unknown;
  settle: (outcome: { ok: true; verdict: Verdict } | { ok: false; error: SkilltrayError }) => void;
}

/** Holds pending approvals and hands each answer back to the caller that asked. */
export class ApprovalBroker {
  private readonly waiters = new Map<string, Waiter>();
  private readonly events = new EventEmitter<BrokerEvents>();
  private readonly clock: BrokerClock;
  private readonly onListenerError: (error: unknown) => void;
  private readonly code: CodeSource;
  private readonly home: string | undefined;
  private readonly recent: string[] = [];

  /** `code` draws each request's approval code; `home` is the folder the spoken prompt calls "your home folder". */
  constructor(options: { clock?: BrokerClock; onListenerError?: (error: unknown) => void; code?: CodeSource; home?: string } = {}) {
    this.clock = options.clock ?? systemClock;
    this.code = options.code ?? randomCode;
    this.home = options.home;
    this.onListenerError =
      options.onListenerError ?? ((error) => process.emitWarning(`an approval listener failed: ${error instanceof Error ? error.message : String(error)}`));
  }

  /** Queues an approval and waits for the verdict; rejects with E604 after `timeoutMs`, E613 if cancelled. */
  request(pending: PendingApproval, options: { timeoutMs: number }): Promise<Verdict> {
    if (this.waiters.has(pending.id)) {
      return Promise.reject(skillcErrors.internal(`an approval for run '${pending.id}' is already pending`, { details: { id: pending.id } }));
    }
    const code = this.code(new Set([...this.recent, ...[...this.waiters.values()].map((w) => w.entry.code ?? '')]));
    this.recent.push(code);
    if (this.recent.length > RECENT_CODES) this.recent.shift();
    const entry: PendingEntry = { ...pending, expiresAt: this.clock.now() + options.timeoutMs, code, speech: spokenPrompt(pending, code, this.home) };
    const promise = new Promise<Verdict>((resolve, reject) => {
      const timer = this.clock.setTimeout(() => {
        this.finish(
          pending.id,
          { ok: false, error: policyErrors.approvalTimedOut(pending.skill, pending.tool, pending.id, options.timeoutMs) },
          { id: pending.id, kind: 'timeout' },
        );
      }, options.timeoutMs);
      this.waiters.set(pending.id, {
        entry,
        timer,
        settle: (outcome) => (outcome.ok ? resolve(outcome.verdict) : reject(outcome.error)),
      });
    });
    this.emit('added', entry);
    return promise;
  }

  /** The pending approvals, oldest request first. */
  list(): PendingEntry[] {
    return [...this.waiters.values()].map((w) => w.entry);
  }

  /**
   * Answers a pending approval; E611 when the id is unknown or already answered, E616 for a bad verdict.
   * `expires` says how long an `always` lasts (until revoked unless it says `session`), `scope` where
   * it applies (its folder unless it says `anywhere`): E626 for one the request does not offer.
   */
  resolve(id: string, verdict: VerdictKind, actor: string, expires?: RememberExpiry, scope?: RememberScope): void {
    if (!(VERDICT_KINDS as readonly string[]).includes(verdict)) {
      throw policyErrors.invalidVerdict(verdict);
    }
    const waiter = this.waiters.get(id);
    if (waiter === undefined) {
      throw policyErrors.approvalNotFound(id);
    }
    const offered = waiter.entry.rememberScopes;
    if (verdict === 'always' && !offered.includes(scope ?? 'folder')) {
      throw policyErrors.invalidRememberScope(waiter.entry.skill, waiter.entry.tool, id, scope ?? 'folder', offered);
    }
    const answer: Verdict =
      verdict === 'always' ? { verdict, actor, ...(expires === undefined ? {} : { expires }), ...(scope === undefined ? {} : { scope }) } : { verdict, actor };
    this.finish(id, { ok: true, verdict: answer }, { id, kind: 'verdict', verdict: answer });
  }

  /** Withdraws a pending approval (its requester went away): the request rejects with E613. False if it was not pending. */
  cancel(id: string): boolean {
    const waiter = this.waiters.get(id);
    if (waiter === undefined) return false;
    const { skill, tool } = waiter.entry;
    this.finish(id, { ok: false, error: policyErrors.approvalCancelled(skill, tool, id) }, { id, kind: 'cancelled' });
    return true;
  }

  /** Subscribes to 'added' or 'resolved'; returns the unsubscribe function. */
  on<K extends keyof BrokerEvents>(event: K, listener: (...args: BrokerEvents[K]) => void): () => void {
    const events = this.events as EventEmitter;
    events.on(event, listener as (...args: unknown[]) => void);
    return () => {
      events.off(event, listener as (...args: unknown[]) => void);
    };
  }

  private emit<K extends keyof BrokerEvents>(event: K, ...args: BrokerEvents[K]): void {
    emitGuarded(this.events as EventEmitter, event, args, (error) => this.onListenerError(error));
  }

  // Settles the caller before announcing, so listeners already see the queue without this entry.
  private finish(id: string, outcome: Parameters<Waiter['settle']>[0], resolution: Resolution): void {
    const waiter = this.waiters.get(id);
    if (waiter === undefined) return;
    this.waiters.delete(id);
    this.clock.clearTimeout(waiter.timer);
    waiter.settle(outcome);
    this.emit('resolved', resolution);
  }
}
