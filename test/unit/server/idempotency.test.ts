import { describe, expect, it } from 'vitest';
import { IdempotentRequests, idempotencyKey, requestFingerprint, type Answer } from '../../../src-main/server/idempotency.js';

const ok = (id: string): Answer => ({ status: 200, envelope: { ok: true, value: { id } } });

/** A piece of work the test finishes by hand, and the signal it was given. */
function pendingWork(): { work: (signal: AbortSignal) => Promise<Answer>; finish: (answer: Answer) => void; signal: () => AbortSignal; calls: () => number } {
  let finish: (answer: Answer) => void = () => undefined;
  let signal: AbortSignal | null = null;
  let calls = 0;
  return {
    work: (given) => {
      calls++;
      signal = given;
      return new Promise((resolve) => (finish = resolve));
    },
    finish: (answer) => finish(answer),
    signal: () => signal as unknown as AbortSignal,
    calls: () => calls,
  };
}

/** A promise resolved by hand: when a waiting request hangs up. */
function hangUp(): { left: Promise<void>; go: () => void } {
  let go: () => void = () => undefined;
  const left = new Promise<void>((resolve) => (go = resolve));
  return { left, go };
}

describe('idempotent requests', () => {
  it('works once for a key while any caller waits, and calls the work off only when all have hung up', async () => {
    const requests = new IdempotentRequests((id) => ok(id));
    const pending = pendingWork();
    const fp = requestFingerprint('run', Buffer.from('{}'));
    const first = hangUp();
    const second = hangUp();
    const one = requests.answer('k', fp, first.left, pending.work);
    const two = requests.answer('k', fp, second.left, pending.work);
    first.go();
    await Promise.resolve();
    expect(pending.signal().aborted).toBe(false);
    second.go();
    await new Promise((resolve) => setImmediate(resolve));
    expect(pending.signal().aborted).toBe(true);
    pending.finish({ status: 200, envelope: { ok: true, value: { id: 'run-1' } } });
    expect((await one).replayed).toBe(false);
    expect((await two).replayed).toBe(true);
    expect(pending.calls()).toBe(1);
  });

  it('keeps a run by its id and replays it from history; forgets an answer that says to try again', async () => {
    const replayed: string[] = [];
    const requests = new IdempotentRequests((id) => (replayed.push(id), ok(id)));
    const fp = requestFingerprint('run', Buffer.from('{}'));
    const busy = pendingWork();
    const shed = requests.answer('k', fp, hangUp().left, busy.work);
    busy.finish({ status: 503, envelope: { ok: false, error: { code: 'E812', kind: 'server_busy', message: 'busy' } } });
    expect((await shed).status).toBe(503);
    const work = pendingWork();
    const ran = requests.answer('k', fp, hangUp().left, work.work);
    work.finish(ok('run-7'));
    expect(await ran).toMatchObject({ status: 200, replayed: false });
    expect(await requests.answer('k', fp, hangUp().left, work.work)).toMatchObject({ status: 200, replayed: true, envelope: { value: { id: 'run-7' } } });
    expect(replayed).toEqual(['run-7']);
    expect(work.calls()).toBe(1);
  });

  it('takes 1 to 255 visible ASCII characters as a key, and fingerprints the body byte for byte', () => {
    expect(idempotencyKey(undefined)).toBeNull();
    expect(idempotencyKey('0197a3c2-5d1e-7c4b-9f1a-2b3c4d5e6f70')).toBe('0197a3c2-5d1e-7c4b-9f1a-2b3c4d5e6f70');
    for (const bad of ['', 'a b', 'ü', 'x'.repeat(256), ['a', 'b']]) expect(() => idempotencyKey(bad)).toThrow(expect.objectContaining({ code: 'E805' }));
    expect(requestFingerprint('run', Buffer.from('{"a":1}'))).not.toBe(requestFingerprint('run', Buffer.from('{"a": 1}')));
  });
});
