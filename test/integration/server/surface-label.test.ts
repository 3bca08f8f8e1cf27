import { describe, expect, it } from 'vitest';
import { httpTransport } from '../../../src-main/server/app-link.js';
import type { ServerEvent } from '../../../src-main/shared/contract.js';
import { readEvents, serverHome } from './helpers.js';

describe('the surface a forwarded run is recorded with', () => {
  it('is the bridge the caller names (cli, mcp), plain http otherwise, and never ui', async () => {
    const h = await serverHome();
    const run = (surface?: 'cli' | 'mcp') =>
      httpTransport(
        h.server.url,
        h.server.token(),
        surface === undefined ? {} : { surface },
      )('run', { skill: 'echoes', tool: 'go', args: { a: surface ?? 'plain' } });
    for (const surface of ['cli', 'mcp', undefined] as const) expect((await run(surface)).ok).toBe(true);
    const claimsUi = await fetch(`${h.server.url}/api/run`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.server.token()}`, 'content-type': 'application/json', 'x-skilltray-surface': 'ui' },
      body: JSON.stringify({ skill: 'echoes', tool: 'go', args: { a: 'ui-claim' } }),
    });
    expect(claimsUi.status).toBe(200);
    const byArg = new Map(h.core.runs.history().map((r) => [r.args.a, r.surface]));
    expect(Object.fromEntries(byArg)).toEqual({ cli: 'cli', mcp: 'mcp', plain: 'http', 'ui-claim': 'http' });
  });

  it('is browser for the UI served over HTTP (same Origin): its runs are browser and its answers are by browser, never the tray', async () => {
    const h = await serverHome();
    const events = await readEvents(h.server);
    // Every header a token holder could send to pass for the app's own window.
    const pretending: Record<string, string>[] = [
      { origin: h.server.url },
      { origin: h.server.url, 'x-skilltray-surface': 'ui' },
      { origin: h.server.url, 'x-skilltray-surface': 'tray' },
      { origin: h.server.url.replace('127.0.0.1', 'localhost'), 'x-skilltray-surface': 'browser' },
    ];
    const post = (operation: string, body: unknown, headers: Record<string, string>) =>
      fetch(`${h.server.url}/api/${operation}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.server.token()}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    for (const [i, headers] of pretending.entries()) {
      const asked = post('run', { skill: 'asks', tool: 'go', args: { a: `pretend-${i}` } }, headers);
      const added = await events.next(
        (e): e is Extract<ServerEvent, { type: 'approval.added' }> =>
          e.type === 'approval.added' && h.core.broker.list().some((p) => p.id === e.entry.id && p.args.a === `pretend-${i}`),
      );
      expect(added.entry.surface).toBe('browser');
      expect((await post('answerApproval', { id: added.entry.id, verdict: 'once' }, headers)).status).toBe(200);
      expect((await asked).status).toBe(200);
      expect(h.core.runs.getRun(added.entry.id)).toMatchObject({
        surface: 'browser',
        outcome: 'approved',
        decidedBy: 'user',
        actor: 'browser',
        status: 'succeeded',
      });
    }
    expect(h.core.runs.history().filter((r) => r.surface === 'ui' || r.actor === 'tray')).toEqual([]);
    events.close();
  });
});
