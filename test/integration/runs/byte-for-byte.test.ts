/**
 * What runs is byte-for-byte what was approved, on every path that allows a run (a remembered
 * approval, an allow rule, bundled policy, a person): a script edited after the skill was loaded —
 * within the watcher's debounce, before the registry has seen it — is refused (E612) or asked about
 * again, and never runs. Each edit keeps the file's length.
 */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SkilltrayCore } from '../../../src-main/core/api.js';
import type { ServerEvent } from '../../../src-main/shared/contract.js';
import type { Approver } from '../../../src-main/core/runs/run-service.js';
import { noSandbox, type Sandbox } from '../../../src-main/core/process/sandbox/sandbox.js';
import { requireSandbox } from '../../support/sandbox.js';
import { skillMd, testHome, writeSkill, type TestHome } from '../../support/temp.js';
import { rejectionOf } from '../../support/errors.js';

beforeAll(() => requireSandbox());

const cores: SkilltrayCore[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
});

const SCRIPT_V1 = '#!/bin/sh\necho v1\n';
const SCRIPT_V2 = '#!/bin/sh\necho v2\n';

/** A skill whose tool runs its own script, `scripts/run.sh`. */
function scripted(t: TestHome, where: 'skills' | 'bundled'): string {
  const dir = writeSkill(
    t[where],
    'scripted',
    skillMd(
      { name: 'scripted', description: 'Runs its own script. Use when testing.', version: '1.0.0', read_only: true },
      '\n### go\n\nRuns the script.\n\n#### Parameters\n\nNone.\n\n#### Command\n\n```\nscripts/run.sh\n```\n',
    ),
    { 'scripts/run.sh': SCRIPT_V1 },
  );
  chmodSync(join(dir, 'scripts', 'run.sh'), 0o755);
  return dir;
}

/** A watched core: the registry reloads an edited skill after its debounce, as in the app. */
async function watched(t: TestHome, sandbox?: Sandbox): Promise<SkilltrayCore> {
  // Its bundled skills ship as the build would: sealed into the manifest as they are now.
  t.sealBundled();
  const core = new SkilltrayCore(t.config(), sandbox === undefined ? {} : { sandbox });
  cores.push(core);
  await core.registry.watch();
  return core;
}

/** Edits the script in place, keeping its length. */
function edit(dir: string): void {
  const file = join(dir, 'scripts', 'run.sh');
  expect(readFileSync(file, 'utf8').length).toBe(SCRIPT_V2.length);
  writeFileSync(file, SCRIPT_V2);
}

const run = (core: SkilltrayCore, approval: Approver) => core.runs.run({ skill: 'scripted', tool: 'go', surface: 'mcp' }, { approval });

/** Resolves when the watcher has reloaded `name`. */
function reloaded(core: SkilltrayCore, name: string): Promise<void> {
  return new Promise((resolve) => {
    const listener = (event: ServerEvent): void => {
      if (event.type !== 'skills.changed' || event.name !== name) return;
      core.off('event', listener);
      resolve();
    };
    core.on('event', listener);
  });
}

/** Every stdout the history holds for the skill: v2 must never appear. */
const outputs = (core: SkilltrayCore): string[] => core.runs.history({ skill: 'scripted' }).map((r) => core.runs.getRun(r.id).stdout ?? '');

describe('the remembered-approval race', () => {
  it('an "Always" approval does not run a script edited within the debounce; after the reload it asks again', async () => {
    const t = testHome();
    const dir = scripted(t, 'skills');
    const core = await watched(t);
    const first = await run(core, { kind: 'prompt', ask: async () => ({ verdict: 'always', actor: 'ada' }) });
    expect(first.result.stdout).toBe('v1\n');
    expect((await run(core, { kind: 'none' })).decision).toMatchObject({ outcome: 'auto', by: 'remembered' });

    const seen = reloaded(core, 'scripted');
    edit(dir);
    const error = await rejectionOf(run(core, { kind: 'none' }));
    expect(error.code).toBe('E612');
    expect(core.runs.history()[0]).toMatchObject({ status: 'refused', errorCode: 'E612', startedAt: null });

    await seen;
    const asked = await rejectionOf(run(core, { kind: 'none' }));
    expect(asked.code).toBe('E601');
    expect(asked.message).toContain("the skill's files have changed since you chose to always allow it");
    expect(outputs(core)).not.toContain('v2\n');
  });
});

describe('every other path that allows a run', () => {
  it('an allow rule', async () => {
    const t = testHome();
    const dir = scripted(t, 'skills');
    const core = await watched(t);
    core.policy.addRule('tool:scripted/go', 'allow');
    expect((await run(core, { kind: 'none' })).result.stdout).toBe('v1\n');
    edit(dir);
    expect((await rejectionOf(run(core, { kind: 'none' }))).code).toBe('E612');
    expect(outputs(core)).not.toContain('v2\n');
  });

  it('bundled read-only policy', async () => {
    const t = testHome();
    const dir = scripted(t, 'bundled');
    const core = await watched(t);
    expect((await run(core, { kind: 'none' })).decision).toMatchObject({ outcome: 'auto', by: 'policy' });
    edit(dir);
    expect((await rejectionOf(run(core, { kind: 'none' }))).code).toBe('E612');
    expect(outputs(core)).not.toContain('v2\n');
  });

  it('a person who approved before the edit', async () => {
    const t = testHome();
    const dir = scripted(t, 'skills');
    const core = await watched(t);
    const error = await rejectionOf(run(core, { kind: 'prompt', ask: async () => (edit(dir), { verdict: 'always', actor: 'ada' }) }));
    expect(error.code).toBe('E612');
    expect(core.policy.remembered()).toEqual([]);
    expect(outputs(core)).not.toContain('v2\n');
  });

  it.each([
    ['contained', false],
    ['not contained', true],
  ])('what does run is the snapshot (%s): an edit made once the run started does not reach it', async (_, uncontained) => {
    const t = testHome();
    const dir = writeSkill(
      t.bundled,
      'twice',
      skillMd(
        { name: 'twice', description: 'Reads its own file twice. Use when testing.', version: '1.0.0', read_only: true },
        '\n### go\n\nRuns the script.\n\n#### Parameters\n\nNone.\n\n#### Command\n\n```\nscripts/run.sh\n```\n',
      ),
      // The script says it started, waits for the test's go-ahead (a file in its cwd), then prints its data file.
      { 'scripts/run.sh': '#!/bin/sh\necho started\nwhile [ ! -e go ]; do sleep 0.01; done\ncat "$(dirname "$0")/data.txt"\n', 'scripts/data.txt': 'one' },
    );
    chmodSync(join(dir, 'scripts', 'run.sh'), 0o755);
    const core = await watched(t, uncontained ? noSandbox('simulated: no sandbox here') : undefined);
    const started = new Promise<void>((resolve) => {
      core.runs.service.on('run', (event) => {
        if (event.type === 'output' && event.text.includes('started')) resolve();
      });
    });
    const running = core.runs.run({ skill: 'twice', tool: 'go', surface: 'mcp', cwd: t.work }, { approval: { kind: 'preapproved', actor: 'test' } });
    await started;
    writeFileSync(join(dir, 'scripts', 'data.txt'), 'two');
    writeFileSync(join(t.work, 'go'), '');
    expect((await running).result.stdout).toBe('started\none');
  });
});
