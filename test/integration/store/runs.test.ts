import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SkilltrayError } from '../../../src-main/shared/skilltray-error.js';
import type { RunResult } from '../../../src-main/shared/model.js';
import type { RunRequest } from '../../../src-main/core/store/run-records.js';
import type { RunQuery, RunStatus, Surface } from '../../../src-main/shared/runs.js';
import { getRun, listRuns, runQuerySql } from '../../../src-main/core/store/run-queries.js';
import { recordDecision, recordFailure, recordRequest, recordResult, recordStart } from '../../../src-main/core/store/run-records.js';
import { SURFACES } from '../../../src-main/shared/runs.js';
import type { StateDb } from '../../../src-main/core/store/state-db.js';
import { useTempHomes } from './temp-home.js';
import { thrownBy } from '../../support/errors.js';
import { thisProcess } from '../../../src-main/core/process-identity.js';

const homes = useTempHomes();

function request(overrides: Partial<RunRequest> = {}): RunRequest {
  return {
    traceId: 'trace-1',
    surface: 'mcp',
    skill: 'git',
    tool: 'git_status',
    args: { path: '/tmp/repo', verbose: true, n: 3 },
    command: {
      program: 'git',
      args: ['status', '--short'],
      supplied: [],
      cwd: '/tmp/repo',
      timeoutMs: 15_000,
      env: [],
      skill: 'git',
      tool: 'git_status',
      skillHash: 'h1',
    },
    programPath: '/usr/bin/git',
    skillHash: 'h1',
    requestedAt: 1_000,
    ...overrides,
  };
}

function result(overrides: Partial<RunResult> = {}): RunResult {
  return {
    exitCode: 0,
    signal: null,
    timedOut: false,
    cancelled: false,
    stdout: '## main\n',
    stderr: '',
    droppedBytes: { stdout: 0, stderr: 0 },
    durationMs: 12.5,
    ...overrides,
  };
}

describe('recording a run step by step', () => {
  it('keeps the request exactly as given, with a generated UUID and pending status', () => {
    const db = homes.fresh();
    const id = recordRequest(db, request(), thisProcess());
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const run = getRun(db, id);
    expect(run).toMatchObject({
      id,
      traceId: 'trace-1',
      surface: 'mcp',
      skill: 'git',
      tool: 'git_status',
      args: { path: '/tmp/repo', verbose: true, n: 3 },
      command: request().command,
      programPath: '/usr/bin/git',
      skillHash: 'h1',
      requestedAt: 1_000,
      outcome: null,
      decidedBy: null,
      status: 'pending',
      stdout: null,
      stderr: null,
      timedOut: false,
      cancelled: false,
    });
  });

  it('records an approved run through to success', () => {
    const db = homes.fresh();
    const id = recordRequest(db, request({ id: 'run-1' }), thisProcess());
    expect(id).toBe('run-1');
    recordDecision(db, id, { outcome: 'approved', decidedBy: 'user', actor: 'tray', reason: 'user skill', decidedAt: 2_000 });
    expect(getRun(db, id)).toMatchObject({ outcome: 'approved', decidedBy: 'user', actor: 'tray', decidedAt: 2_000, status: 'pending' });
    recordStart(db, id, 2_100);
    expect(getRun(db, id)).toMatchObject({ status: 'running', startedAt: 2_100 });
    recordResult(db, id, result({ stdout: 'out', stderr: 'err', droppedBytes: { stdout: 7, stderr: 9 } }), { endedAt: 2_200 });
    expect(getRun(db, id)).toMatchObject({
      status: 'succeeded',
      endedAt: 2_200,
      exitCode: 0,
      signal: null,
      stdout: 'out',
      stderr: 'err',
      droppedStdout: 7,
      droppedStderr: 9,
      durationMs: 12.5,
    });
  });

  it('records a run its owner stopped as interrupted (E705, with why); one that ended on its own keeps its result', () => {
    const db = homes.fresh();
    for (const id of ['stopped', 'finished']) {
      recordRequest(db, request({ id }), thisProcess());
      recordDecision(db, id, { outcome: 'auto', decidedBy: 'policy', reason: 'bundled read-only' });
      recordStart(db, id);
    }
    recordResult(db, 'stopped', result({ exitCode: null, signal: 'SIGTERM', cancelled: true }), { interrupted: 'the owner got SIGHUP' });
    recordResult(db, 'finished', result(), { interrupted: 'the owner got SIGHUP' });
    expect(getRun(db, 'stopped')).toMatchObject({ status: 'interrupted', errorCode: 'E705', reason: 'the owner got SIGHUP', cancelled: true });
    expect(getRun(db, 'finished')).toMatchObject({ status: 'succeeded', errorCode: null, reason: 'bundled read-only' });
  });

  it.each<[Partial<RunResult>, RunStatus]>([
    [{ exitCode: 0 }, 'succeeded'],
    [{ exitCode: 2 }, 'failed'],
    [{ exitCode: null, signal: 'SIGSEGV' }, 'failed'],
    [{ exitCode: null, signal: 'SIGTERM', timedOut: true }, 'timed_out'],
    [{ exitCode: null, signal: 'SIGKILL', cancelled: true }, 'cancelled'],
    [{ exitCode: null, signal: 'SIGKILL', cancelled: true, timedOut: true }, 'cancelled'],
  ])('a result %j ends as %s', (partial, status) => {
    const db = homes.fresh();
    const id = recordRequest(db, request(), thisProcess());
    recordDecision(db, id, { outcome: 'auto', decidedBy: 'policy' });
    recordStart(db, id);
    recordResult(db, id, result(partial));
    const run = getRun(db, id);
    expect(run?.status).toBe(status);
    expect(run?.timedOut).toBe(partial.timedOut ?? false);
    expect(run?.cancelled).toBe(partial.cancelled ?? false);
    expect(run?.signal).toBe(partial.signal ?? null);
  });

  it.each<['denied' | 'refused', RunStatus]>([
    ['denied', 'denied'],
    ['refused', 'refused'],
  ])('a %s decision is final', (outcome, status) => {
    const db = homes.fresh();
    const id = recordRequest(db, request(), thisProcess());
    recordDecision(db, id, { outcome, decidedBy: 'rule', ruleId: 4, errorCode: 'E602', reason: 'denied by rule #4' });
    expect(getRun(db, id)).toMatchObject({ status, ruleId: 4, errorCode: 'E602', reason: 'denied by rule #4' });
    expect(thrownBy(() => recordStart(db, id)).message).toContain(`it is ${status}`);
  });

  it('records a spawn failure after approval, keeping the error code', () => {
    const db = homes.fresh();
    const id = recordRequest(db, request(), thisProcess());
    recordDecision(db, id, { outcome: 'approved', decidedBy: 'user' });
    recordFailure(db, id, new SkilltrayError('E701', "cannot run '/usr/bin/git': EACCES"), 3_000);
    expect(getRun(db, id)).toMatchObject({ status: 'failed', errorCode: 'E701', reason: "cannot run '/usr/bin/git': EACCES", endedAt: 3_000 });
  });

  it('refuses steps out of order or twice, and unknown runs with E702', () => {
    const db = homes.fresh();
    const id = recordRequest(db, request(), thisProcess());
    expect(thrownBy(() => recordStart(db, id))).toMatchObject({ code: 'E999' });
    expect(thrownBy(() => recordResult(db, id, result()))).toMatchObject({ code: 'E999' });
    expect(thrownBy(() => recordFailure(db, id, new SkilltrayError('E701', 'x')))).toMatchObject({ code: 'E999' });
    recordDecision(db, id, { outcome: 'auto', decidedBy: 'policy' });
    expect(thrownBy(() => recordDecision(db, id, { outcome: 'denied', decidedBy: 'user' })).message).toContain('already');
    recordStart(db, id);
    expect(thrownBy(() => recordStart(db, id))).toMatchObject({ code: 'E999' });
    recordResult(db, id, result());
    expect(thrownBy(() => recordResult(db, id, result()))).toMatchObject({ code: 'E999' });
    expect(getRun(db, id)?.status).toBe('succeeded');
    for (const step of [
      () => recordDecision(db, 'nope', { outcome: 'auto', decidedBy: 'policy' }),
      () => recordStart(db, 'nope'),
      () => recordResult(db, 'nope', result()),
      () => recordFailure(db, 'nope', new SkilltrayError('E701', 'x')),
    ]) {
      expect(thrownBy(step)).toMatchObject({ code: 'E702', message: "run 'nope' not found" });
    }
    expect(getRun(db, 'nope')).toBeNull();
  });

  it('rejects a duplicate run id', () => {
    const db = homes.fresh();
    recordRequest(db, request({ id: 'same' }), thisProcess());
    expect(() => recordRequest(db, request({ id: 'same' }), thisProcess())).toThrow(/UNIQUE/);
  });

  it('keeps a request whose command could not be rendered', () => {
    const db = homes.fresh();
    const id = recordRequest(db, request({ command: null, programPath: null }), thisProcess());
    recordDecision(db, id, { outcome: 'refused', decidedBy: 'error', errorCode: 'E501', reason: "missing argument 'path'" });
    expect(getRun(db, id)).toMatchObject({ command: null, programPath: null, status: 'refused', errorCode: 'E501' });
  });
});

describe('listRuns', () => {
  // 40 runs: skills a/b, tools x/y, surfaces cycling, statuses by index, one run per millisecond from 100.
  function seed(db: StateDb): void {
    for (let i = 0; i < 40; i++) {
      const id = recordRequest(
        db,
        request({
          id: `r${String(i).padStart(2, '0')}`,
          skill: i % 2 === 0 ? 'a' : 'b',
          tool: i % 4 < 2 ? 'x' : 'y',
          surface: SURFACES[i % SURFACES.length] as Surface,
          requestedAt: 100 + i,
        }),
        thisProcess(),
      );
      if (i % 3 === 0) continue;
      if (i % 3 === 1) {
        recordDecision(db, id, { outcome: 'denied', decidedBy: 'user' });
        continue;
      }
      recordDecision(db, id, { outcome: 'auto', decidedBy: 'policy' });
      recordStart(db, id);
      recordResult(db, id, result({ exitCode: i % 2 }));
    }
  }

  it('returns runs newest first, without output, paged by limit and offset', () => {
    const db = homes.fresh();
    seed(db);
    const page1 = listRuns(db, { limit: 5 });
    expect(page1.map((r) => r.id)).toEqual(['r39', 'r38', 'r37', 'r36', 'r35']);
    expect(page1[0]).not.toHaveProperty('stdout');
    expect(listRuns(db, { limit: 5, offset: 5 }).map((r) => r.id)).toEqual(['r34', 'r33', 'r32', 'r31', 'r30']);
    expect(listRuns(db)).toHaveLength(40);
  });

  it('breaks ties on the same millisecond by insertion order, newest first', () => {
    const db = homes.fresh();
    for (const id of ['first', 'second', 'third']) recordRequest(db, request({ id, requestedAt: 5 }), thisProcess());
    expect(listRuns(db).map((r) => r.id)).toEqual(['third', 'second', 'first']);
  });

  it('applies every filter, alone and combined, exactly like a filter over all rows', () => {
    const db = homes.fresh();
    seed(db);
    const all = listRuns(db, { limit: 1000 });
    const queries = fc.record(
      {
        skill: fc.constantFrom('a', 'b', 'c'),
        tool: fc.constantFrom('x', 'y'),
        status: fc.constantFrom<RunStatus>('pending', 'succeeded', 'failed', 'denied', 'running'),
        surface: fc.constantFrom(...SURFACES),
        since: fc.integer({ min: 95, max: 145 }),
        until: fc.integer({ min: 95, max: 145 }),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(queries, (q: RunQuery) => {
        const expected = all.filter(
          (r) =>
            (q.skill === undefined || r.skill === q.skill) &&
            (q.tool === undefined || r.tool === q.tool) &&
            (q.status === undefined || r.status === q.status) &&
            (q.surface === undefined || r.surface === q.surface) &&
            (q.since === undefined || r.requestedAt >= q.since) &&
            (q.until === undefined || r.requestedAt < q.until),
        );
        expect(listRuns(db, { ...q, limit: 1000 }).map((r) => r.id)).toEqual(expected.map((r) => r.id));
      }),
      { numRuns: 300 },
    );
  });

  it('spot-checks single filters against hand-computed answers', () => {
    const db = homes.fresh();
    seed(db);
    expect(listRuns(db, { skill: 'b', tool: 'y', limit: 3 }).map((r) => r.id)).toEqual(['r39', 'r35', 'r31']);
    expect(listRuns(db, { status: 'succeeded' }).map((r) => r.id)).toEqual(['r38', 'r32', 'r26', 'r20', 'r14', 'r08', 'r02']);
    expect(listRuns(db, { since: 137 }).map((r) => r.id)).toEqual(['r39', 'r38', 'r37']);
    expect(listRuns(db, { until: 102 }).map((r) => r.id)).toEqual(['r01', 'r00']);
    expect(listRuns(db, { surface: 'ui', since: 120 }).map((r) => r.id)).toEqual(['r38', 'r33', 'r28', 'r23']);
  });

  it.each([{ limit: 0 }, { limit: 1001 }, { limit: 2.5 }, { offset: -1 }, { limit: Number.NaN }])('rejects %j with E100', (q) => {
    const db = homes.fresh();
    expect(thrownBy(() => listRuns(db, q))).toMatchObject({ code: 'E100' });
  });

  it('uses an index for every history query: no table scan, no sort pass', () => {
    const db = homes.fresh();
    seed(db);
    const shapes: [RunQuery, string][] = [
      [{}, 'runs_by_time'],
      [{ skill: 'a' }, 'runs_by_skill'],
      [{ tool: 'x' }, 'runs_by_tool'],
      [{ skill: 'a', tool: 'x' }, 'runs_by_skill_tool'],
      [{ status: 'failed' }, 'runs_by_status'],
      [{ surface: 'cli' }, 'runs_by_surface'],
      [{ since: 1 }, 'runs_by_time'],
      [{ until: 9 }, 'runs_by_time'],
      [{ since: 1, until: 9 }, 'runs_by_time'],
      [{ skill: 'a', since: 1, until: 9 }, 'runs_by_skill'],
      [{ status: 'failed', surface: 'cli', since: 4 }, 'runs_by_\\w+'],
      [{ skill: 'a', tool: 'x', status: 'failed', surface: 'mcp', since: 1, until: 200 }, 'runs_by_\\w+'],
    ];
    for (const [shape, index] of shapes) {
      const { sql, params } = runQuerySql(shape);
      const plan = db
        .prepare<[Record<string, unknown>], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
        .all(params)
        .map((r) => r.detail);
      expect(plan, JSON.stringify(shape)).toHaveLength(1);
      expect(plan[0], JSON.stringify(shape)).toMatch(new RegExp(`^(SEARCH|SCAN) runs USING INDEX ${index}( |$)`));
      expect(plan.join('\n'), JSON.stringify(shape)).not.toMatch(/TEMP B-TREE/);
      if (Object.keys(shape).length > 0) expect(plan[0], JSON.stringify(shape)).toMatch(/^SEARCH/);
    }
  });
});
