/** Where a CLI command's call runs: at the process that owns runs when one is running, else here. */
import { setTimeout as sleep } from 'node:timers/promises';
import type { SkilltrayCore } from '../core/api.js';
import type { Approver } from '../core/api.js';
import { onShutdownSignal } from '../server/shutdown-signals.js';
import type { OperationName, SkilltrayClient } from '../shared/contract.js';
import type { PendingEntry } from '../shared/runs.js';
import type { ParsedArgs } from './args.js';
import type { CliContext } from './command.js';
import { cliRouting, type RunningOwner } from './owner-link.js';
import { actor, terminalApproval } from './terminal-approval.js';

/** How often a forwarded run is looked for among the owner's approvals. */
const WAITING_POLL_MS = 200;

/** Once the owner asks about the forwarded run carrying `traceId`, hands its pending entry to `then`; looks until it shows up or the call ends. */
async function whenAsked(owner: RunningOwner, traceId: string, call: Promise<unknown>, then: (entry: PendingEntry) => Promise<void>): Promise<void> {
  let ended = false;
  const settled = call.then(
    () => (ended = true),
    () => (ended = true),
  );
  while (!ended) {
    const pending = await owner.client.approvals({}).catch(() => []);
    const entry = pending.find((p) => p.traceId === traceId);
    if (entry !== undefined) return then(entry);
    await Promise.race([settled, sleep(WAITING_POLL_MS)]);
  }
}

/** Says on stderr where a forwarded run waits for approval: its id, and where to answer it (the app, serve's browser UI, or `skilltray approve`). */
async function sayWhereItWaits(ctx: CliContext, owner: RunningOwner, entry: PendingEntry): Promise<void> {
  const where = owner.link.owner === 'app' ? 'in the Skilltray app' : `at ${owner.link.url}/#/approvals (the browser UI of skilltray serve --web)`;
  ctx.io.err(`run ${entry.id} waits for your approval ${where}; or answer it here: skilltray approve ${entry.id} (or deny ${entry.id})\n`);
}

/**
 * With `--yes` and an owner running: answers "once", as the person at this terminal, the approval the
 * owner asks for this run; the owner then runs it. A run policy allows needs no answer and one policy
 * denies is never asked, so `--yes` overrides neither.
 */
async function approveHere(ctx: CliContext, args: ParsedArgs, owner: RunningOwner, entry: PendingEntry): Promise<void> {
  // Answered at the desktop first, or withdrawn meanwhile: the run's own outcome says which.
  const answered = await owner.client.answerApproval({ id: entry.id, verdict: 'once' }).then(
    () => true,
    () => false,
  );
  if (answered && !args.options.json)
    ctx.io.err(`run ${entry.id} approved here (--yes); ${owner.link.owner === 'app' ? 'the Skilltray app' : 'skilltray serve'} runs it\n`);
}

/**
 * Runs a call where it belongs (server/owner-routing.ts). With an owner running (the app or serve)
 * the run is its to ask about, run and record — under `traceId` (the caller's, else a new one), by
 * which this command says where it waits, or with `--yes` answers the owner's question itself as the
 * person at this terminal. With no owner the run is this process's: `--yes` approves it, a TTY asks,
 * anything else is refused with E601.
 */
export async function runHereOrThere<T>(
  ctx: CliContext,
  args: ParsedArgs,
  call: {
    operation: 'run' | 'attach';
    traceId?: string;
    there: (client: SkilltrayClient, traceId: string) => Promise<T>;
    here: (approval: Approver) => Promise<T>;
  },
): Promise<T> {
  const there = async (owner: RunningOwner): Promise<T> => {
    const { link } = owner;
    if (!args.options.json) ctx.io.err(`forwarded to ${link.owner === 'app' ? 'the Skilltray app' : 'skilltray serve'} at ${link.url}\n`);
    // node:crypto only when a run is forwarded: every other command starts without it. Taken, not
    // imported: a chunk holding a dynamic import keeps no code cache (cli/code-cache.ts).
    const traceId = call.traceId ?? process.getBuiltinModule('node:crypto').randomUUID();
    const result = call.there(owner.client, traceId);
    if (args.options.yes) void whenAsked(owner, traceId, result, (entry) => approveHere(ctx, args, owner, entry));
    else if (!args.options.json) void whenAsked(owner, traceId, result, (entry) => sayWhereItWaits(ctx, owner, entry));
    return result;
  };
  return cliRouting(ctx.config().home).route(call.operation, there, async () => {
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
  });
}

/**
 * Reads or changes settings and records where they live: in the running owner when there is one, so
 * its tray and UI follow (and hear the events), else in this process's core as before.
 */
export async function atOwnerOrHere<T>(
  ctx: CliContext,
  call: { operation: OperationName; there: (client: SkilltrayClient) => Promise<T>; here: (core: SkilltrayCore) => T },
): Promise<T> {
  return cliRouting(ctx.config().home).route(
    call.operation,
    (owner) => call.there(owner.client),
    async () => call.here(await ctx.core()),
  );
}
