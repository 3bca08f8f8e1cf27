/**
 * `Idempotency-Key` on `POST /api/run` (as GitHub's and Stripe's APIs take one), so a caller whose
 * connection broke can ask again without running the tool twice: the first request with a key
 * runs; a retry with the same key and the same body gets the same answer, marked
 * `Idempotent-Replayed: true`, and while the first is still working, waits for its answer. A key
 * is remembered for 24 hours by this server; the same key with another body is refused (E813).
 */
import { createHash } from 'node:crypto';
import { gatewayErrors } from '../shared/error-messages/gateway.js';
import type { Envelope } from '../shared/contract.js';

/** The request header. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** How long an answer is kept for a retry. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** Keys remembered at most; past it the oldest answered ones are forgotten first. */
const MAX_KEYS = 10_000;

/** A key: 1–255 visible ASCII characters (a UUID is the usual choice). */
const KEY = /^[\x21-\x7e]{1,255}$/;

/** An answer as it went out. */
export interface Answer {
  status: number;
  envelope: Envelope<unknown>;
}

/** What is kept of an answer: a run's by its id (its report is read back from history), a refusal as it was. */
type Kept = { runId: string } | Answer;

interface Entry {
  fingerprint: string;
  at: number;
  /** Set once answered. */
  kept: Kept | null;
  /** The first request's answer, while it works. */
  pending: Promise<Answer> | null;
  /** Requests waiting for this answer; when all have gone, the work is called off. */
  waiters: number;
  controller: AbortController;
}

/** The key a request carries: null without the header, E805 for one that is not a key. */
export function idempotencyKey(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  if (typeof header !== 'string' || !KEY.test(header)) {
    throw gatewayErrors.invalidIdempotencyKey(IDEMPOTENCY_HEADER);
  }
  return header;
}

/** The request a key stands for: the operation and its body, byte for byte. */
export function requestFingerprint(operation: string, body: Buffer): string {
  return createHash('sha256').update(operation).update('\0').update(body).digest('hex');
}

/** The answers of one server's idempotent requests. */
export class IdempotentRequests {
  private readonly entries = new Map<string, Entry>();

  /** `replay` reads a finished run's answer back from history. */
  constructor(private readonly replay: (runId: string) => Answer) {}

  /**
   * Answers a request carrying `key`: runs `work` the first time (with a signal that aborts once
   * every request waiting for it has gone, `left` saying when this one does), else the answer
   * given before. An answer that asks to try again (503) is not kept: the retry runs.
   */
  async answer(key: string, fingerprint: string, left: Promise<void>, work: (signal: AbortSignal) => Promise<Answer>): Promise<Answer & { replayed: boolean }> {
    this.forgetOld();
    let entry = this.entries.get(key);
    if (entry !== undefined && entry.fingerprint !== fingerprint) {
      throw gatewayErrors.idempotencyKeyReused(key);
    }
    const kept = entry?.kept ?? null;
    if (kept !== null) return { ...('runId' in kept ? this.replay(kept.runId) : kept), replayed: true };
    const first = entry === undefined;
    if (entry === undefined) {
      entry = { fingerprint, at: Date.now(), kept: null, pending: null, waiters: 0, controller: new AbortController() };
      this.entries.set(key, entry);
      entry.pending = this.settle(key, entry, work(entry.controller.signal));
    }
    const waiting = entry;
    waiting.waiters++;
    void left.then(() => {
      if (--waiting.waiters === 0 && waiting.kept === null) waiting.controller.abort();
    });
    return { ...(await (waiting.pending as Promise<Answer>)), replayed: !first };
  }

  /** Keeps the answer once given (a run's by its id), or forgets the key when it says to try again. */
  private async settle(key: string, entry: Entry, working: Promise<Answer>): Promise<Answer> {
    try {
      const answer = await working;
      if (answer.status === 503) this.entries.delete(key);
      else {
        const value = answer.envelope.ok ? (answer.envelope.value as { id?: unknown }) : null;
        entry.kept = value !== null && typeof value.id === 'string' ? { runId: value.id } : answer;
      }
      return answer;
    } catch (error) {
      this.entries.delete(key);
      throw error;
    } finally {
      entry.pending = null;
    }
  }

  /** Drops keys past their 24 hours, and the oldest answered ones past MAX_KEYS. */
  private forgetOld(): void {
    const expired = Date.now() - IDEMPOTENCY_TTL_MS;
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= MAX_KEYS && entry.at >= expired) break;
      if (entry.kept !== null) this.entries.delete(key);
    }
  }
}
