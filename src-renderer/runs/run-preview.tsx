/**
 * What the policy says a run would do, before it is asked for: the core's dry run with the form's
 * current values (rendered, decided, nothing started), refreshed as the form, the settings, the
 * rules or the skill change. The page shows the core's answer; it decides nothing itself.
 */
import type { DryRun } from '../../src-main/shared/runs.js';
import { errorCode } from '../app/error-note.js';
import { useResource } from '../app/use-resource.js';

export interface RunPreview {
  /** The dry run, once the core could render and decide it. */
  dryRun: DryRun | null;
  /** Why the core could not render it (a missing or bad value, a broken skill). */
  error: Error | null;
}

/** The dry run of `tool` with `args` (and `cwd`), kept current. */
export function useRunPreview(skill: string, tool: string, args: Record<string, unknown>, cwd: string): RunPreview {
  const input = { skill, tool, args, ...(cwd.trim() === '' ? {} : { cwd: cwd.trim() }) };
  const preview = useResource(
    `dryRun\n${JSON.stringify(input)}`,
    (client) => client.dryRun(input),
    (e) => e.type === 'settings' || e.type === 'policy.changed' || (e.type === 'skills.changed' && e.name === skill),
  );
  return { dryRun: preview.data ?? null, error: preview.error };
}

/** Codes of values the person has yet to fill in or fix in the form. */
const INPUT_CODES = new Set(['E501', 'E502', 'E503', 'E504', 'E505', 'E508']);

/** Whether the Run button should wait: the core says the run would be refused or denied, or cannot be rendered. */
export function previewBlocks(preview: RunPreview): boolean {
  if (preview.error) return true;
  return preview.dryRun !== null && (preview.dryRun.decision === 'deny' || preview.dryRun.decision === 'refuse');
}

const TONE: Record<DryRun['decision'], string> = { auto: 'ok', ask: 'warn', deny: 'bad', refuse: 'bad' };
const LEAD: Record<DryRun['decision'], string> = { auto: 'Runs without asking', ask: 'Asks you first', deny: 'Denied', refuse: 'Cannot run' };

/** One line: what happens on Run and the policy's reason, or what the form still needs. */
export function RunPreviewLine({ preview, id }: { preview: RunPreview; id?: string }) {
  if (preview.error) {
    const input = INPUT_CODES.has(errorCode(preview.error) ?? '');
    return (
      <p id={id} className={`preview preview-${input ? 'input' : 'bad'}`} role="status">
        <strong>{input ? 'Not ready' : 'Cannot run'}</strong> <span>{preview.error.message}</span>
      </p>
    );
  }
  if (!preview.dryRun) return null;
  const { decision, reason } = preview.dryRun;
  return (
    <p id={id} className={`preview preview-${TONE[decision]}`} role="status">
      <strong>{LEAD[decision]}</strong> <span>{reason}</span>
    </p>
  );
}
