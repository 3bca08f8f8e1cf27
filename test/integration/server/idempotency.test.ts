import { describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../../src-main/shared/contract.js';
import { errorOf, raw, readEvents, serverHome, type RawResponse, type ServerHome } from './helpers.js';

/** POST /api/run with an Idempotency-Key (raw, so the test sees every header). */
function run(h: ServerHome, key: string, body: unknown): Promise<RawResponse> {
  return raw(h.server.port, {
    method: 'POST',
    path: '/api/run',
    headers: { authorization: `Bearer ${h.server.token()}`, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(body),
  });
}

const isAdded = (e: ServerEvent): e is Extract<ServerEvent, { type: 'approval.added' }> => e.type === 'approval.added';

describe('POST /api/run with an Idempotency-Key', () => {
  it('runs once: a retry with the same key and body gets the same answer, replayed, and nothing runs again', async () => {
    const h = await serverHome();
    const body = { skill: 'echoes', tool: 'go', args: { a: 'once' } };
    const first = await run(h, 'key-1', body);
    const again = await run(h, 'key-1', body);
    expect(first.status).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(JSON.parse(again.body)).toEqual(JSON.parse(first.body));
    expect(h.core.runs.history()).toHaveLength(1);
    // Another key is another request: it runs.
    expect((await run(h, 'key-2', body)).status).toBe(200);
    expect(h.core.runs.history()).toHaveLength(2);
  });

  it('refuses the same key with another body (422 E813), and runs nothing', async () => {
    const h = await serverHome();
    await run(h, 'key-1', { skill: 'echoes', tool: 'go', args: { a: 'one' } });
    const other = await run(h, 'key-1', { skill: 'echoes', tool: 'go', args: { a: 'two' } });
    expect(other.status).toBe(422);
    expect(errorOf(other)).toMatchObject({ code: 'E813', kind: 'idempotency_key_reused' });
    expect(h.core.runs.history()).toHaveLength(1);
  });

  it('replays a refusal as it was given', async () => {
    const h = await serverHome();
    const body = { skill: 'echoes', tool: 'nope' };
    const first = await run(h, 'key-1', body);
    const again = await run(h, 'key-1', body);
    expect(first.status).toBeGreaterThanOrEqual(400);
    expect([again.status, again.body, again.headers['idempotent-replayed']]).toEqual([first.status, first.body, 'true']);
    // No such tool is the caller's error: answered, replayed, and never a history row.
    expect(h.core.runs.history()).toHaveLength(0);
  });

  it('a retry while the first still waits for the person gets the same answer, and the person is asked once', async () => {
    const h = await serverHome();
    const events = await readEvents(h.server);
    const body = { skill: 'asks', tool: 'go', args: { a: 'wait' } };
    const first = run(h, 'key-1', body);
    const added = await events.next(isAdded);
    const retry = run(h, 'key-1', body);
    h.core.broker.resolve(added.entry.id, 'once', 'tray');
    const [one, two] = await Promise.all([first, retry]);
    expect([one.status, two.status]).toEqual([200, 200]);
    expect(JSON.parse(two.body)).toEqual(JSON.parse(one.body));
    expect(two.headers['idempotent-replayed']).toBe('true');
    expect(events.events.filter(isAdded)).toHaveLength(1);
    expect(h.core.runs.history().map((r) => r.status)).toEqual(['succeeded']);
    events.close();
  });

  it('calls the run off when every caller waiting for the key has hung up', async () => {
    const h = await serverHome();
    const events = await readEvents(h.server);
    const caller = new AbortController();
    const first = fetch(`${h.server.url}/api/run`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.server.token()}`, 'content-type': 'application/json', 'idempotency-key': 'key-1' },
      body: JSON.stringify({ skill: 'asks', tool: 'go', args: { a: 'alone' } }),
      signal: caller.signal,
    }).catch((error: unknown) => error);
    const added = await events.next(isAdded);
    caller.abort();
    await first;
    await events.next((e) => e.type === 'approval.resolved' && e.id === added.entry.id);
    expect(h.core.runs.getRun(added.entry.id)).toMatchObject({ status: 'refused', errorCode: 'E613' });
    events.close();
  });

  it('refuses a key that is not one (400 E805) before reading the body, and runs nothing', async () => {
    const h = await serverHome();
    const response = await run(h, 'has a space', { skill: 'echoes', tool: 'go' });
    expect(response.status).toBe(400);
    expect(errorOf(response).code).toBe('E805');
    expect(h.core.runs.history()).toHaveLength(0);
  });
});
