import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SkilltrayError } from '../../../src-main/shared/skilltray-error.js';
import type { BrokerClock, Resolution } from '../../../src-main/core/policy/approval-broker.js';
import { REMEMBER_SCOPES, type PendingApproval, type PendingEntry, type RememberScope, type VerdictKind } from '../../../src-main/shared/runs.js';
import { ApprovalBroker } from '../../../src-main/core/policy/approval-broker.js';
import { isCode, spokenPrompt } from '../../../src-main/shared/voice.js';
import { thrownBy } from '../../support/errors.js';
import { captureWarnings } from '../../support/warnings.js';

/** A clock that moves only when the test says so. */
class ManualClock implements BrokerClock {
  private time = 1_000;
  private timers = new Map<number, { at: number; callback: () => void }>();
  private nextHandle = 1;

  now = (): number => this.time;

  setTimeout = (callback: () => void, ms: number): unknown => {
    const handle = this.nextHandle++;
    this.timers.set(handle, { at: this.time + ms, callback });
    return handle;
  };

  clearTimeout = (handle: unknown): void => {
    this.timers.delete(handle as number);
  };

  get pendingTimers(): number {
    return this.timers.size;
  }

  advance(ms: number): void {
    this.time += ms;
    for (const [handle, timer] of [...this.timers].sort((a, b) => a[1].at - b[1].at)) {
      if (timer.at > this.time) continue;
      this.timers.delete(handle);
      timer.callback();
    }
  }
}

function pending(id: string, overrides: Partial<PendingApproval> = {}): PendingApproval {
  return {
    id,
    traceId: `trace-${id}`,
    surface: 'mcp',
    assistant: 'mcp',
    skill: 'git',
    tool: 'git_log',
    trust: 'user',
    identity: { rootKind: 'home', path: '/h/skills/git', hash: 'h', manifest: null, trust: 'user', unverified: null, hides: [] },
    readOnly: false,
    programPath: '/usr/bin/git',
    args: { count: 5 },
    argv: ['log', '-n', '5'],
    cwd: '/tmp/repo',
    timeoutMs: 15_000,
    env: ['GIT_TOKEN'],
    requestedAt: 900,
    reason: "skill 'git' is a user skill, so its runs need approval",
    sandbox: { name: 'workspace', network: false, hosts: [], contained: true, mechanism: 'bubblewrap', why: null },
    supplied: [2],
    rememberScopes: ['folder'],
    ...overrides,
  };
}

async function rejection(promise: Promise<unknown>): Promise<SkilltrayError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SkilltrayError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('ApprovalBroker', () => {
  it('lists a pending approval with everything needed to decide, and resolves it', async () => {
    const clock = new ManualClock();
    const broker = new ApprovalBroker({ clock, code: () => '413' });
    const answer = broker.request(pending('a'), { timeoutMs: 60_000 });
    expect(broker.list()).toEqual([{ ...pending('a'), expiresAt: 61_000, code: '413', speech: spokenPrompt(pending('a'), '413') }]);
    broker.resolve('a', 'always', 'tray');
    await expect(answer).resolves.toEqual({ verdict: 'always', actor: 'tray' });
    expect(broker.list()).toEqual([]);
    expect(clock.pendingTimers).toBe(0);
  });

  it('times out with E604 and forgets the approval; a late answer is E611', async () => {
    const clock = new ManualClock();
    const broker = new ApprovalBroker({ clock });
    const answer = broker.request(pending('a'), { timeoutMs: 120_000 });
    clock.advance(119_999);
    expect(broker.list()).toHaveLength(1);
    clock.advance(1);
    const error = await rejection(answer);
    expect(error.code).toBe('E604');
    expect(error.message).toBe("nobody answered the approval for 'git/git_log' within 120 s, so it did not run");
    expect(broker.list()).toEqual([]);
    expect(thrownBy(() => broker.resolve('a', 'once', 'tray')).code).toBe('E611');
  });

  it('times out with the real timer too', async () => {
    const broker = new ApprovalBroker();
    const started = performance.now();
    const error = await rejection(broker.request(pending('a'), { timeoutMs: 50 }));
    expect(error.code).toBe('E604');
    expect(error.message).toContain('within 50 ms');
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('answers 50 concurrent approvals resolved in shuffled order, each to its own caller', async () => {
    const clock = new ManualClock();
    const broker = new ApprovalBroker({ clock });
    const kinds: VerdictKind[] = ['once', 'always', 'deny'];
    const ids = Array.from({ length: 50 }, (_, i) => `run-${i}`);
    const answers = ids.map((id) => broker.request(pending(id), { timeoutMs: 60_000 }));
    expect(broker.list().map((p) => p.id)).toEqual(ids);
    // Fisher–Yates with a fixed seed, so a failure is reproducible.
    const order = [...ids.keys()];
    let seed = 42;
    for (let i = order.length - 1; i > 0; i--) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      const j = seed % (i + 1);
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const i of order) broker.resolve(ids[i]!, kinds[i % 3]!, `actor-${i}`);
    const verdicts = await Promise.all(answers);
    expect(verdicts).toEqual(ids.map((_, i) => ({ verdict: kinds[i % 3], actor: `actor-${i}` })));
    expect(broker.list()).toEqual([]);
    expect(clock.pendingTimers).toBe(0);
  });

  it('routes every answer to its caller for any interleaving of requests, answers, timeouts and cancels', async () => {
    const step = fc.oneof(
      fc.record({ op: fc.constant('request' as const), timeout: fc.integer({ min: 1, max: 100 }) }),
      fc.record({ op: fc.constant('resolve' as const), pick: fc.nat(), verdict: fc.constantFrom<VerdictKind>('once', 'always', 'deny') }),
      fc.record({ op: fc.constant('cancel' as const), pick: fc.nat() }),
      fc.record({ op: fc.constant('advance' as const), ms: fc.integer({ min: 1, max: 60 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 60 }), async (steps) => {
        const clock = new ManualClock();
        const broker = new ApprovalBroker({ clock });
        const expected = new Map<string, string>();
        const outcomes = new Map<string, Promise<string>>();
        let n = 0;
        for (const s of steps) {
          const open = broker.list().map((p) => p.id);
          if (s.op === 'request') {
            const id = `r${n++}`;
            outcomes.set(
              id,
              broker.request(pending(id), { timeoutMs: s.timeout }).then(
                (v) => `${v.verdict}:${v.actor}`,
                (e: SkilltrayError) => e.code,
              ),
            );
            expected.set(id, 'E604');
          } else if (s.op === 'resolve' && open.length > 0) {
            const id = open[s.pick % open.length]!;
            broker.resolve(id, s.verdict, `by-${id}`);
            expected.set(id, `${s.verdict}:by-${id}`);
          } else if (s.op === 'cancel' && open.length > 0) {
            const id = open[s.pick % open.length]!;
            expect(broker.cancel(id)).toBe(true);
            expected.set(id, 'E613');
          } else if (s.op === 'advance') {
            clock.advance(s.ms);
          }
        }
        clock.advance(1_000);
        expect(broker.list()).toEqual([]);
        for (const [id, outcome] of outcomes) expect(await outcome, id).toBe(expected.get(id));
      }),
      { numRuns: 200 },
    );
  });

  it('rejects unknown, already-resolved ids with E611 and bad verdicts with E616', async () => {
    const broker = new ApprovalBroker({ clock: new ManualClock() });
    expect(thrownBy(() => broker.resolve('ghost', 'once', 'tray'))).toMatchObject({ code: 'E611', kind: 'approval_not_found' });
    const answer = broker.request(pending('a'), { timeoutMs: 1_000 });
    expect(thrownBy(() => broker.resolve('a', 'sure' as VerdictKind, 'tray'))).toMatchObject({ code: 'E616' });
    expect(broker.list()).toHaveLength(1);
    broker.resolve('a', 'deny', 'tray');
    expect(thrownBy(() => broker.resolve('a', 'once', 'tray')).code).toBe('E611');
    await expect(answer).resolves.toEqual({ verdict: 'deny', actor: 'tray' });
  });

  it('cancels: the caller gets E613, the id is gone, a second cancel is false', async () => {
    const clock = new ManualClock();
    const broker = new ApprovalBroker({ clock });
    const answer = broker.request(pending('a'), { timeoutMs: 1_000 });
    expect(broker.cancel('a')).toBe(true);
    expect((await rejection(answer)).code).toBe('E613');
    expect(broker.cancel('a')).toBe(false);
    expect(clock.pendingTimers).toBe(0);
  });

  it('refuses a second request for an id that is already pending, keeping the first', async () => {
    const broker = new ApprovalBroker({ clock: new ManualClock() });
    const first = broker.request(pending('a'), { timeoutMs: 1_000 });
    expect((await rejection(broker.request(pending('a'), { timeoutMs: 1_000 }))).code).toBe('E999');
    broker.resolve('a', 'once', 'tray');
    await expect(first).resolves.toEqual({ verdict: 'once', actor: 'tray' });
  });

  it('tells listeners about additions and resolutions of every kind, until they unsubscribe', async () => {
    const clock = new ManualClock();
    const broker = new ApprovalBroker({ clock });
    const added: string[] = [];
    const resolved: Resolution[] = [];
    const offAdded = broker.on('added', (entry) => added.push(`${entry.id}@${entry.expiresAt}`));
    broker.on('resolved', (r) => {
      // The queue no longer holds the entry when listeners hear about it.
      expect(broker.list().some((p) => p.id === r.id)).toBe(false);
      resolved.push(r);
    });
    const a = broker.request(pending('a'), { timeoutMs: 10 });
    const b = broker.request(pending('b'), { timeoutMs: 20 });
    const c = broker.request(pending('c'), { timeoutMs: 30 });
    broker.resolve('b', 'once', 'cli');
    broker.cancel('c');
    clock.advance(10);
    offAdded();
    const d = broker.request(pending('d'), { timeoutMs: 5 });
    broker.resolve('d', 'deny', 'ui');
    await Promise.allSettled([a, b, c, d]);
    expect(added).toEqual(['a@1010', 'b@1020', 'c@1030']);
    expect(resolved).toEqual([
      { id: 'b', kind: 'verdict', verdict: { verdict: 'once', actor: 'cli' } },
      { id: 'c', kind: 'cancelled' },
      { id: 'a', kind: 'timeout' },
      { id: 'd', kind: 'verdict', verdict: { verdict: 'deny', actor: 'ui' } },
    ]);
  });

  it('keeps working when a listener throws, and reports the failure', async () => {
    const failures: unknown[] = [];
    const broker = new ApprovalBroker({ clock: new ManualClock(), onListenerError: (e) => failures.push(e) });
    const heard: string[] = [];
    broker.on('added', () => {
      throw new Error('ui gone');
    });
    broker.on('added', (entry) => heard.push(entry.id));
    broker.on('resolved', () => {
      throw new Error('sse gone');
    });
    const answer = broker.request(pending('a'), { timeoutMs: 1_000 });
    broker.resolve('a', 'once', 'tray');
    await expect(answer).resolves.toEqual({ verdict: 'once', actor: 'tray' });
    expect(heard).toEqual(['a']);
    expect(failures.map((e) => (e as Error).message)).toEqual(['ui gone', 'sse gone']);
  });
});

describe('where an Always may apply (the scopes the request offers)', () => {
  it('refuses an Always in any folder for a tool that may write (E626), leaving the request pending for a right answer', async () => {
    const broker = new ApprovalBroker({ clock: new ManualClock() });
    const answer = broker.request(pending('w', { rememberScopes: ['folder'] }), { timeoutMs: 1_000 });
    const error = thrownBy(() => broker.resolve('w', 'always', 'tray', undefined, 'anywhere'));
    expect(error).toMatchObject({ code: 'E626', details: { id: 'w', scope: 'anywhere', offered: ['folder'] } });
    expect(error.message).toBe("'git/git_log' can be always allowed only in its folder: a tool that may write is never allowed in any folder at once");
    expect(broker.list().map((e) => e.id)).toEqual(['w']);
    broker.resolve('w', 'always', 'tray', 'session', 'folder');
    await expect(answer).resolves.toEqual({ verdict: 'always', actor: 'tray', expires: 'session', scope: 'folder' });
  });

  it('lets a read-only tool be always allowed in any folder, and says so in the verdict', async () => {
    const broker = new ApprovalBroker({ clock: new ManualClock() });
    const answer = broker.request(pending('r', { readOnly: true, rememberScopes: ['folder', 'anywhere'] }), { timeoutMs: 1_000 });
    broker.resolve('r', 'always', 'cli', undefined, 'anywhere');
    await expect(answer).resolves.toEqual({ verdict: 'always', actor: 'cli', scope: 'anywhere' });
  });

  it('refuses every Always for a skill whose files cannot be vouched for, its own folder included, while once and deny still answer', async () => {
    const broker = new ApprovalBroker({ clock: new ManualClock() });
    const once = broker.request(pending('u', { rememberScopes: [] }), { timeoutMs: 1_000 });
    for (const scope of [undefined, 'folder', 'anywhere'] as const) {
      const error = thrownBy(() => broker.resolve('u', 'always', 'tray', undefined, scope));
      expect(error).toMatchObject({ code: 'E626', details: { scope: scope ?? 'folder', offered: [] } });
      expect(error.message).toContain('its files cannot be vouched for');
    }
    broker.resolve('u', 'once', 'tray');
    await expect(once).resolves.toEqual({ verdict: 'once', actor: 'tray' });
    const deny = broker.request(pending('v', { rememberScopes: [] }), { timeoutMs: 1_000 });
    broker.resolve('v', 'deny', 'tray');
    await expect(deny).resolves.toEqual({ verdict: 'deny', actor: 'tray' });
  });

  it('for any offered scopes, verdict and asked scope: an Always outside what is offered is E626 and changes nothing; anything else answers the caller', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.subarray([...REMEMBER_SCOPES]),
        fc.constantFrom<VerdictKind>('once', 'always', 'deny'),
        fc.option(fc.constantFrom<RememberScope>(...REMEMBER_SCOPES), { nil: undefined }),
        async (offered, verdict, scope) => {
          const resolved: Resolution[] = [];
          const broker = new ApprovalBroker({ clock: new ManualClock() });
          broker.on('resolved', (r) => resolved.push(r));
          const answer = broker.request(pending('p', { rememberScopes: offered }), { timeoutMs: 1_000 });
          const allowed = verdict !== 'always' || offered.includes(scope ?? 'folder');
          if (allowed) {
            broker.resolve('p', verdict, 'tray', undefined, scope);
            const expected = verdict === 'always' && scope !== undefined ? { verdict, actor: 'tray', scope } : { verdict, actor: 'tray' };
            await expect(answer).resolves.toEqual(expected);
            expect(resolved).toHaveLength(1);
          } else {
            expect(thrownBy(() => broker.resolve('p', verdict, 'tray', undefined, scope))).toMatchObject({ code: 'E626' });
            expect(broker.list().map((e) => e.id)).toEqual(['p']);
            expect(resolved).toEqual([]);
            broker.cancel('p');
            expect((await rejection(answer)).code).toBe('E613');
          }
        },
      ),
    );
  });
});

describe('ApprovalBroker default listener error reporting', () => {
  it('reports a throwing listener as a process warning', async () => {
    const warnings = captureWarnings();
    const broker = new ApprovalBroker({ clock: new ManualClock() });
    broker.on('added', () => {
      throw new Error('renderer crashed');
    });
    const answer = broker.request(pending('a'), { timeoutMs: 1_000 });
    expect(warnings.messages).toEqual(['an approval listener failed: renderer crashed']);
    broker.resolve('a', 'once', 'tray');
    await expect(answer).resolves.toEqual({ verdict: 'once', actor: 'tray' });
  });
});

describe('approval codes', () => {
  it('gives each request a fresh code: none pending twice, none of the last 16 again, never one with a digit twice in a row', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 1, maxLength: 120 }), (steps) => {
        const broker = new ApprovalBroker({ clock: new ManualClock() });
        const given: string[] = [];
        let next = 0;
        for (const answerOne of steps) {
          const open = broker.list();
          if (answerOne && open.length > 0) {
            const first = open[0] as PendingEntry;
            broker.resolve(first.id, 'deny', 'tray');
            continue;
          }
          void broker.request(pending(`r${next++}`), { timeoutMs: 60_000 }).catch(() => undefined);
          const code = broker.list().at(-1)?.code as string;
          expect(isCode(code)).toBe(true);
          expect(given.slice(-16)).not.toContain(code);
          given.push(code);
          const codes = broker.list().map((e) => e.code);
          expect(new Set(codes).size).toBe(codes.length);
        }
      }),
    );
  });

  it('speaks the request with its code where a spoken yes needs one', () => {
    const broker = new ApprovalBroker({ clock: new ManualClock(), code: () => '413', home: '/home/ana' });
    void broker.request(pending('w', { cwd: '/home/ana/code/app' }), { timeoutMs: 60_000 }).catch(() => undefined);
    expect(broker.list()[0]?.speech).toBe("An MCP client asks to run git log 5 in app: it writes in that folder. Say 'run four one three', or 'deny'.");
  });
});
