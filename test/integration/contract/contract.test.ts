/**
 * One table of scenarios, run through every surface: the core's `callOperation`, the CLI with
 * `--json`, MCP (a real client over stdio) and the loopback HTTP API (the owner of runs). Each surface must give the same result as the
 * core (run ids, trace ids, durations and timestamps aside) and the same error code, kind,
 * message and details, except where the table says a surface differs and why.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SkilltrayCore } from '../../../src-main/core/api.js';
import { callOperation } from '../../../src-main/core/operations.js';
import type { Envelope, OperationName } from '../../../src-main/shared/contract.js';
import type { ErrorCode } from '../../../src-main/shared/errors.js';
import { LOGO_BYTES, SPECIES_MD, contractHome, type ContractHome } from './fixture.js';
import { cliSurface, coreSurface, httpSurface, mcpSurface, type Surface, type SurfaceName } from './surfaces.js';

interface Scenario {
  name: string;
  operation: OperationName;
  input(home: ContractHome): Record<string, unknown>;
  /** The error every surface answers with; absent when the call succeeds. */
  error?: ErrorCode;
  /** Surfaces that answer with another code, and why the table allows it. */
  differs?: Partial<Record<SurfaceName, { error: ErrorCode; why: string }>>;
  /** What a successful value must hold, checked on every surface on top of equality with the core. */
  check?(value: never, home: ContractHome): void;
}

interface Report {
  skill: string;
  decision: { outcome: string };
  result: { exitCode: number; stdout: string };
}

const SCENARIOS: Scenario[] = [
  {
    name: 'list: every loaded skill, bundled and user',
    operation: 'list',
    input: () => ({}),
    check: (value: { skills: { name: string; trust: string }[] }) => {
      expect(value.skills.map((s) => s.name)).toEqual(expect.arrayContaining(['field-notes', 'files', 'system', 'artifact-checksum']));
      expect(value.skills.find((s) => s.name === 'field-notes')?.trust).toBe('user');
    },
  },
  {
    name: 'describe: one skill whole',
    operation: 'describe',
    input: () => ({ skill: 'field-notes' }),
    check: (value: { name: string; tools: { name: string }[] }) => expect(value).toMatchObject({ name: 'field-notes', tools: [{ name: 'record_sighting' }] }),
  },
  { name: 'describe: an unknown skill is E001', operation: 'describe', input: () => ({ skill: 'no-such-skill' }), error: 'E001' },
  {
    name: 'connectAssistant: a client Skilltray does not know is E851',
    operation: 'connectAssistant',
    input: () => ({ client: 'emacs', dry_run: true }),
    error: 'E851',
  },
  {
    name: 'disconnectAssistant: a client Skilltray does not know is E851',
    operation: 'disconnectAssistant',
    input: () => ({ client: 'emacs' }),
    error: 'E851',
  },
  {
    name: 'discover: ranked candidates for an intent',
    operation: 'discover',
    input: () => ({ intent: 'log a bird sighting' }),
    check: (value: { results: { skill_id: string }[] }) => expect(value.results[0]?.skill_id).toBe('field-notes'),
  },
  {
    name: 'discover: the best match in a role left out is named in also (#39.7)',
    operation: 'discover',
    input: () => ({ intent: 'verify the sha256 of my release tarball' }),
    check: (value: { results: { skill_id: string; score: number }[]; also: { skill_id: string; role: string; score: number }[] }) => {
      expect(value.also[0]).toMatchObject({ skill_id: 'artifact-checksum', role: 'sidecar' });
      expect(value.also[0]?.score).toBeGreaterThan(value.results[0]?.score ?? 0);
      expect(value.results.map((r) => r.skill_id)).not.toContain('artifact-checksum');
    },
  },
  {
    name: 'discover: a limit below 1 is E805',
    operation: 'discover',
    input: () => ({ intent: 'log a bird sighting', limit: 0 }),
    error: 'E805',
    differs: { cli: { error: 'E100', why: 'the command line checks --limit itself, before the core sees it' } },
  },
  {
    name: 'run: a bundled read-only tool runs for real without asking',
    operation: 'run',
    input: (home) => ({ skill: 'files', tool: 'word_count', args: { path: home.artifact }, cwd: home.work }),
    check: (value: Report) => {
      expect(value.decision.outcome).toBe('auto');
      expect(value.result.exitCode).toBe(0);
      expect(value.result.stdout).toMatch(/^\s*2\s+5\s+24\s/);
    },
  },
  {
    name: 'run: a user tool with nobody to ask is E601, never a silent run',
    operation: 'run',
    input: () => ({ skill: 'field-notes', tool: 'record_sighting', args: { species: 'robin' } }),
    error: 'E601',
    differs: { http: { error: 'E604', why: 'HTTP is the owner of runs: it asks the person, and nobody answers within the short approval timeout' } },
  },
  { name: 'run: an unknown tool is E506', operation: 'run', input: () => ({ skill: 'field-notes', tool: 'fly_away' }), error: 'E506' },
  {
    name: 'run: a request without a tool is refused before anything happens',
    operation: 'run',
    input: () => ({ skill: 'field-notes' }),
    error: 'E805',
    differs: { cli: { error: 'E101', why: 'the tool is a required positional, refused by the command-line parser (E101, in the RFC-0005 CLI range)' } },
  },
  {
    name: 'outline: the headings of every markdown file',
    operation: 'outline',
    input: () => ({ skill: 'field-notes' }),
    check: (value: { headings: { text: string }[] }) => expect(value.headings.map((h) => h.text)).toEqual(expect.arrayContaining(['Installation', 'Robin'])),
  },
  { name: 'outline: an unknown skill is E001', operation: 'outline', input: () => ({ skill: 'no-such-skill' }), error: 'E001' },
  {
    name: 'show: a section by its heading',
    operation: 'show',
    input: () => ({ skill: 'field-notes', section: 'logging a sighting' }),
    check: (value: { content: string }) => expect(value.content).toBe('## Logging a sighting\n\nWrite down the species, the place and the time.'),
  },
  { name: 'show: an unknown heading is E020 with suggestions', operation: 'show', input: () => ({ skill: 'field-notes', section: 'Install' }), error: 'E020' },
  {
    name: 'open: a text file of the skill',
    operation: 'open',
    input: () => ({ skill: 'field-notes', path: 'references/species.md' }),
    check: (value: { content: string; encoding: string }) => expect(value).toMatchObject({ encoding: 'utf-8', content: SPECIES_MD }),
  },
  {
    name: 'open: a binary file comes back in base64',
    operation: 'open',
    input: () => ({ skill: 'field-notes', path: 'assets/logo.bin' }),
    check: (value: { content: string; encoding: string }) => expect(value).toMatchObject({ encoding: 'base64', content: LOGO_BYTES.toString('base64') }),
  },
  { name: 'open: a path out of the skill is E012', operation: 'open', input: () => ({ skill: 'field-notes', path: '../../home/state.db' }), error: 'E012' },
  { name: 'open: a missing file is E021', operation: 'open', input: () => ({ skill: 'field-notes', path: 'references/missing.md' }), error: 'E021' },
  {
    name: "sources: the skill's files as a tree",
    operation: 'sources',
    input: () => ({ skill: 'field-notes', depth: 2 }),
    check: (value: { entries: { path: string }[] }) =>
      expect(value.entries.map((e) => e.path)).toEqual(expect.arrayContaining(['references/species.md', 'assets/logo.bin'])),
  },
  { name: 'sources: a missing directory is E022', operation: 'sources', input: () => ({ skill: 'field-notes', dir: 'nowhere' }), error: 'E022' },
  {
    name: 'search: ranked sections of one skill',
    operation: 'search',
    input: () => ({ skill: 'field-notes', query: 'binoculars' }),
    check: (value: { results: { section: string }[] }) => expect(value.results[0]?.section).toBe('Installation'),
  },
  {
    name: 'search all: one ranked list over every skill',
    operation: 'searchAll',
    input: () => ({ query: 'robin dawn' }),
    check: (value: { results: { skill: string; section: string }[] }) => expect(value.results[0]).toMatchObject({ skill: 'field-notes', section: 'Robin' }),
  },
  {
    name: 'attach: a direct-only skill is E801 not_attachable',
    operation: 'attach',
    input: () => ({ skill_id: 'system', target_type: 'run', target_ref: 'run-1' }),
    error: 'E801',
  },
  {
    name: 'attach: a target type the skill does not list is E801 target_not_allowed',
    operation: 'attach',
    input: () => ({ skill_id: 'artifact-checksum', target_type: 'task', target_ref: 'task-1' }),
    error: 'E801',
  },
  {
    name: 'attach: a sidecar applied to an artifact runs',
    operation: 'attach',
    input: (home) => ({ skill_id: 'artifact-checksum', target_type: 'artifact', target_ref: home.artifact, cwd: home.work }),
    check: (value: { execution: Report }, home) => {
      expect(value.execution.result.exitCode).toBe(0);
      expect(value.execution.result.stdout).toContain(home.artifact);
    },
  },
];

/** Keys whose values are per call (ids, clocks), set aside before comparing surfaces. */
const VOLATILE = new Set(['id', 'traceId', 'runId', 'durationMs', 'attached_at']);

function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, VOLATILE.has(k) ? '<volatile>' : stable(v)]));
}

/** How long the HTTP owner waits for a person before E604. */
const APPROVAL_TIMEOUT_MS = 300;

// HTTP last: while it runs it owns runs for the home, and the CLI and the bridge would forward to it.
const SURFACES: Surface[] = [coreSurface(), cliSurface(), mcpSurface(), httpSurface(APPROVAL_TIMEOUT_MS)];

let base: string;
let home: ContractHome;
let reference: SkilltrayCore;
const answers = new Map<Scenario, Envelope<unknown>>();

/** What the core answers for a scenario: the result every surface is compared with. */
async function expected(scenario: Scenario): Promise<Envelope<unknown>> {
  let answer = answers.get(scenario);
  if (answer === undefined) {
    answer = await callOperation(reference, scenario.operation, scenario.input(home), {
      surface: 'ui',
      caller: { kind: 'person' },
      cwd: home.work,
      approval: { kind: 'none' },
      owner: 'app',
      version: '0.0.0-test',
    });
    answers.set(scenario, answer);
  }
  return answer;
}

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'skilltray-contract-'));
  home = contractHome(base);
  reference = new SkilltrayCore(home.config());
  // The CLI reports E002 for a skill never built (only the app and the bridges build on demand): build once for all.
  const { failed } = reference.gateway.buildAll(home.work);
  expect(failed).toEqual([]);
});

afterAll(async () => {
  await reference.close();
  rmSync(base, { recursive: true, force: true });
});

describe.each(SURFACES)('contract through $name', (surface) => {
  beforeAll(() => surface.start(home));
  afterAll(() => surface.stop());

  for (const scenario of SCENARIOS) {
    if (!surface.supports(scenario.operation)) {
      // A surface may leave an operation out only on purpose, saying why; an operation added to the
      // contract and forgotten on a surface fails here.
      const why = surface.withheld?.[scenario.operation];
      it(`${scenario.name}: left out of ${surface.name} on purpose${why === undefined ? '' : ` (${why})`}`, () => {
        expect(why, `${surface.name} has no way to call ${scenario.operation} and does not say why`).toBeDefined();
      });
      continue;
    }
    it(scenario.name, async () => {
      const want = await expected(scenario);
      const got = await surface.call(scenario.operation, scenario.input(home));
      const code = scenario.differs?.[surface.name]?.error ?? scenario.error;
      if (code !== undefined) {
        expect(want.ok ? null : want.error.code, 'the core itself').toBe(scenario.error);
        if (got.ok) throw new Error(`expected ${code}, got a result`);
        expect(got.error.code).toBe(code);
        if (code === scenario.error) expect(stable(got.error)).toEqual(stable(want.ok ? null : want.error));
        return;
      }
      if (!got.ok) throw new Error(`expected a result, got ${JSON.stringify(got.error)}`);
      if (!want.ok) throw new Error(`the core itself failed: ${JSON.stringify(want.error)}`);
      scenario.check?.(got.value as never, home);
      expect(stable(got.value)).toEqual(stable(want.value));
    });
  }
});
