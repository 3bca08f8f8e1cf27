/** Where a CLI command's call runs: at the process that owns runs when one is running, else here. */
import { setTimeout as sleep } from 'node:timers/promises';
import type { SkilltrayCore } from '../core/api.js';
import type { Approval } from '../core/runs/run-service.js';
import { onShutdownSignal } from '../server/shutdown-signals.js';
import type { SkilltrayClient } from '../shared/contract.js';
import type { ParsedArgs } from './args.js';
import type { CliContext } from './command.js';
import { findRunningOwner, type RunningOwner } from './owner-link.js';
import { actor, terminalApproval } from './terminal-approval.js';

/** How often a forwarded run is looked for among the owner's approvals, to say where it waits. */
const WAITING_POLL_MS = 200;

/**
 * Once a forwarded run waits for approval, says so on stderr: its id, and where to answer it (the
 * app, serve's browser UI, or `skilltray approve`). Looks until the run shows up or the call ends.
 */
async function sayWhereItWaits(ctx: CliContext, owner: RunningOwner, traceId: string, call: Promise<unknown>): Promise<void> {
  let ended = false;
  const settled = call.then(
    () => (ended = true),
    () => (ended = true),
  );
  while (!ended) {
    const pending = await owner.client.approvals({}).catch(() => []);
    const entry = pending.find((p) => p.traceId === traceId);
    if (entry !== undefined) {
      const where = owner.link.owner === 'app' ? 'in the Skilltray app' : `at ${owner.link.url}/#/approvals (the browser UI of skilltray serve --web)`;
      ctx.io.err(`run ${entry.id} waits for your approval ${where}; or answer it here: skilltray approve ${entry.id} (or deny ${entry.id})\n`);
      return;
    }
    await Promise.race([settled, sleep(WAITING_POLL_MS)]);
  }
}

/**
 * Runs a call where it belongs. With an owner running (the app or serve) the run is its to ask about
 * and record — under `traceId` (the caller's, else a new one), by which this command says where it
 * waits; `--yes` means the person at this terminal already approved, so that run stays here, as
 * does any run when no owner is running (asked on a TTY, else refused with E601).
 */
export async function runHereOrThere<T>(
  ctx: CliContext,
  args: ParsedArgs,
  call: { traceId?: string; there: (client: SkilltrayClient, traceId: string) => Promise<T>; here: (approval: Approval) => Promise<T> },
): Promise<T> {
  const owner = args.options.yes ? null : await findRunningOwner(ctx.config().home);
  if (owner !== null) {
    const { link } = owner;
    if (!args.options.json) ctx.io.err(`forwarded to ${link.owner === 'app' ? 'the Skilltray app' : 'skilltray serve'} at ${link.url}\n`);
    // node:crypto only when a run is forwarded: every other command starts without it.
    const traceId = call.traceId ?? (await import('node:crypto')).randomUUID();
    const result = call.there(owner.client, traceId);
    if (!args.options.json) void sayWhereItWaits(ctx, owner, traceId, result);
    return result;
  }
  // This process owns the run: a signal stops its tool (recorded as interrupted) instead of leaving it running.
  const release = onShutdownSignal((signal) => {
    ctx.io.err(`${signal}: stopping the run\n`);
    // runCli awaits the same close and reports its failure.
    ctx
      .core()
      .then((core) => core.close(`${signal} to the skilltray command`))
      .catch(() => undefined);
  });
  try {
    return await call.here(args.options.yes ? { kind: 'preapproved', actor: actor('--yes') } : ctx.io.interactive ? terminalApproval(ctx) : { kind: 'none' });
  } finally {
    release();
  }
}

/**
 * Reads or changes settings and records where they live: in the running owner when there is one, so
 * its tray and UI follow (and hear the events), else in this process's core as before.
 */
export async function atOwnerOrHere<T>(ctx: CliContext, call: { there: (client: SkilltrayClient) => Promise<T>; here: (core: SkilltrayCore) => T }): Promise<T> {
  const owner = await findRunningOwner(ctx.config().home);
  return owner === null ? call.here(await ctx.core()) : call.there(owner.client);
}
