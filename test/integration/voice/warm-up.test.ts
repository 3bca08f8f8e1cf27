/**
 * When the recogniser is kept warm: from the moment a request starts waiting with voice on (its
 * prompt being spoken), until WARM_LINGER_MS after nothing waits any more; let go at once when voice
 * is turned off or the core closes; never warmed while voice is off.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SkilltrayCore } from '../../../src-main/core/api.js';
import type { Recogniser } from '../../../src-main/core/voice/recogniser.js';
import { WARM_LINGER_MS } from '../../../src-main/core/voice/voice-desk.js';
import type { PendingEntry } from '../../../src-main/shared/runs.js';
import { testHome, writeSkill } from '../../support/temp.js';
import { writingSkill } from '../../support/voice.js';

const cores: SkilltrayCore[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const core of cores.splice(0)) await core.close();
});

function warmable() {
  const calls: string[] = [];
  const recogniser: Recogniser = {
    status: () => ({ available: true, engine: 'counted', why: null }),
    hear: () => Promise.reject(new Error('not heard here')),
    warm: () => void calls.push('warm'),
    cool: async () => void calls.push('cool'),
  };
  const t = testHome();
  writeSkill(t.skills, 'writes', writingSkill('writes'));
  const core = new SkilltrayCore(t.config(), { recogniser });
  cores.push(core);
  const ask = async (): Promise<{ entry: PendingEntry; run: Promise<unknown> }> => {
    const added = new Promise<PendingEntry>((resolve) => {
      const off = core.broker.on('added', (entry) => (off(), resolve(entry)));
    });
    const run = core.runs.run({ skill: 'writes', tool: 'go', args: { a: 'x' }, surface: 'mcp', cwd: t.work }, { approval: { kind: 'broker' } });
    return { entry: await added, run: run.catch(() => undefined) };
  };
  return { core, calls, ask };
}

describe('the recogniser kept warm', () => {
  it('is never warmed while voice is off, and is warmed when voice is turned on while a request waits', async () => {
    const w = warmable();
    const { entry, run } = await w.ask();
    expect(w.calls).toEqual([]);
    w.core.voice.setSettings({ enabled: true });
    expect(w.calls).toEqual(['warm']);
    w.core.broker.resolve(entry.id, 'deny', 'tray');
    await run;
  });

  it('is warmed as a request starts waiting, and cooled only once nothing has waited for a while', async () => {
    const w = warmable();
    w.core.voice.setSettings({ enabled: true });
    const first = await w.ask();
    expect(w.calls).toEqual(['warm']);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    w.core.broker.resolve(first.entry.id, 'deny', 'tray');
    await first.run;
    vi.advanceTimersByTime(WARM_LINGER_MS - 1);
    // The next request of a burst finds it warm: the cooling is called off.
    const second = await w.ask();
    vi.advanceTimersByTime(WARM_LINGER_MS);
    expect(w.calls).toEqual(['warm', 'warm']);
    w.core.broker.resolve(second.entry.id, 'deny', 'tray');
    await second.run;
    vi.advanceTimersByTime(WARM_LINGER_MS - 1);
    expect(w.calls).toEqual(['warm', 'warm']);
    vi.advanceTimersByTime(1);
    expect(w.calls).toEqual(['warm', 'warm', 'cool']);
  });

  it('is let go at once when voice is turned off, and when the core closes', async () => {
    const w = warmable();
    w.core.voice.setSettings({ enabled: true });
    const { entry, run } = await w.ask();
    w.core.voice.setSettings({ enabled: false });
    expect(w.calls).toEqual(['warm', 'cool']);
    w.core.broker.resolve(entry.id, 'deny', 'tray');
    await run;
    await w.core.close();
    expect(w.calls).toEqual(['warm', 'cool', 'cool']);
  });
});
