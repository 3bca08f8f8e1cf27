import { describe, expect, it } from 'vitest';
import { SkilltrayClientError } from '../../../src-main/shared/contract.js';
import type { DryRun } from '../../../src-main/shared/runs.js';
import { previewBlocks } from '../../../src-renderer/runs/run-preview.js';

const dry = (decision: DryRun['decision']): DryRun => ({
  decision,
  reason: 'why',
  error: null,
  programPath: '/bin/x',
  command: {} as DryRun['command'],
  sandbox: { name: 'read-only', network: false, hosts: [], contained: true, mechanism: 'bubblewrap', why: null },
});

describe('the Run button follows the core’s dry run', () => {
  it('waits while the core says the run would be refused or denied, or cannot render it; not while it would ask or run', () => {
    expect(previewBlocks({ dryRun: dry('auto'), error: null })).toBe(false);
    expect(previewBlocks({ dryRun: dry('ask'), error: null })).toBe(false);
    expect(previewBlocks({ dryRun: dry('refuse'), error: null })).toBe(true);
    expect(previewBlocks({ dryRun: dry('deny'), error: null })).toBe(true);
    expect(previewBlocks({ dryRun: null, error: new SkilltrayClientError({ code: 'E507', kind: 'skill_has_errors', message: 'broken' }) })).toBe(true);
    // Before the first answer, nothing is known: Run is not held back.
    expect(previewBlocks({ dryRun: null, error: null })).toBe(false);
  });
});
