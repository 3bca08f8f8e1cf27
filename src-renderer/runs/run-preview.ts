/** What the core's dry run of a tool form says, and whether it holds the Run button back. */
import type { DryRun } from '../../src-main/shared/runs.js';

export interface RunPreview {
  /** The dry run, once the core could render and decide it. */
  dryRun: DryRun | null;
  /** Why the core could not render it (a missing or bad value, a broken skill). */
  error: Error | null;
}

/** Codes of values the person has yet to fill in or fix in the form. */
export const INPUT_CODES = new Set(['E501', 'E502', 'E503', 'E504', 'E505', 'E508']);

/** Whether the Run button should wait: the core says the run would be refused or denied, or cannot be rendered. */
export function previewBlocks(preview: RunPreview): boolean {
  if (preview.error) return true;
  return preview.dryRun !== null && (preview.dryRun.decision === 'deny' || preview.dryRun.decision === 'refuse');
}
