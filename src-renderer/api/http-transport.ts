/** Browser mode: operations as `POST /api/<operation>` and events from `GET /api/events`, both with the bearer token. */
import type { Envelope, ServerEvent } from '../../src-main/shared/contract.js';
import type { ErrorShape } from '../../src-main/shared/errors.js';
import { createSseParser } from './sse.js';

/** Where the token comes from at each request (it can be pasted in after start). */
export type TokenSource = () => string | null;

function failure(code: ErrorShape['code'], kind: ErrorShape['kind'], message: string): Envelope<never> {
  return { ok: false, error: { code, kind, message } };
}

function isEnvelope(value: unknown): value is Envelope<unknown> {
  if (typeof value !== 'object' || value === null || !('ok' in value)) return false;
  return value.ok === true ? 'value' in value : value.ok === false && 'error' in value;
}

function headers(token: TokenSource, json: boolean): Headers {
  const result = new Headers();
  const value = token();
  if (value !== null) result.set('Authorization', `Bearer ${value}`);
  if (json) result.set('Content-Type', 'application/json');
  return result;
}

/** A transport for `createClient`: every outcome, network failures included, comes back as an Envelope. */
export function httpTransport(origin: string, token: TokenSource): (operation: string, input: unknown) => Promise<Envelope<unknown>> {
  return async (operation, input) => {
    let response: Response;
    try {
      response = await fetch(`${origin}/api/${encodeURIComponent(operation)}`, {
        method: 'POST',
        headers: headers(token, true),
        body: JSON.stringify(input ?? {}),
      });
    } catch {
      return failure('E807', 'app_not_reachable', `the Skilltray app is not reachable at ${origin}`);
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      return failure('E999', 'internal', `the server answered ${response.status} without a JSON envelope`);
    }
    return isEnvelope(body) ? body : failure('E999', 'internal', `the server answered ${response.status} with something other than an envelope`);
  };
}

/** What the event stream is doing, for the connection indicator. */
export type StreamState = 'connecting' | 'open' | 'unauthorized';

export interface FollowOptions {
  origin: string;
  token: TokenSource;
  onEvent: (event: ServerEvent) => void;
  /** Called on every change; `open` again after a reconnect, which is when screens refetch. */
  onState: (state: StreamState) => void;
  /** First retry delay; doubles per failure up to `maxDelayMs`. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Where retries are scheduled (the window's timers unless given), so a test can see and fire them. */
  timers?: RetryTimers;
}

/** setTimeout/clearTimeout, as the stream uses them. */
export interface RetryTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const WINDOW_TIMERS: RetryTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Follows `GET /api/events` until stopped, reconnecting with exponential backoff (reset once a
 * stream opens). A 401 stops retrying: only a new token can fix it, and `restart` resumes.
 */
export function followEvents(options: FollowOptions): { stop: () => void; restart: () => void } {
  const base = options.baseDelayMs ?? 500;
  const max = options.maxDelayMs ?? 15_000;
  const timers = options.timers ?? WINDOW_TIMERS;
  let controller: AbortController | null = null;
  let timer: unknown = null;
  let failures = 0;
  let stopped = false;

  const schedule = (): void => {
    if (stopped) return;
    const delay = Math.min(max, base * 2 ** failures) * (0.75 + Math.random() * 0.5);
    failures++;
    timer = timers.setTimeout(() => void connect(), delay);
  };

  const connect = async (): Promise<void> => {
    timer = null;
    const abort = new AbortController();
    controller = abort;
    options.onState('connecting');
    try {
      const response = await fetch(`${options.origin}/api/events`, { headers: headers(options.token, false), signal: abort.signal });
      if (response.status === 401) {
        options.onState('unauthorized');
        return;
      }
      if (!response.ok || response.body === null) throw new Error(`events answered ${response.status}`);
      failures = 0;
      options.onState('open');
      const push = createSseParser((message) => {
        try {
          options.onEvent(JSON.parse(message.data) as ServerEvent);
        } catch {
          // A malformed event is dropped; the next refetch brings the screen back in line.
        }
      });
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        push(value);
      }
    } catch {
      if (abort.signal.aborted) return;
    }
    if (!abort.signal.aborted) schedule();
  };

  const halt = (): void => {
    if (timer !== null) timers.clearTimeout(timer);
    timer = null;
    controller?.abort();
    controller = null;
  };

  void connect();
  return {
    stop: () => {
      stopped = true;
      halt();
    },
    restart: () => {
      halt();
      failures = 0;
      void connect();
    },
  };
}
