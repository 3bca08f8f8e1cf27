import { describe, expect, it } from 'vitest';
import { SkilltrayCore } from '../../../src-main/core/api.js';
import { testHome } from '../../support/temp.js';
import { waitFor } from '../server/helpers.js';

describe('history maintenance on a schedule', () => {
  it('runs after its first delay and then again every period, until the core closes', async () => {
    const core = new SkilltrayCore(testHome().config());
    expect(core.preferences.historyUsage().lastMaintenance).toBeNull();
    core.preferences.startMaintenance(5, 0);
    const first = await waitFor(() => core.preferences.historyUsage().lastMaintenance ?? undefined);
    expect(first).toMatchObject({ droppedByAge: 0, droppedBySize: 0 });
    await waitFor(() => (core.preferences.historyUsage().lastMaintenance !== first ? true : undefined));
    await core.close();
  });
});
