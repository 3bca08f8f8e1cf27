/**
 * The one policy for where a call runs, used by every process that may not own runs (the CLI, the
 * MCP bridge): when the app or `skilltray serve` owns runs for the home, the call is forwarded to it
 * over its loopback API, so it asks, runs, records and tells its UI; otherwise it runs here. A found
 * owner is trusted for a few seconds before it is looked for again. When the owner has gone (E807),
 * a reading call is routed once more at once; a run or attach reports E807 rather than risk running
 * twice. Exactly one process owns runs: nothing here runs a tool while an owner answers.
 */
import type { OperationName, SkilltrayClient } from '../shared/contract.js';
import type { OwnerLink, Transport } from './app-link.js';
import { readOwnerRecord } from './owner-record.js';

/** A live owner of runs and two ways to call it: operation by name, or typed. */
export interface RoutedOwner {
  link: OwnerLink;
  call: Transport;
  client: SkilltrayClient;
}

export interface OwnerRoutingOptions {
  /** The Skilltray home whose owner of runs is looked for. */
  home: string;
  /** Who forwards, as the owner's history records it. */
  surface: 'cli' | 'mcp';
  /** Told when calls start going to an owner, or come back to this process. */
  onRoute?(owner: OwnerLink | null): void;
}

/** How long an owner, once found, is called without looking for it again. */
const OWNER_TTL_MS = 3000;

/** Operations that may wait for a person or start a process: never retried elsewhere after a failed forward. */
export const RUN_OPERATIONS: ReadonlySet<OperationName> = new Set(['run', 'attach']);

/** Whether a forwarded call's outcome (an envelope, or what a typed client threw) says the owner is no longer there. */
function ownerGone(outcome: unknown): boolean {
  if (typeof outcome !== 'object' || outcome === null) return false;
  const { ok, error, code } = outcome as { ok?: unknown; error?: { code?: unknown }; code?: unknown };
  return ok === false ? error?.code === 'E807' : code === 'E807';
}

/** Where calls for one home go: see the top of this file. */
export class OwnerRouting {
  private cached: (RoutedOwner & { until: number }) | null = null;
  private routedTo: string | null = null;

  constructor(private readonly options: OwnerRoutingOptions) {}

  /** The live owner of runs, or null; without a server.json nothing heavier than that file is read. */
  async owner(): Promise<RoutedOwner | null> {
    if (this.cached !== null && Date.now() < this.cached.until) return this.cached;
    const { home, surface } = this.options;
    // No record, no owner: skip loading the client (the contract's zod schemas) altogether.
    const appLink = readOwnerRecord(home) === null ? null : await import('./app-link.js');
    const link = appLink === null ? null : await appLink.findOwner(home);
    if (appLink === null || link === null) this.cached = null;
    else {
      const call = appLink.httpTransport(link.url, link.token, { surface });
      this.cached = { link, call, client: appLink.ownerClient(link, surface), until: Date.now() + OWNER_TTL_MS };
    }
    if ((link?.url ?? null) !== this.routedTo) {
      this.routedTo = link?.url ?? null;
      this.options.onRoute?.(link);
    }
    return this.cached;
  }

  /** Runs `operation` at the owner (`there`) when one answers, else `here`; retried as the top of this file says. */
  async route<T>(operation: OperationName, there: (owner: RoutedOwner) => Promise<T>, here: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const found = await this.owner();
      if (found === null) return here();
      let outcome: { value: T } | { error: unknown };
      try {
        outcome = { value: await there(found) };
      } catch (error) {
        outcome = { error };
      }
      const gone = ownerGone('value' in outcome ? outcome.value : outcome.error);
      if (!gone || RUN_OPERATIONS.has(operation) || attempt > 0) {
        if ('error' in outcome) throw outcome.error;
        return outcome.value;
      }
      this.cached = null;
    }
  }
}
