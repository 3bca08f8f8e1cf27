import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sandboxBadges } from '../../../src-renderer/approvals/labels.js';
import type { NetworkHosts } from '../../../src-main/shared/model.js';
import { SANDBOX_PROFILES, type SandboxView } from '../../../src-main/shared/runs.js';

describe('the badges of a run', () => {
  it('agree with the profile policy chose, for every profile a run can have (none is never contained)', () => {
    const views = fc
      .record<SandboxView>({
        name: fc.constantFrom(...SANDBOX_PROFILES),
        network: fc.boolean(),
        hosts: fc.oneof<[fc.Arbitrary<NetworkHosts>, fc.Arbitrary<NetworkHosts>, fc.Arbitrary<NetworkHosts>]>(
          fc.constant('host' as const),
          fc.constant(['*'] as string[]),
          fc.array(fc.domain(), { minLength: 1, maxLength: 5 }),
        ),
        contained: fc.boolean(),
        mechanism: fc.constantFrom('bubblewrap' as const, 'seatbelt' as const, null),
        why: fc.constantFrom(null, 'no sandbox here'),
      })
      .map((view) => (view.network ? view : { ...view, hosts: [] }))
      .filter((view) => !(view.contained && view.name === 'none'));
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
        // The network badge says where the network leads, and never that there is none when there is.
        const network = texts.find((t) => t === 'no network' || t === 'any host' || t === "this computer's network" || t.startsWith('network: ')) ?? '';
        if (!view.network) expect(network).toBe('no network');
        else if (view.hosts === 'host') expect(network).toBe("this computer's network");
        else if (view.hosts.includes('*')) expect(network).toBe('any host');
        else expect(network).toBe(view.hosts.length <= 2 ? `network: ${view.hosts.join(', ')}` : `network: ${view.hosts.length} hosts`);
        expect(texts.join(' ')).not.toMatch(/may change/);
      }),
    );
  });
});
