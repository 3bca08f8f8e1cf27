/** The dry run's answer as one line under a tool form: what happens on Run and why, or what the form still needs. */
import type { DryRun } from '../../src-main/shared/runs.js';
import { errorCode } from '../app/error-note.js';
import { INPUT_CODES, type RunPreview } from './run-preview.js';

const TONE: Record<DryRun['decision'], string> = { auto: 'ok', ask: 'warn', deny: 'bad', refuse: 'bad' };
const LEAD: Record<DryRun['decision'], string> = { auto: 'Runs without asking', ask: 'Asks you first', deny: 'Denied', refuse: 'Cannot run' };

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
