/**
 * Who executes an MCP call. When the app or `skilltray serve` owns runs for this home, every call
 * is forwarded to it over its loopback API, so an approval reaches the tray and the owner records
 * and logs the call. Otherwise a core of the same home answers in this process with nobody to ask:
 * reading works, and a run that needs the person's approval fails with E601 — never a silent run.
 * Either way the bridge acts with an assistant's authority only (core/authority.ts): forwarded calls
 * are labelled `mcp`, which makes even the person's token an assistant's, and calls here are the bridge's.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SkilltrayCore } from '../core/api.js';
import { MAX_INPUT_DEPTH, nestsDeeperThan } from '../core/facade.js';
import { callerOf } from '../core/authority.js';
import { callOperation } from '../core/operations.js';
import type { Envelope, OperationName } from '../shared/contract.js';
import type { RunSummary } from '../shared/runs.js';
import type { Transport } from './app-link.js';
import { OwnerRouting, RUN_OPERATIONS, type OwnerRoutingOptions } from './owner-routing.js';

/** Executes one contract operation and returns its envelope; `signal` aborts when the client cancels. */
export type OperationCall = (operation: OperationName, input: unknown, signal: AbortSignal) => Promise<Envelope<unknown>>;

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
  const caller = callerOf(core.config.home, { kind: 'bridge' }, 'mcp');
  return async (operation, input, signal) => {
    const envelope = await callOperation(core, operation, input, {
      surface: 'mcp',
      caller,
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
 * its process — since a forwarded HTTP request cannot be aborted. The bridge's history is its own
 * runs only, waiting (pending) or running. Looks again for a while when the owner has not listed it
 * yet; does nothing when several live runs share the trace id.
 */
async function cancelAtOwner(call: Transport, traceId: string, settled: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < CANCEL_ATTEMPTS && !settled(); attempt++) {
    const [pending, running] = await Promise.all(['pending', 'running'].map((status) => call('history', { status, limit: 1000 })));
    const live = [pending, running].flatMap((listed) => (listed?.ok ? (listed.value as RunSummary[]) : [])).filter((r) => r.traceId === traceId);
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
  if (!RUN_OPERATIONS.has(operation)) return call(operation, input);
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

export interface RoutedExecutorOptions extends Omit<OwnerRoutingOptions, 'surface'> {
  /** Executes a call here when no owner runs. */
  local: OperationCall;
}

/** Routes each call by the one owner-routing policy (owner-routing.ts): to the owner of runs when one answers for `home`, else to `local`. */
export function routedExecutor(options: RoutedExecutorOptions): OperationCall {
  const routing = new OwnerRouting({ ...options, surface: 'mcp' });
  return (operation, input, signal) =>
    // Too deep to forward (serialising it would overflow): refused here, into this home's history, as the owner would refuse it.
    nestsDeeperThan(input, MAX_INPUT_DEPTH)
      ? options.local(operation, input, signal)
      : routing.route(
          operation,
          (owner) => forward(owner.call, operation, input, signal),
          () => options.local(operation, input, signal),
        );
}
