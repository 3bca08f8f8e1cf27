/** The answerApproval input for a verdict: `expires` and `scope` go only with `always`. */
import type { OperationInput } from '../../src-main/shared/contract.js';
import type { RememberExpiry, RememberScope, VerdictKind } from '../../src-main/shared/runs.js';

/** What to send for `verdict`; the expiry and the scope matter only for an always answer. */
export function answerInput(id: string, verdict: VerdictKind, expires: RememberExpiry, scope: RememberScope): OperationInput<'answerApproval'> {
  return verdict === 'always' ? { id, verdict, expires, scope } : { id, verdict };
}
