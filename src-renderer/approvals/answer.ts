/** The answerApproval input for a verdict: `expires` and `scope` go only with `always`. */
import type { OperationInput } from '../../src-main/shared/contract.js';
import type { RememberExpiry, RememberScope, VerdictKind } from '../../src-main/shared/runs.js';

/** How long and where an "Always" holds, as chosen on the approval card. */
export interface AlwaysTerms {
  expires: RememberExpiry;
  scope: RememberScope;
}

/** What to send for `verdict`; the terms matter only for an always answer. */
export function answerInput(id: string, verdict: VerdictKind, terms: AlwaysTerms): OperationInput<'answerApproval'> {
  return verdict === 'always' ? { id, verdict, expires: terms.expires, scope: terms.scope } : { id, verdict };
}
