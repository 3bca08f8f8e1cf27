/**
 * Input limits before work, over HTTP and the CLI: args nested 6,000 deep are refused (4xx) and
 * recorded as a refused run; NUL and other control characters in queries are searched as text.
 */
import { describe, expect, it } from 'vitest';
import { MAX_INPUT_DEPTH } from '../../../src-main/core/input-depth.js';
import { cli } from '../../support/cli.js';
import { figure } from '../../support/process-memory.js';
import { errorOf, raw, serverHome, type ServerHome } from '../server/helpers.js';

/** An array nested `levels` deep, as JSON text (built as text: serialising the value would overflow). */
function nestedText(levels: number): string {
  return `${'['.repeat(levels)}${']'.repeat(levels)}`;
}

function post(h: ServerHome, operation: string, body: string) {
  return raw(h.server.port, {
    method: 'POST',
    path: `/api/${operation}`,
    headers: { authorization: `Bearer ${h.server.token()}`, 'content-type': 'application/json' },
    body,
  });
}

describe('soak: input limits before work', () => {
  it('refuses a run whose args nest 6,000 deep with 400 E805, recorded in history as a refused run', async () => {
    const h = await serverHome();
    const sent = performance.now();
    const response = await post(h, 'run', `{"skill":"echoes","tool":"go","args":{"a":${nestedText(6000)}}}`);
    figure('HTTP args 6,000 deep', `answered ${response.status} ${errorOf(response).code} in ${(performance.now() - sent).toFixed(0)} ms, with a history row`);
    expect(response.status).toBe(400);
    const error = errorOf(response) as unknown as { code: string; message: string; details: { runId: string } };
    expect(error).toMatchObject({ code: 'E805', message: `invalid input for 'run': it nests deeper than ${MAX_INPUT_DEPTH} levels` });
    expect(h.core.runs.getRun(error.details.runId)).toMatchObject({
      skill: 'echoes',
      tool: 'go',
      surface: 'http',
      status: 'refused',
      outcome: 'refused',
      decidedBy: 'error',
      errorCode: 'E805',
      args: { a: '[nested too deep: not kept]' },
    });
  });

  it('takes an input exactly as deep as the limit, and refuses one level more', async () => {
    const h = await serverHome();
    // The body is level 1 and args level 2: the argument holds the rest.
    const fits = await post(h, 'dryRun', `{"skill":"echoes","tool":"go","args":{"a":${nestedText(MAX_INPUT_DEPTH - 2)}}}`);
    expect(errorOf(fits).code).not.toBe('E805');
    const deeper = await post(h, 'dryRun', `{"skill":"echoes","tool":"go","args":{"a":${nestedText(MAX_INPUT_DEPTH - 1)}}}`);
    expect(errorOf(deeper).code).toBe('E805');
    // Only a run someone asked for is recorded.
    expect(h.core.runs.history()).toEqual([]);
  });

  it('searches NUL and other control characters as text over HTTP and the CLI: never E999, never a corrupt index', async () => {
    const h = await serverHome();
    let answered = 0;
    for (const query of ['widget\u0000frobnicator', '\u0000', 'widget\u0001', '\u0007\u001b[31m']) {
      for (const [operation, input] of [
        ['search', { skill: 'echoes', query }],
        ['searchAll', { query }],
        ['searchAll', { query, prefix: true }],
        ['discover', { intent: query }],
      ] as const) {
        const { status, envelope } = await h.call(operation, input);
        expect([operation, JSON.stringify(query), status, envelope.ok]).toEqual([operation, JSON.stringify(query), 200, true]);
        answered++;
      }
    }
    figure('NUL and control characters in queries', `${answered} queries over search, searchAll and discover answered 200, none E999 or E002`);
    // A NUL separates words as a space does: the phrase is found.
    const { envelope } = await h.call('search', { skill: 'echoes', query: 'widget\u0000frobnicator' });
    expect(JSON.stringify(envelope)).toContain('[MATCH]widget frobnicator[/MATCH]');
    // argv cannot carry a NUL; every other control character goes through the CLI as it is.
    const searched = await cli(['search', 'echoes', 'widget\u0001frobnicator', '--json'], h.t);
    expect(searched.code).toBe(0);
    expect((JSON.parse(searched.stdout) as { results: unknown[] }).results.length).toBeGreaterThan(0);
  });
});
