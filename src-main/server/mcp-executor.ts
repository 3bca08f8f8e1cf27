/**
 * Who executes an MCP call. When the app or `skilltray serve` owns runs for this home, every call
 * is forwarded to it over its loopback API, so an approval reaches the tray and the owner records
 * and logs the call. Otherwise a core of the same home answers in this process with nobody to ask:
 * reading works, and a run that needs the person's approval fails with E601 — never a silent run.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SkilltrayCore } from '../core/api.js';
import { MAX_INPUT_DEPTH, nestsDeeperThan } from '../core/input-depth.js';
import { callOperation } from '../core/operations.js';
import type { OperationName } from '../shared/contract.js';
import type { PendingEntry, RunSummary } from '../shared/runs.js';
import { findOwner, httpTransport, type OwnerLink, type Transport } from './app-link.js';
import type { OperationCall } from './mcp.js';

export interface LocalExecutorOptions {
  /** Where the assistant launched the bridge: gateway calls resolve paths and log from here. */
  cwd: string;
  version: string;
  /** Receives each new logging warning of the gateway (stdout is the protocol, so they go to stderr). */
  onWarning(warning: string): void;
}

/** Executes operations with `core`, in this process, where no person can be asked. */
export function localExecutor(core: SkilltrayCore, options: LocalExecutorOptions): OperationCall {
  let warned = 0;
  return async (operation, input, signal) => {
    const envelope = await callOperation(core, operation, input, {
      surface: 'mcp',
      cwd: options.cwd,
      approval: { kind: 'none' },
      // Read by `health` only, which is not an MCP tool; the bridge is never the owner of runs.
      owner: 'serve',
      version: options.version,
      signal,
    });
    const warnings = core.gateway.warnings;
    for (; warned < warnings.length; warned++) options.onWarning(warnings[warned] as string);
    return envelope;
  };
}

export interface RoutedExecutorOptions {
  /** The Skilltray home whose owner of runs is looked for. */
  home: string;
  /** Executes a call here when no owner runs. */
  local: OperationCall;
  /** Told when calls start going to an owner, or come back to this process. */
  onRoute(owner: OwnerLink | null): void;
}

/** How long an owner, once found, is called without looking for it again. */
const OWNER_TTL_MS = 3000;

/** Operations that may wait for a person or start a process: never retried elsewhere after a failed forward. */
const RUNS: ReadonlySet<OperationName> = new Set(['run', 'attach']);

/** How long a cancellation keeps looking for a forwarded run the owner has not listed yet. */
const CANCEL_ATTEMPTS = 20;
const CANCEL_RETRY_MS = 250;

/** The input with a trace id (the caller's, or a fresh one) so a forwarded run can be found again to cancel it. */
function traced(input: unknown): { input: unknown; traceId: string | null } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { input, traceId: null };
  const given = (input as Record<string, unknown>).trace_id;
  if (given !== undefined) return { input, traceId: typeof given === 'string' ? given : null };
  const traceId = `mcp-${randomUUID()}`;
  return { input: { ...input, trace_id: traceId }, traceId };
}

/**
 * Cancels at the owner the one live run carrying `traceId` — withdrawing its approval, or stopping
 * its process — since a forwarded HTTP request cannot be aborted. Looks again for a while when the
 * owner has not listed it yet; does nothing when several live runs share the trace id.
 */
async function cancelAtOwner(call: Transport, traceId: string, settled: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < CANCEL_ATTEMPTS && !settled(); attempt++) {
    const pending = await call('approvals', {});
    const running = await call('history', { status: 'running', limit: 1000 });
    const live = [...(pending.ok ? (pending.value as PendingEntry[]) : []), ...(running.ok ? (running.value as RunSummary[]) : [])].filter((r) => r.traceId === traceId);
    if (live.length > 1) return;
    const [run] = live;
    if (run !== undefined) {
      await call('cancelRun', { id: run.id });
      return;
    }
    await sleep(CANCEL_RETRY_MS);
  }
}

/** Forwards one call to the owner; a client's cancellation of a run or attach cancels it there. */
async function forward(call: Transport, operation: OperationName, input: unknown, signal: AbortSignal): ReturnType<Transport> {
  if (!RUNS.has(operation)) return call(operation, input);
  const request = traced(input);
  let done = false;
  const onAbort = (): void => {
    if (request.traceId !== null) void cancelAtOwner(call, request.traceId, () => done);
  };
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await call(operation, request.input);
  } finally {
    done = true;
    signal.removeEventListener('abort', onAbort);
  }
}

/**
 * Routes each call: to the owner of runs when one answers for `home` (looked for at every call, a
 * found owner trusted for a few seconds), else to `local`. When the owner has gone (E807), a reading
 * call is routed once more at once; a run or attach reports E807 rather than risk running twice.
 */
export function routedExecutor(options: RoutedExecutorOptions): OperationCall {
  let cached: { link: OwnerLink; call: Transport; until: number } | null = null;
  let routedTo: string | null = null;

  async function owner(): Promise<{ link: OwnerLink; call: Transport } | null> {
    if (cached !== null && Date.now() < cached.until) return cached;
    const link = await findOwner(options.home);
    cached = link === null ? null : { link, call: httpTransport(link.url, link.token, { surface: 'mcp' }), until: Date.now() + OWNER_TTL_MS };
    if ((link?.url ?? null) !== routedTo) {
      routedTo = link?.url ?? null;
      options.onRoute(link);
    }
    return cached;
  }

  return async (operation, input, signal) => {
    // Too deep to forward (serialising it would overflow): refused here, into this home's history, as the owner would refuse it.
    if (nestsDeeperThan(input, MAX_INPUT_DEPTH)) return options.local(operation, input, signal);
    for (let attempt = 0; ; attempt++) {
      const found = await owner();
      if (found === null) return options.local(operation, input, signal);
      const envelope = await forward(found.call, operation, input, signal);
      if (envelope.ok || envelope.error.code !== 'E807') return envelope;
      cached = null;
      if (RUNS.has(operation) || attempt > 0) return envelope;
    }
  };
}
