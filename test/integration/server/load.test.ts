import { describe, expect, it } from 'vitest';
import type { Envelope } from '../../../src-main/shared/contract.js';
import type { RunReport } from '../../../src-main/shared/runs.js';
import { serverHome } from './helpers.js';

describe('under load', () => {
  it('completes and records 200 concurrent runs of an auto-approved tool, each answer to its own caller', { timeout: 120_000 }, async () => {
    const h = await serverHome();
    const results = await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        const marker = `caller-${i}`;
        const { status, envelope } = await h.call('run', { skill: 'echoes', tool: 'go', args: { a: marker } });
        return { marker, status, envelope: envelope as Envelope<RunReport> };
      }),
    );
    for (const { marker, status, envelope } of results) {
      expect([marker, status]).toEqual([marker, 200]);
      if (!envelope.ok) throw new Error(`${marker}: ${envelope.error.message}`);
      expect([marker, envelope.value.result.stdout]).toEqual([marker, `${marker}\n`]);
      expect(envelope.value.decision).toMatchObject({ outcome: 'auto', by: 'policy' });
    }
    const ids = new Set(results.map((r) => (r.envelope.ok ? r.envelope.value.id : '')));
    expect(ids.size).toBe(200);
    const history = h.core.runs.history({ limit: 1000 });
    expect(history).toHaveLength(200);
    expect(new Set(history.map((r) => r.id))).toEqual(ids);
    expect(history.every((r) => r.status === 'succeeded' && r.surface === 'http')).toBe(true);
    for (const { marker, envelope } of results) {
      if (envelope.ok) expect(h.core.runs.getRun(envelope.value.id).stdout).toBe(`${marker}\n`);
    }
  });
});
