import { describe, expect, it } from 'vitest';
import type { Envelope, ServerEvent } from '../../../src-main/shared/contract.js';
import type { PendingEntry, RunEvent, RunReport } from '../../../src-main/shared/runs.js';
import { NODE, readEvents, serverHome, waitFor } from './helpers.js';

type Added = Extract<ServerEvent, { type: 'approval.added' }>;
type Resolved = Extract<ServerEvent, { type: 'approval.resolved' }>;
type RunMessage = Extract<ServerEvent, { type: 'run' }>;

const isAdded = (e: ServerEvent): e is Added => e.type === 'approval.added';
const runEvent =
  (id: string, type: RunEvent['type']) =>
  (e: ServerEvent): e is RunMessage =>
    e.type === 'run' && e.event.type === type && e.event.id === id;

describe('runs that need a person, over HTTP', () => {
  it('streams approval.added naming the run, approvals has its program and argv, and the waiting POST returns once approved', async () => {
    const h = await serverHome();
    const events = await readEvents(h.server);
    // An earlier run first: each run's events must still arrive once, not once per run so far.
    expect((await h.call('run', { skill: 'echoes', tool: 'go', args: { a: 'earlier' } })).status).toBe(200);
    const posted = h.call('run', { skill: 'asks', tool: 'go', args: { a: 'two words', b: 'second' } });
    const added = await events.next(isAdded);
    // The event names the run and says until when it waits; the request itself is fetched from approvals.
    expect(Object.keys(added.entry).sort()).toEqual(['expiresAt', 'id', 'requestedAt', 'skill', 'surface', 'tool', 'traceId']);
    expect(added.entry).toMatchObject({ skill: 'asks', tool: 'go', surface: 'http' });
    expect(added.entry.expiresAt).toBeGreaterThan(Date.now());
    const { envelope: queue } = await h.call('approvals', {});
    const [entry] = (queue as Extract<Envelope<PendingEntry[]>, { ok: true }>).value;
    expect(entry).toMatchObject({ id: added.entry.id, trust: 'user', programPath: NODE, args: { a: 'two words', b: 'second' } });
    expect(entry?.argv.slice(1)).toEqual(['two words', 'second']);
    const answered = await h.call('answerApproval', { id: added.entry.id, verdict: 'once' });
    expect(answered).toEqual({ status: 200, envelope: { ok: true, value: { ok: true } } });
    const resolved = await events.next((e): e is Resolved => e.type === 'approval.resolved' && e.id === added.entry.id);
    expect(resolved.outcome).toBe('verdict');
    await events.next(runEvent(added.entry.id, 'decided'));
    await events.next(runEvent(added.entry.id, 'started'));
    const finished = await events.next(runEvent(added.entry.id, 'finished'));
    const { status, envelope } = await posted;
    expect(status).toBe(200);
    const report = (envelope as Extract<Envelope<RunReport>, { ok: true }>).value;
    expect(report.id).toBe(added.entry.id);
    expect(JSON.parse(report.result.stdout)).toEqual(['two words', 'second']);
    expect(finished.event).toMatchObject({ type: 'finished', result: { exitCode: 0 } });
    expect(events.events.filter(runEvent(added.entry.id, 'finished'))).toHaveLength(1);
    expect(events.events.filter((e) => e.type === 'approval.added')).toHaveLength(1);
    expect(h.core.runs.getRun(report.id)).toMatchObject({ status: 'succeeded', outcome: 'approved', decidedBy: 'user', actor: 'http' });
    events.close();
  });

  it('returns 409 E603 when the person denies, and nothing starts', async () => {
    const h = await serverHome();
    const events = await readEvents(h.server);
    const posted = h.call('run', { skill: 'asks', tool: 'go', args: { a: 'x' } });
    const added = await events.next(isAdded);
    h.core.broker.resolve(added.entry.id, 'deny', 'tray');
    const { status, envelope } = await posted;
    expect(status).toBe(409);
    expect(envelope).toMatchObject({ ok: false, error: { code: 'E603', kind: 'denied_by_user', details: { runId: added.entry.id } } });
    expect(events.events.some(runEvent(added.entry.id, 'started'))).toBe(false);
    expect(h.core.runs.getRun(added.entry.id)).toMatchObject({ status: 'denied', startedAt: null });
    events.close();
  });

  it('returns 409 E604 when nobody answers in time', async () => {
    const h = await serverHome({ approvalTimeoutMs: 300 });
    const events = await readEvents(h.server);
    const { status, envelope } = await h.call('run', { skill: 'asks', tool: 'go', args: { a: 'x' } });
    expect(status).toBe(409);
    expect(envelope).toMatchObject({ ok: false, error: { code: 'E604', kind: 'approval_timed_out' } });
    const resolved = await events.next((e): e is Resolved => e.type === 'approval.resolved');
    expect(resolved.outcome).toBe('timeout');
    expect(h.core.broker.list()).toEqual([]);
    events.close();
  });

  it('withdraws the approval when the caller hangs up while waiting', async () => {
    const h = await serverHome();
    const events = await readEvents(h.server);
    const caller = new AbortController();
    const posted = fetch(`${h.server.url}/api/run`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.server.token()}`, 'content-type': 'application/json' },
      body: JSON.stringify({ skill: 'asks', tool: 'go', args: { a: 'x' } }),
      signal: caller.signal,
    }).catch((error: unknown) => error);
    const added = await events.next(isAdded);
    caller.abort();
    expect(await posted).toBeInstanceOf(Error);
    const resolved = await events.next((e): e is Resolved => e.type === 'approval.resolved' && e.id === added.entry.id);
    expect(resolved.outcome).toBe('cancelled');
    expect(h.core.broker.list()).toEqual([]);
    expect(h.core.runs.getRun(added.entry.id)).toMatchObject({ status: 'refused', errorCode: 'E613', decidedBy: 'caller', startedAt: null });
    events.close();
  });

  it('cancels the run when the caller hangs up while it runs', async () => {
    const h = await serverHome();
    const events = await readEvents(h.server);
    const caller = new AbortController();
    const posted = fetch(`${h.server.url}/api/run`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.server.token()}`, 'content-type': 'application/json' },
      body: JSON.stringify({ skill: 'behaves', tool: 'go', args: { a: 'out:started', b: 'sleep:30000' } }),
      signal: caller.signal,
    }).catch((error: unknown) => error);
    const added = await events.next(isAdded);
    h.core.broker.resolve(added.entry.id, 'once', 'tray');
    await events.next((e): e is RunMessage => e.type === 'run' && e.event.type === 'output' && e.event.id === added.entry.id);
    // The tool sleeps 30 s: only cancelling it lets 'finished' arrive within the test's timeout.
    caller.abort();
    expect(await posted).toBeInstanceOf(Error);
    const finished = await events.next(runEvent(added.entry.id, 'finished'));
    expect(finished.event).toMatchObject({ result: { cancelled: true } });
    expect(h.core.runs.getRun(added.entry.id)).toMatchObject({ status: 'cancelled', stdout: 'started' });
    events.close();
  });

  it('sends a heartbeat comment, and drops its listener when the subscriber leaves', async () => {
    const h = await serverHome({ heartbeatMs: 40 });
    const before = h.core.listenerCount('event');
    const events = await readEvents(h.server);
    await waitFor(() => (events.comments.includes('heartbeat') ? true : undefined));
    expect(events.comments[0]).toBe('connected');
    await waitFor(() => (h.core.listenerCount('event') === before + 1 ? true : undefined));
    events.close();
    await waitFor(() => (h.core.listenerCount('event') === before ? true : undefined));
  });

  it('hands each of 50 pending approvals, answered in shuffled order, back to the caller that asked', async () => {
    const h = await serverHome();
    const callers = Array.from({ length: 50 }, (_, i) => `caller-${i}`);
    const posted = callers.map((a) => h.call('run', { skill: 'asks', tool: 'go', args: { a } }));
    const pending = await waitFor(() => {
      const list = h.core.broker.list();
      return list.length === 50 ? list : undefined;
    });
    const shuffled = [...pending].sort(() => Math.random() - 0.5);
    const denied = new Set<string>();
    for (const [i, entry] of shuffled.entries()) {
      const verdict = i % 5 === 0 ? 'deny' : 'once';
      if (verdict === 'deny') denied.add((entry as PendingEntry).args.a as string);
      expect((await h.call('answerApproval', { id: entry.id, verdict })).status).toBe(200);
    }
    const results = await Promise.all(posted);
    for (const [i, { status, envelope }] of results.entries()) {
      const caller = callers[i] as string;
      if (denied.has(caller)) {
        expect([caller, status]).toEqual([caller, 409]);
        expect(envelope).toMatchObject({ ok: false, error: { code: 'E603' } });
      } else {
        expect([caller, status]).toEqual([caller, 200]);
        expect(JSON.parse((envelope as Extract<Envelope<RunReport>, { ok: true }>).value.result.stdout)).toEqual([caller]);
      }
    }
    expect(denied.size).toBe(10);
    expect(h.core.runs.history({ limit: 1000 })).toHaveLength(50);
  });
});
