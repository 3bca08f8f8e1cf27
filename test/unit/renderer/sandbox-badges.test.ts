import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sandboxBadges } from '../../../src-renderer/approvals/labels.js';
import { SANDBOX_PROFILES, type SandboxView } from '../../../src-main/shared/runs.js';

describe('the badges of a run', () => {
  it('agree with the profile policy chose, for every profile a run can have (none is never contained)', () => {
    const views = fc.record<SandboxView>({
      name: fc.constantFrom(...SANDBOX_PROFILES),
      network: fc.boolean(),
      contained: fc.boolean(),
      mechanism: fc.constantFrom('bubblewrap' as const, 'seatbelt' as const, null),
      why: fc.constantFrom(null, 'no sandbox here'),
    }).filter((view) => !(view.contained && view.name === 'none'));
    fc.assert(
      fc.property(views, (view) => {
        const texts = sandboxBadges(view).map((b) => b.text);
        if (!view.contained) {
          expect(texts).toEqual(['not contained']);
          return;
        }
        // A read-only run is never labelled as one that may change things.
        expect(texts.includes('read-only')).toBe(view.name === 'read-only');
        expect(texts.includes('writes in its folder')).toBe(view.name === 'workspace');
        expect(texts.includes(view.network ? 'network' : 'no network')).toBe(true);
        expect(texts.join(' ')).not.toMatch(/may change/);
      }),
    );
  });
});
