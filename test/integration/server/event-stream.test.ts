import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { ServerEvent } from '../../../src-main/shared/contract.js';
import type { RunNotice } from '../../../src-main/shared/runs.js';
import { MAX_BACKLOG_BYTES, MAX_STREAMS_PER_TOKEN } from '../../../src-main/server/event-stream.js';
import { testHome, writeSkill } from '../../support/temp.js';
import { BEHAVE, NODE, errorOf, raw, readEvents, serverHome, toolSkill, waitFor, type ServerHome } from './helpers.js';

type RunMessage = Extract<ServerEvent, { type: 'run' }>;
const runNotice =
  (type: RunNotice['type']) =>
  (e: ServerEvent): e is RunMessage =>
    e.type === 'run' && e.event.type === type;

/** `GET /api/events` on a raw socket that reads nothing unless told: a subscriber that stalls. */
function rawSubscriber(h: ServerHome): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(h.server.port, '127.0.0.1', () => {
      socket.write(`GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:${h.server.port}\r\nAuthorization: Bearer ${h.server.token()}\r\n\r\n`);
      socket.once('data', () => {
        socket.pause();
        resolve(socket);
      });
    });
    socket.once('error', reject);
  });
}

describe('the event stream', () => {
  it('serialises each event once, however many subscribe, and every subscriber gets the same bytes', async () => {
    const h = await serverHome();
    const readers = await Promise.all(Array.from({ length: 20 }, () => readEvents(h.server)));
    const stringify = JSON.stringify;
    let serialised = 0;
    JSON.stringify = ((value: unknown, ...rest: unknown[]) => {
      if ((value as { type?: unknown } | null)?.type === 'settings') serialised++;
      return stringify(value, ...(rest as []));
    }) as typeof JSON.stringify;
    try {
      h.core.preferences.setPaused(true);
      const heard = await Promise.all(readers.map((reader) => reader.next((e) => e.type === 'settings')));
      expect(new Set(heard.map((event) => stringify(event))).size).toBe(1);
    } finally {
      JSON.stringify = stringify;
    }
    expect(serialised).toBe(1);
    for (const reader of readers) reader.close();
  });

  it('tells of a run by reference and small summaries; its output is fetched by id, live while it runs', async () => {
    const t = testHome();
    writeSkill(t.bundled, 'chatty', toolSkill('chatty', `${NODE} ${BEHAVE} out:started <<a>> out:done`, { read_only: true, timeout: 60 }));
    const h = await serverHome({}, t);
    const events = await readEvents(h.server);
    const posted = h.call('run', { skill: 'chatty', tool: 'go', args: { a: 'sleep:60000' } });
    const output = await events.next(runNotice('output'));
    expect(output.event).toEqual({ type: 'output', id: output.event.id, stream: 'stdout', bytes: 'started'.length });
    // While it runs, getRun has what it printed so far.
    expect((await h.call('getRun', { id: output.event.id })).envelope).toMatchObject({ ok: true, value: { stdout: 'started', endedAt: null } });
    await h.call('cancelRun', { id: output.event.id });
    const finished = await events.next(runNotice('finished'));
    expect(finished.event.type === 'finished' && finished.event.result).toMatchObject({ cancelled: true, droppedBytes: { stdout: 0, stderr: 0 } });
    await posted;
    for (const event of events.events) {
      if (event.type !== 'run') continue;
      expect(Object.keys(event.event)).not.toContain('command');
      expect(Object.keys(event.event)).not.toContain('text');
      if (event.event.type === 'finished')
        expect(Object.keys(event.event.result).sort()).toEqual(['cancelled', 'droppedBytes', 'durationMs', 'exitCode', 'limitHit', 'signal', 'timedOut']);
    }
    expect(h.core.runs.getRun(output.event.id)).toMatchObject({ stdout: 'started', status: 'cancelled' });
    events.close();
  });

  it(`holds at most ${MAX_STREAMS_PER_TOKEN} streams per token: the next is 429 E811 with Retry-After, until one closes`, { timeout: 60_000 }, async () => {
    const h = await serverHome();
    const open = await Promise.all(Array.from({ length: MAX_STREAMS_PER_TOKEN }, () => rawSubscriber(h)));
    const refused = await raw(h.server.port, { path: '/api/events', headers: { authorization: `Bearer ${h.server.token()}` } });
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('5');
    expect(errorOf(refused)).toMatchObject({ code: 'E811', kind: 'too_many_streams' });
    const closed = open.pop() as Socket;
    const gone = new Promise((resolve) => closed.once('close', resolve));
    closed.destroy();
    await gone;
    const again = await waitFor(async () => {
      const reader = await readEvents(h.server).catch(() => undefined);
      return reader;
    });
    again.close();
    for (const socket of open) socket.destroy();
  });

  it('drops a subscriber that stops reading once its byte budget is queued, while one that reads gets every event', { timeout: 60_000 }, async () => {
    const h = await serverHome();
    const stalled = await rawSubscriber(h);
    const reader = await readEvents(h.server);
    const dropped = new Promise((resolve) => stalled.once('close', resolve));
    // Twenty times the budget in events of 100 KiB each, past what loopback's socket buffers hold too;
    // each sent once the reading subscriber has the one before, so only the stalled one falls behind.
    const count = Math.ceil((20 * MAX_BACKLOG_BYTES) / (100 * 1024));
    for (let i = 0; i < count; i++) {
      h.core.emit('event', { type: 'skills.changed', kind: 'changed', name: `${i}-${'n'.repeat(100 * 1024)}` });
      await reader.next((e) => e.type === 'skills.changed' && e.name.startsWith(`${i}-`));
    }
    expect(reader.events.filter((e) => e.type === 'skills.changed')).toHaveLength(count);
    // The stalled one is cut off by the server: reading again, it finds its stream ended.
    stalled.resume();
    await dropped;
    reader.close();
  });
});
