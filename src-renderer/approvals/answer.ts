/** The answerApproval input for a verdict: `expires` goes only with `always`. */
import type { OperationInput } from '../../src-main/shared/contract.js';
import type { RememberExpiry, VerdictKind } from '../../src-main/shared/runs.js';

/** What to send for `verdict`; the expiry matters only for an always answer. */
export function answerInput(id: string, verdict: VerdictKind, expires: RememberExpiry): OperationInput<'answerApproval'> {
  return verdict === 'always' ? { id, verdict, expires } : { id, verdict };
}
