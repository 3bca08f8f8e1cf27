/**
 * The asking phase of a run: who can answer when policy says ask (a person at the terminal, the
 * owner's broker the tray answers, a `--yes` given in advance, or nobody), and waiting for them.
 */
import { policyErrors } from '../../shared/error-messages/policy.js';
import type { ApprovalBroker } from '../policy/approval-broker.js';
import type { PendingApproval, Verdict } from '../../shared/runs.js';

/** How long a run waits for a person before it gives up (E604). */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 5 * 60 * 1000;

/** Who can answer when policy says ask (RunOptions.approval names one). */
export type Approver =
  /** The owning process: the request waits in the broker for the tray, the browser UI or `skilltray approve`. */
  | { kind: 'broker'; timeoutMs?: number }
  /** A person at this terminal answers directly. */
  | { kind: 'prompt'; ask: (pending: PendingApproval) => Promise<Verdict> }
  /** The person already said yes for this one call (`--yes`). */
  | { kind: 'preapproved'; actor: string }
  /** Nobody can be asked: a run that needs approval fails with E601. */
  | { kind: 'none' };

/** Asks whoever `approval` names; E601 when nobody can be asked, E604 on timeout, E613 when the caller withdraws. */
export async function askPerson(broker: ApprovalBroker, pending: PendingApproval, approval: Approver, signal?: AbortSignal): Promise<Verdict> {
  switch (approval.kind) {
    case 'preapproved':
      return { verdict: 'once', actor: approval.actor };
    case 'prompt':
      return approval.ask(pending);
    case 'broker': {
      const request = broker.request(pending, { timeoutMs: approval.timeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS });
      // The requester went away (an HTTP client hung up): withdraw the approval (E613) so nobody approves a run nobody awaits.
      const withdraw = (): void => void broker.cancel(pending.id);
      if (signal?.aborted) withdraw();
      else signal?.addEventListener('abort', withdraw, { once: true });
      return request.finally(() => signal?.removeEventListener('abort', withdraw));
    }
    case 'none':
      throw policyErrors.approvalRequired(pending.skill, pending.tool, pending.reason);
  }
}
