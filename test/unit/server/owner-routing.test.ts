import { describe, expect, it, vi } from 'vitest';
import { OwnerRouting, type RoutedOwner } from '../../../src-main/server/owner-routing.js';
import { SkilltrayClientError, type Envelope } from '../../../src-main/shared/contract.js';

const unreachable = { code: 'E807', kind: 'app_not_reachable', message: 'the Skilltray app is not reachable at http://127.0.0.1:1: gone' } as const;
const gone: Envelope<never> = { ok: false, error: unreachable };
const owner = { link: { url: 'http://127.0.0.1:1', token: 't', owner: 'serve' } } as RoutedOwner;

/** A routing whose owner is found (first look), then gone (every later look). */
function routing(): OwnerRouting {
  const routed = new OwnerRouting({ home: '/nowhere', surface: 'cli' });
  vi.spyOn(routed, 'owner').mockResolvedValueOnce(owner).mockResolvedValue(null);
  return routed;
}

describe('the one owner-routing policy (CLI and MCP)', () => {
  it('routes a reading call once more, here, when the owner went away (E807 as an envelope or thrown)', async () => {
    const here = vi.fn(async () => ({ ok: true, value: 'here' }) as Envelope<string>);
    expect(await routing().route('history', async () => gone, here)).toEqual({ ok: true, value: 'here' });
    expect(
      await routing().route(
        'settings',
        () => Promise.reject(new SkilltrayClientError(unreachable)),
        async () => 'typed here',
      ),
    ).toBe('typed here');
    expect(here).toHaveBeenCalledTimes(1);
  });

  it('never runs a run or attach a second time: its E807 comes back, and nothing runs here', async () => {
    const here = vi.fn(async () => ({ ok: true, value: 'ran here' }) as Envelope<string>);
    for (const operation of ['run', 'attach'] as const) expect(await routing().route(operation, async () => gone, here)).toBe(gone);
    await expect(routing().route('run', () => Promise.reject(new SkilltrayClientError(unreachable)), here)).rejects.toMatchObject({ code: 'E807' });
    expect(here).not.toHaveBeenCalled();
  });

  it("keeps the owner's own errors: only E807 reroutes", async () => {
    const denied: Envelope<never> = { ok: false, error: { code: 'E603', kind: 'denied_by_user', message: 'denied' } };
    const here = vi.fn(async () => ({ ok: true, value: 'here' }) as Envelope<string>);
    expect(await routing().route('history', async () => denied, here)).toBe(denied);
    expect(here).not.toHaveBeenCalled();
  });
});
