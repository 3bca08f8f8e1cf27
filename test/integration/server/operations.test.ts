import { cpSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { callOperation, type CallContext } from '../../../src-main/core/operations.js';
import { OPERATIONS, type Envelope, type OperationName } from '../../../src-main/shared/contract.js';
import { PROCESS_FIXTURES, skillMd, tempDir, testHome, writeSkill } from '../../support/temp.js';
import { BROWSE_ASKS, errorOf, fullHome, raw, serverHome, WEB_FIXTURE, type ServerHome } from './helpers.js';

function direct(h: ServerHome, name: string, input: unknown): Promise<Envelope<unknown>> {
  const ctx: CallContext = {
    surface: 'http',
    caller: { kind: 'person' },
    cwd: h.t.userHome,
    approval: { kind: 'none' },
    owner: 'serve',
    version: '0.0.0-test',
  };
  return callOperation(h.core, name, input, ctx);
}

/** Drops what differs on every call of the same failing run: its fresh run id. */
function withoutRunId(envelope: Envelope<unknown>): Envelope<unknown> {
  if (envelope.ok || envelope.error.details === undefined) return envelope;
  const { runId: _runId, ...details } = envelope.error.details;
  return { ok: false, error: { ...envelope.error, details } };
}

describe('every operation of the contract over HTTP', () => {
  it('reaches each one with a valid input; read-only ones give exactly what the core gives', async () => {
    const h = await fullHome();
    const pack = join(tempDir(), 'extras');
    writeSkill(pack, 'extra', skillMd({ name: 'extra', description: 'An installed extra. Use in tests.', version: '1.0.0' }, 'Nothing to run.\n'));
    // A confirmation names the report a person saw: the same source scans to the same digest, for the install and the update.
    const { digest } = await (await h.core.packs()).preview({ source: pack }, h.t.userHome);
    const repo = tempDir();
    const projectDigest = h.core.projects.inspect(repo).digest;
    // An MCP source that serves no skills, added and removed again.
    const scenario = join(tempDir(), 'scenario.json');
    writeFileSync(scenario, JSON.stringify({ skills: [] }));
    const inputs: Record<OperationName, unknown> = {
      list: {},
      listBrief: {},
      describe: { skill: 'asks' },
      check: { target: 'asks' },
      roots: {},
      doctor: {},
      resolve: { skill: 'greet', args: ['world'] },
      run: { skill: 'echoes', tool: 'go', args: { a: 'over http' } },
      dryRun: { skill: 'asks', tool: 'go', args: { a: 'x' } },
      cancelRun: { id: 'no-such-run' },
      history: {},
      getRun: { id: 'no-such-run' },
      approvals: {},
      answerApproval: { id: 'no-such-run', verdict: 'once' },
      rules: {},
      addRule: { pattern: 'skill:echoes', effect: 'allow' },
      removeRule: { id: 999 },
      remembered: {},
      revokeRemembered: { id: 999 },
      sandbox: {},
      setSkillSandbox: { skill: 'asks', sandboxed: true },
      settings: {},
      setMode: { mode: 'Global' },
      setPaused: { paused: false },
      setPaletteShortcut: { shortcut: 'Alt+Space' },
      setRetention: { output_days: 14 },
      setLimitCeiling: { memory_mb: 4096 },
      historyUsage: {},
      maintainHistory: {},
      notices: {},
      dismissNotice: { id: 999 },
      ...BROWSE_ASKS,
      build: { skill: 'asks' },
      stats: { skill: 'asks' },
      discover: { intent: 'watch a run' },
      attach: { skill_id: 'watcher', target_type: 'run', target_ref: 'run-42' },
      setSkillEnabled: { skill: 'echoes', enabled: true },
      packs: {},
      scanPack: { source: pack },
      installPack: { source: pack, confirm: digest },
      checkPackUpdate: { pack: 'extras' },
      updatePack: { pack: 'extras', confirm: digest },
      uninstallPack: { pack: 'extras' },
      assistants: {},
      connectAssistant: { client: 'cursor', dry_run: true },
      disconnectAssistant: { client: 'cursor', dry_run: true },
      testAssistant: { client: 'cursor' },
      assistantView: { client: 'cursor' },
      projects: {},
      inspectProject: { path: repo },
      trustProject: { path: repo, confirm: projectDigest },
      untrustProject: { path: repo },
      servedSkills: {},
      servedSkill: { skill: 'asks' },
      servedFile: { skill: 'asks', path: 'SKILL.md' },
      servedDirectory: { skill: 'asks', dir: '' },
      mcpSources: {},
      addMcpSource: { name: 'none', command: [process.execPath, join(PROCESS_FIXTURES, 'skills-server.mjs'), scenario] },
      removeMcpSource: { name: 'none' },
      refreshMcpSources: {},
      approveServedSkill: { skill: 'none.x', confirm: '0'.repeat(64) },
      health: {},
      voice: {},
      setVoice: { enabled: false },
      answerApprovalByVoice: { id: 'no-such-run', wav: '' },
      answerNewestApproval: { verdict: 'deny' },
      speak: { text: 'hello' },
    };
    /** The operations whose valid input above names something that does not exist, on purpose. */
    const notFound: Partial<Record<OperationName, string>> = {
      cancelRun: 'E702',
      getRun: 'E702',
      answerApproval: 'E611',
      removeRule: 'E614',
      revokeRemembered: 'E615',
      dismissNotice: 'E903',
      connectAssistant: 'E852',
      approveServedSkill: 'E869',
    };
    /** The operations whose valid input above is refused in this home on purpose: voice is off (E636). */
    const refused: Partial<Record<OperationName, string>> = { answerApprovalByVoice: 'E636' };
    const sameAsCore: OperationName[] = [
      'assistants',
      'disconnectAssistant',
      'list',
      'describe',
      'check',
      'roots',
      'resolve',
      'approvals',
      'rules',
      'remembered',
      'sandbox',
      'settings',
      'notices',
      'outline',
      'show',
      'open',
      'sources',
      'discover',
      'servedSkills',
      'servedSkill',
      'servedFile',
      'servedDirectory',
    ];
    for (const operation of OPERATIONS) {
      const { status, envelope } = await h.call(operation, inputs[operation]);
      const refusal = refused[operation];
      if (refusal !== undefined) {
        expect([operation, status, envelope.ok ? null : envelope.error.code]).toEqual([operation, 422, refusal]);
        continue;
      }
      const code = notFound[operation];
      if (code !== undefined) {
        expect([operation, status, envelope.ok ? null : envelope.error.code]).toEqual([operation, 404, code]);
        expect(envelope).toEqual(await direct(h, operation, inputs[operation]));
        continue;
      }
      expect([operation, status, envelope.ok]).toEqual([operation, 200, true]);
      if (sameAsCore.includes(operation)) expect(envelope).toEqual(await direct(h, operation, inputs[operation]));
    }
    const [ran] = h.core.runs.history({ skill: 'echoes' });
    const { status, envelope } = await h.call('getRun', { id: ran?.id });
    expect(status).toBe(200);
    expect(envelope).toMatchObject({ ok: true, value: { id: ran?.id, stdout: 'over http\n', surface: 'http' } });
    expect((await h.call('attach', inputs.attach)).envelope).toMatchObject({ ok: true, value: { execution: { result: { stdout: 'run-42\n' } } } });
    expect((await h.call('health', {})).envelope).toMatchObject({
      ok: true,
      value: { app: 'skilltray', owner: 'serve', version: '0.0.0-test', pid: process.pid, home: h.core.config.home },
    });
  });

  it.each([
    ['describe', { skill: 'nope' }, 404, 'E001'],
    ['show', { skill: 'asks', section: 'Usag' }, 404, 'E020'],
    ['open', { skill: 'asks', path: 'missing.md' }, 404, 'E021'],
    ['open', { skill: 'asks', path: '../../../etc/passwd' }, 422, 'E012'],
    ['run', { skill: 'nope', tool: 'go' }, 404, 'E001'],
    ['run', { skill: 'echoes', tool: 'nope' }, 422, 'E506'],
    ['run', { skill: 'echoes', tool: 'go', args: { a: '--force' } }, 422, 'E504'],
    ['run', { skill: 'echoes', tool: 'go', cwd: 'relative/dir' }, 422, 'E510'],
    ['attach', { skill_id: 'asks', target_type: 'run', target_ref: 'x' }, 409, 'E801'],
    ['search', { skill: 'asks', query: '' }, 422, 'E004'],
    ['setMode', { mode: 'Nope' }, 422, 'E610'],
    ['setRetention', { output_days: 0 }, 400, 'E100'],
    ['setRetention', { output_max_mb: 1.5 }, 400, 'E100'],
    ['setLimitCeiling', { processes: 0 }, 400, 'E100'],
    ['setLimitCeiling', { cpu_seconds: 1e9 }, 400, 'E100'],
    ['addRule', { pattern: 'nonsense', effect: 'allow' }, 422, 'E609'],
    ['list', { limit: 0 }, 400, 'E805'],
    ['history', { status: 'nope' }, 400, 'E805'],
    ['setSkillEnabled', { skill: 'nope', enabled: false }, 404, 'E001'],
    ['setSkillEnabled', { skill: 'echoes', enabled: false, mode: 'Nope' }, 422, 'E610'],
    ['uninstallPack', { pack: 'nope' }, 404, 'E306'],
    ['scanPack', { source: 'ftp://example.invalid/pack' }, 422, 'E301'],
    ['installPack', { source: '/no/such/folder', confirm: 'f'.repeat(64) }, 422, 'E301'],
    ['installPack', { source: '/tmp', confirm: 'yes' }, 400, 'E805'],
  ] as const)('%s %j fails with %i %s, the same error as the core', async (operation, input, status, code) => {
    const h = await fullHome();
    const response = await h.call(operation, input);
    expect(response.status).toBe(status);
    expect(response.envelope).toMatchObject({ ok: false, error: { code } });
    expect(withoutRunId(response.envelope)).toEqual(withoutRunId(await direct(h, operation, input)));
  });

  it('an unknown skill or tool name carries did_you_mean, as the core says it', async () => {
    const h = await fullHome();
    for (const [operation, input, suggested] of [
      ['describe', { skill: 'Echoes' }, 'echoes'],
      ['run', { skill: 'echos', tool: 'go' }, 'echoes'],
      ['run', { skill: 'echoes', tool: 'og' }, 'go'],
    ] as const) {
      const response = await h.call(operation, input);
      expect(response.envelope).toMatchObject({ ok: false, error: { details: { did_you_mean: [expect.objectContaining({ name: suggested })] } } });
      expect(withoutRunId(response.envelope)).toEqual(withoutRunId(await direct(h, operation, input)));
    }
  });

  it('search says when nothing matched (did-you-mean, the one skill searched) and marks a broken skill, last, as the core does (issue 39.4)', async () => {
    const t = testHome();
    const tool = '## Tools\n\n### greet\n\nGreet someone.\n\n#### Command\n\n```\necho hello\n```\n';
    // Its name differs from its folder (E407): it loads, and will not run.
    writeSkill(t.skills, 'hello', skillMd({ name: 'not-hello', description: 'Greets.' }, `# Hello\n\n${tool}`));
    writeSkill(t.skills, 'welcome', skillMd({ name: 'welcome', description: 'Welcomes guests.' }, '# Welcome\n\nGreet a guest at the door.\n'));
    const h = await serverHome({}, t);
    const cases = [
      ['searchAll', { query: 'xyzzy' }, { results: [], skill: null, message: 'no results for "xyzzy"', did_you_mean: null }],
      ['searchAll', { query: 'welcme' }, { results: [], message: 'no results for "welcme"; did you mean "welcome"?', did_you_mean: 'welcome' }],
      ['search', { skill: 'welcome', query: 'zebras' }, { results: [], skill: 'welcome', message: 'no results for "zebras" in skill \'welcome\'' }],
      [
        'searchAll',
        { query: 'greet' },
        {
          message: null,
          results: [
            { skill: 'welcome', errors: [] },
            { skill: 'hello', errors: ['E407'] },
          ],
        },
      ],
    ] as const;
    for (const [operation, input, value] of cases) {
      const response = await h.call(operation, input);
      expect(response).toMatchObject({ status: 200, envelope: { ok: true, value } });
      expect(response.envelope).toEqual(await direct(h, operation, input));
    }
  });

  it('relays policy refusals as 409: paused runs (E608)', async () => {
    const h = await fullHome();
    await h.call('setPaused', { paused: true });
    const response = await h.call('run', { skill: 'echoes', tool: 'go', args: { a: 'x' } });
    expect(response.status).toBe(409);
    expect(response.envelope).toMatchObject({ ok: false, error: { code: 'E608', kind: 'runs_paused' } });
  });
});

describe('GET /openapi.json', () => {
  it('is OpenAPI 3.1, needs no token, and names every operation with its input schema', async () => {
    const h = await serverHome();
    const response = await raw(h.server.port, { path: '/openapi.json' });
    expect(response.status).toBe(200);
    const doc = JSON.parse(response.body) as {
      openapi: string;
      paths: Record<
        string,
        {
          post?: { operationId: string; requestBody: { content: Record<string, { schema: { properties?: Record<string, unknown>; required?: string[] } }> } };
          get?: unknown;
        }
      >;
      components: { securitySchemes: Record<string, unknown> };
      security: unknown[];
    };
    expect(doc.openapi).toBe('3.1.0');
    for (const operation of OPERATIONS) expect(doc.paths[`/api/${operation}`]?.post?.operationId).toBe(operation);
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/api/') && p !== '/api/events' && p !== '/api/identify')).toHaveLength(OPERATIONS.length);
    const run = doc.paths['/api/run']?.post?.requestBody.content['application/json']?.schema;
    expect(Object.keys(run?.properties ?? {})).toEqual(['skill', 'tool', 'args', 'cwd', 'trace_id', 'channel']);
    expect(run?.required).toEqual(['skill', 'tool']);
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths['/api/events']?.get).toBeDefined();
  });
});

describe('the static UI', () => {
  const CSP =
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

  it('serves index.html for / and its assets, with the CSP and without a token', async () => {
    const h = await serverHome({ webDir: WEB_FIXTURE });
    const index = await raw(h.server.port, { path: '/' });
    expect(index.status).toBe(200);
    expect(index.body).toContain('fixture UI');
    expect(index.headers).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    });
    const script = await raw(h.server.port, { path: '/assets/app.js' });
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.body).toContain('fixture UI loaded');
    const head = await raw(h.server.port, { method: 'HEAD', path: '/' });
    expect([head.status, head.body]).toEqual([200, '']);
    expect((await raw(h.server.port, { method: 'POST', path: '/', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(405);
  });

  it('lists no directory and lets no path leave the web directory, symlinks included', async () => {
    const web = join(tempDir(), 'web');
    cpSync(WEB_FIXTURE, web, { recursive: true });
    const secretDir = tempDir();
    writeFileSync(join(secretDir, 'secret.txt'), 'TOP-SECRET');
    symlinkSync(join(secretDir, 'secret.txt'), join(web, 'leak.txt'));
    symlinkSync(secretDir, join(web, 'outside'));
    mkdirSync(join(web, 'empty'));
    writeFileSync(join(web, '.env'), 'TOP-SECRET');
    const h = await serverHome({ webDir: join(web, 'assets', '..') });
    const paths = [
      '/assets',
      '/assets/',
      '/empty/',
      '/leak.txt',
      '/outside/secret.txt',
      '/.env',
      '/..%2f..%2fsecret.txt',
      `/%2e%2e/%2e%2e${secretDir}/secret.txt`,
      `/..%2F..%2F..%2F..%2F..%2F..${secretDir}/secret.txt`,
      `/assets/..%5c..%5c..%5csecret.txt`,
      `/%00index.html`,
      `/%E0%A4%A`,
      `/${encodeURIComponent(join(secretDir, 'secret.txt'))}`,
    ];
    for (const path of paths) {
      const response = await raw(h.server.port, { path });
      expect([path, response.status]).toEqual([path, 404]);
      expect(response.body).not.toContain('TOP-SECRET');
      expect(errorOf(response).code).toBe('E806');
    }
    expect((await raw(h.server.port, { path: '/index.html' })).status).toBe(200);
  });

  it('is not served when no web directory is given', async () => {
    const h = await serverHome();
    const response = await raw(h.server.port, { path: '/' });
    expect(response.status).toBe(404);
    expect(errorOf(response).code).toBe('E806');
  });
});

describe('remote surfaces name loaded skills only', () => {
  it('a filesystem path in place of a skill name reads nothing (E001), though the CLI may take paths', async () => {
    const h = await serverHome();
    const elsewhere = tempDir();
    writeSkill(elsewhere, 'stray', skillMd({ name: 'stray', description: 'Not loaded.', version: '1.0.0' }, '# Stray\n'), { 'secret.txt': 'do not read' });
    const stray = join(elsewhere, 'stray');
    for (const [operation, input] of [
      ['open', { skill: stray, path: 'secret.txt' }],
      ['sources', { skill: stray }],
      ['outline', { skill: stray }],
      ['build', { skill: stray }],
      ['check', { target: stray }],
    ] as const) {
      const { status, envelope } = await h.call(operation, input);
      expect([operation, status, envelope.ok ? null : envelope.error.code]).toEqual([operation, 404, 'E001']);
    }
    expect(h.core.gateway.open(stray, 'secret.txt', {}, h.t.userHome).content).toBe('do not read');
  });
});
