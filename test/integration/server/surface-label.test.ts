import { describe, expect, it } from 'vitest';
import { httpTransport } from '../../../src-main/server/app-link.js';
import { serverHome } from './helpers.js';

describe('the surface a forwarded run is recorded with', () => {
  it('is the bridge the caller names (cli, mcp), plain http otherwise, and never ui', async () => {
    const h = await serverHome();
    const run = (surface?: 'cli' | 'mcp') =>
      httpTransport(h.server.url, h.server.token(), surface === undefined ? {} : { surface })('run', { skill: 'echoes', tool: 'go', args: { a: surface ?? 'plain' } });
    for (const surface of ['cli', 'mcp', undefined] as const) expect((await run(surface)).ok).toBe(true);
    const claimsUi = await fetch(`${h.server.url}/api/run`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.server.token()}`, 'content-type': 'application/json', 'x-skilltray-surface': 'ui' },
      body: JSON.stringify({ skill: 'echoes', tool: 'go', args: { a: 'ui-claim' } }),
    });
    expect(claimsUi.status).toBe(200);
    const byArg = new Map(h.core.history().map((r) => [r.args.a, r.surface]));
    expect(Object.fromEntries(byArg)).toEqual({ cli: 'cli', mcp: 'mcp', plain: 'http', 'ui-claim': 'http' });
  });
});
