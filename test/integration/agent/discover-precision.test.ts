/**
 * The bench's discover figures as a floor: precision@1 of at least 0.95 over the bundled packs, on
 * the labelled intents and on the held-out ones the ranking was never tuned on. Only counts are
 * reported for the held-out set, so reading a failure does not turn it into a tuning set.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SkilltrayCore } from '../../../src-main/core/api.js';
import { HELD_OUT_INTENTS } from '../../../bench/discovery-heldout.js';
import { LABELLED_INTENTS, type LabelledIntent } from '../../../bench/discovery-intents.js';
import { testHome } from '../../support/temp.js';
import { SKILLS_DIR } from '../packs/bundled-packs.js';

const cores: SkilltrayCore[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
});

/** The intents whose first result is not the labelled skill. */
function missesAt1(intents: readonly LabelledIntent[]): LabelledIntent[] {
  const core = new SkilltrayCore(testHome({ bundled: SKILLS_DIR }).config());
  cores.push(core);
  return intents.filter(({ intent, skill, roleFilter }) => core.agent.discover(intent, roleFilter ? { roleFilter } : {}).results[0]?.skill_id !== skill);
}

describe('discover precision@1 over the bundled packs', () => {
  it('is at least 0.95 on the labelled intents', () => {
    const misses = missesAt1(LABELLED_INTENTS);
    expect(LABELLED_INTENTS.length).toBeGreaterThanOrEqual(100);
    expect(misses.length / LABELLED_INTENTS.length, misses.map((m) => m.intent).join(' | ')).toBeLessThanOrEqual(0.05);
  });

  it('is at least 0.95 on the held-out intents', () => {
    const misses = missesAt1(HELD_OUT_INTENTS).length;
    expect(HELD_OUT_INTENTS.length).toBeGreaterThanOrEqual(20);
    expect(misses / HELD_OUT_INTENTS.length, `${misses} of ${HELD_OUT_INTENTS.length} held-out intents missed`).toBeLessThanOrEqual(0.05);
  });
});
