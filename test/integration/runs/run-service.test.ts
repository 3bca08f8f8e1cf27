import { chmodSync, existsSync, mkdirSync, readdirSync, readlinkSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SkilltrayCore } from '../../../src-main/core/api.js';
import { systemPath } from '../../../src-main/core/process/tool-env.js';
import type { SkilltrayError } from '../../../src-main/shared/skilltray-error.js';
import type { PendingApproval, RunEvent, Verdict } from '../../../src-main/shared/runs.js';
import { PROCESS_FIXTURES, skillMd, testHome, writeFiles, writeSkill, type TestHome } from '../../support/temp.js';
import { rejectionOf } from '../../support/errors.js';
import { coresClosedAfterEach } from '../../support/cores.js';
import { captureWarnings } from '../../support/warnings.js';

const NODE = process.execPath;
const fixture = (name: string) => join(PROCESS_FIXTURES, name);

/** A SKILL.md with one tool whose command is given; by default parameters a and b are optional strings. */
function toolSkill(
  name: string,
  command: string,
  frontmatter: Record<string, unknown> = {},
  rows: string | null = '| a | string | no | first |\n| b | string | no | second |',
) {
  const params = rows === null ? 'None.' : `| Name | Type | Required | Description |\n|---|---|---|---|\n${rows}`;
  return skillMd(
    { name, description: `The ${name} skill.`, version: '1.0.0', reads: [PROCESS_FIXTURES], ...frontmatter },
    `\n### go\n\nRuns it.\n\n#### Parameters\n\n${params}\n\n#### Command\n\n\`\`\`\n${command}\n\`\`\`\n`,
  );
}

const opener = coresClosedAfterEach();
/** A core over the test home, its bundled skills sealed into a manifest as the build would ship them. */
const open = (t: TestHome, env?: NodeJS.ProcessEnv): SkilltrayCore => {
  t.sealBundled();
  return opener(t, env);
};

const argvCommand = `${NODE} ${fixture('print-argv.mjs')} <<a>> <<b>>`;
const once = (actor = 'tester'): { kind: 'prompt'; ask: (p: PendingApproval) => Promise<Verdict> } => ({
  kind: 'prompt',
  ask: async () => ({ verdict: 'once', actor }),
});

describe('the run pipeline: render → policy → approval → run → record', () => {
  it('auto-runs a bundled read-only tool and records who decided', async () => {
    const t = testHome();
    writeSkill(t.bundled, 'echoes', toolSkill('echoes', argvCommand, { read_only: true }));
    const core = open(t);
    const report = await core.runs.run(
      { skill: 'echoes', tool: 'go', args: { a: 'one', b: 'two words' }, surface: 'cli', cwd: t.work },
      { approval: { kind: 'none' } },
    );
    expect(JSON.parse(report.result.stdout)).toEqual(['one', 'two words']);
    expect(report.decision).toMatchObject({ outcome: 'auto', by: 'policy' });
    expect(report.programPath).toBe(NODE);
    const [record] = core.runs.history();
    expect(record).toMatchObject({
      id: report.id,
      status: 'succeeded',
      outcome: 'auto',
      decidedBy: 'policy',
      exitCode: 0,
      surface: 'cli',
      skill: 'echoes',
      tool: 'go',
    });
    expect(core.runs.getRun(report.id).stdout).toBe('["one","two words"]');
  });

  it('refuses a user tool when nobody can be asked (E601), with the run id, and records it', async () => {
    const t = testHome();
    writeSkill(t.skills, 'echoes', toolSkill('echoes', argvCommand, { read_only: true }));
    const core = open(t);
    const error = await rejectionOf(core.runs.run({ skill: 'echoes', tool: 'go', surface: 'mcp' }, { approval: { kind: 'none' } }));
    expect(error).toMatchObject({ code: 'E601', kind: 'approval_required' });
    expect(error.message).toContain('needs approval from the person at the desktop');
    expect(core.runs.history()[0]).toMatchObject({
      id: error.details?.runId,
      status: 'refused',
      outcome: 'refused',
      errorCode: 'E601',
      exitCode: null,
      startedAt: null,
    });
  });

  it("a call refused before anything was decided (no such skill or tool, bad arguments, a bad folder) is the caller's error, not a history row; a refusal of the box or of policy is", async () => {
    const t = testHome();
    writeSkill(t.skills, 'echoes', toolSkill('echoes', argvCommand, { read_only: true }));
    const core = open(t);
    const calls = [
      [{ skill: 'echos', tool: 'go' }, 'E001'],
      [{ skill: 'echoes', tool: 'og' }, 'E506'],
      [{ skill: 'echoes', tool: 'go', args: { c: 'x' } }, 'E502'],
      [{ skill: 'echoes', tool: 'go', args: { a: 3 } }, 'E503'],
      [{ skill: 'echoes', tool: 'go', args: [] }, 'E508'],
      [{ skill: 'echoes', tool: 'go', cwd: 'relative/dir' }, 'E510'],
    ] as const;
    for (const [call, code] of calls) {
      const error = await rejectionOf(core.runs.run({ ...call, surface: 'mcp' }, { approval: { kind: 'none' } }));
      expect(error.code).toBe(code);
      expect(error.details?.runId).toBeUndefined();
    }
    expect(core.runs.history()).toEqual([]);
    // Refused by the box (the home is no run's folder) or by policy (nobody to ask): runs someone asked for, which history keeps.
    const boxed = await rejectionOf(core.runs.run({ skill: 'echoes', tool: 'go', surface: 'mcp', cwd: t.userHome }, { approval: { kind: 'none' } }));
    const decided = await rejectionOf(core.runs.run({ skill: 'echoes', tool: 'go', surface: 'mcp', cwd: t.work }, { approval: { kind: 'none' } }));
    expect(
      core.runs
        .history()
        .map((r) => [r.id, r.errorCode])
        .reverse(),
    ).toEqual([
      [boxed.details?.runId, 'E511'],
      [decided.details?.runId, 'E601'],
    ]);
  });

  it('asks a person: once runs; deny is E603 and nothing starts', async () => {
    const t = testHome();
    writeSkill(t.skills, 'echoes', toolSkill('echoes', argvCommand));
    const core = open(t);
    const seen: PendingApproval[] = [];
    const report = await core.runs
      .run(
        { skill: 'echoes', tool: 'go', args: { a: '--not-an-option-because-b' }, surface: 'cli' },
        { approval: { kind: 'prompt', ask: async (p) => (seen.push(p), { verdict: 'once', actor: 'ada' }) } },
      )
      .catch((e: SkilltrayError) => e);
    expect(report).toMatchObject({ code: 'E504' });
    expect(seen).toEqual([]);

    const ok = await core.runs.run(
      { skill: 'echoes', tool: 'go', args: { a: 'x' }, surface: 'cli' },
      { approval: { kind: 'prompt', ask: async (p) => (seen.push(p), { verdict: 'once', actor: 'ada' }) } },
    );
    expect(ok.decision).toMatchObject({ outcome: 'approved', by: 'user', actor: 'ada' });
    expect(seen[0]).toMatchObject({ skill: 'echoes', tool: 'go', trust: 'user', programPath: NODE, argv: [fixture('print-argv.mjs'), 'x'], env: [] });

    const denied = await rejectionOf(
      core.runs.run({ skill: 'echoes', tool: 'go', surface: 'cli' }, { approval: { kind: 'prompt', ask: async () => ({ verdict: 'deny', actor: 'ada' }) } }),
    );
    expect(denied).toMatchObject({ code: 'E603', kind: 'denied_by_user' });
    expect(core.runs.history()[0]).toMatchObject({ status: 'denied', outcome: 'denied', decidedBy: 'user', actor: 'ada', startedAt: null });
  });

  it('always allow is remembered, pinned to the skill hash: an edit makes it ask again', async () => {
    const t = testHome();
    const dir = writeSkill(t.skills, 'echoes', toolSkill('echoes', argvCommand));
    const core = open(t);
    let asked = 0;
    const ask = { kind: 'prompt' as const, ask: async (): Promise<Verdict> => (asked++, { verdict: 'always', actor: 'ada' }) };
    await core.runs.run({ skill: 'echoes', tool: 'go', surface: 'cli' }, { approval: ask });
    const second = await core.runs.run({ skill: 'echoes', tool: 'go', surface: 'cli' }, { approval: { kind: 'none' } });
    expect(second.decision).toMatchObject({ outcome: 'auto', by: 'remembered' });
    expect(asked).toBe(1);
    expect(core.policy.remembered()).toEqual([expect.objectContaining({ skill: 'echoes', tool: 'go', programPath: NODE })]);

    writeFileSync(join(dir, 'notes.md'), '# a new file changes the content hash\n');
    core.registry.reload('echoes');
    const lapsed = await rejectionOf(core.runs.run({ skill: 'echoes', tool: 'go', surface: 'cli' }, { approval: { kind: 'none' } }));
    expect(lapsed.code).toBe('E601');
    expect(core.runs.dryRun({ skill: 'echoes', tool: 'go', surface: 'cli' })).toMatchObject({ decision: 'ask', reason: expect.stringContaining('has lapsed') });
  });

  it('deny rules win over --yes; always_ask asks even with an allow rule', async () => {
    const t = testHome();
    writeSkill(t.skills, 'echoes', toolSkill('echoes', argvCommand));
    writeSkill(t.bundled, 'careful', toolSkill('careful', argvCommand, { read_only: true, always_ask: true }));
    const core = open(t);
    core.policy.addRule('skill:ech*', 'deny');
    const denied = await rejectionOf(core.runs.run({ skill: 'echoes', tool: 'go', surface: 'cli' }, { approval: { kind: 'preapproved', actor: 'cli --yes' } }));
    expect(denied).toMatchObject({ code: 'E602', kind: 'denied_by_rule' });
    core.policy.addRule('tool:careful/go', 'allow');
    expect(core.runs.dryRun({ skill: 'careful', tool: 'go', surface: 'cli' }).decision).toBe('ask');
  });

  it('refuses before spawning: paused, mode, missing binary, missing environment', async () => {
    const t = testHome();
    writeSkill(t.bundled, 'meeting', toolSkill('meeting', argvCommand, { read_only: true, modes: ['Meeting'] }));
    writeSkill(t.bundled, 'needs', toolSkill('needs', argvCommand, { read_only: true, requires: { bins: ['no-such-binary-here'], env: [] } }));
    writeSkill(t.bundled, 'secret', toolSkill('secret', argvCommand, { read_only: true, requires: { bins: [], env: ['SKT_TEST_TOKEN'] } }));
    const core = open(t);
    const run = (skill: string) => rejectionOf(core.runs.run({ skill, tool: 'go', surface: 'http' }, { approval: { kind: 'none' } }));
    expect((await run('meeting')).code).toBe('E605');
    expect((await run('needs')).code).toBe('E606');
    expect((await run('secret')).code).toBe('E607');
    core.preferences.setMode('Meeting');
    core.preferences.setPaused(true);
    expect((await run('meeting')).code).toBe('E608');
    core.preferences.setPaused(false);
    expect((await core.runs.run({ skill: 'meeting', tool: 'go', surface: 'http' }, { approval: { kind: 'none' } })).result.exitCode).toBe(0);
    expect(core.runs.history({ status: 'refused' }).map((r) => r.errorCode)).toEqual(['E608', 'E607', 'E606', 'E605']);
  });

  it('waits in the broker for the owner of runs: approve, deny, or time out', async () => {
    const t = testHome();
    writeSkill(t.skills, 'echoes', toolSkill('echoes', argvCommand));
    const core = open(t);
    const added = new Promise<void>((resolve) => core.on('event', (e) => e.type === 'approval.added' && resolve()));
    const approved = core.runs.run({ skill: 'echoes', tool: 'go', args: { a: 'hi' }, surface: 'http' }, { approval: { kind: 'broker' } });
    await added;
    const [pending] = core.broker.list();
    expect(pending).toMatchObject({ skill: 'echoes', surface: 'http', argv: [fixture('print-argv.mjs'), 'hi'] });
    core.broker.resolve(pending!.id, 'once', 'tray');
    expect(JSON.parse((await approved).result.stdout)).toEqual(['hi']);

    const timedOut = await rejectionOf(core.runs.run({ skill: 'echoes', tool: 'go', surface: 'http' }, { approval: { kind: 'broker', timeoutMs: 50 } }));
    expect(timedOut).toMatchObject({ code: 'E604', kind: 'approval_timed_out' });
    expect(core.runs.history()[0]).toMatchObject({ status: 'refused', decidedBy: 'timeout' });
  });

  it('refuses a run whose skill changed while it waited for approval (E612)', async () => {
    const t = testHome();
    const dir = writeSkill(t.skills, 'echoes', toolSkill('echoes', argvCommand));
    const core = open(t);
    const error = await rejectionOf(
      core.runs.run(
        { skill: 'echoes', tool: 'go', surface: 'cli' },
        {
          approval: {
            kind: 'prompt',
            ask: async () => {
              writeFileSync(join(dir, 'SKILL.md'), toolSkill('echoes', `${NODE} ${fixture('print-env.mjs')}`));
              core.registry.reload('echoes');
              return { verdict: 'once', actor: 'ada' };
            },
          },
        },
      ),
    );
    expect(error.code).toBe('E612');
  });

  it('streams events and cancels a running tool (its whole tree dies)', async () => {
    const t = testHome();
    writeSkill(t.bundled, 'slow', toolSkill('slow', `${NODE} ${fixture('behave.mjs')} out:started sleep:60000 <<a>> <<b>>`, { read_only: true, timeout: 60 }));
    const core = open(t);
    const events: RunEvent['type'][] = [];
    core.runs.service.on('run', (e) => {
      events.push(e.type);
      // Cancelled once it is running for sure (it printed); it would sleep 60 s otherwise, past the test's timeout.
      if (e.type === 'output') core.runs.service.cancel(e.id);
    });
    const report = await core.runs.run({ skill: 'slow', tool: 'go', surface: 'ui' }, { approval: { kind: 'none' } });
    expect(report.result).toMatchObject({ cancelled: true, timedOut: false });
    expect(events).toEqual(['decided', 'started', 'output', 'finished']);
    expect(core.runs.history()[0]?.status).toBe('cancelled');
  });

  it('passes no secret from Skilltray’s environment, only what the skill declares', async () => {
    const t = testHome();
    writeSkill(
      t.bundled,
      'envy',
      toolSkill('envy', `${NODE} ${fixture('print-env.mjs')}`, { read_only: true, requires: { bins: [], env: ['DECLARED_KEY'] } }, null),
    );
    const core = open(t, { SECRET_TOKEN: 'leak-me', AWS_SECRET_ACCESS_KEY: 'nope', DECLARED_KEY: 'fine', SKILLTRAY_TOKEN: 'never' });
    const env = JSON.parse((await core.runs.run({ skill: 'envy', tool: 'go', surface: 'cli' }, { approval: once() })).result.stdout) as Record<string, string>;
    expect(env.DECLARED_KEY).toBe('fine');
    expect(env.SECRET_TOKEN).toBeUndefined();
    expect(env.AWS_SECRET_ACCESS_KEY).toBeUndefined();
    expect(env.SKILLTRAY_TOKEN).toBeUndefined();
    expect(env.PATH).toBe(systemPath(process.env.PATH ?? '', process.platform));
  });

  it("bad arguments never reach a process: E502, E503, E504, E501 — the caller's errors, not history rows", async () => {
    const t = testHome();
    writeSkill(t.bundled, 'echoes', toolSkill('echoes', argvCommand, { read_only: true }, '| a | string | yes | first |\n| b | integer | no | second |'));
    const core = open(t);
    const cases: [unknown, string][] = [
      [{ a: 'x', z: 1 }, 'E502'],
      [{ a: 'x', b: 'five' }, 'E503'],
      [{ a: '--upload-pack=evil' }, 'E504'],
      [{}, 'E501'],
      [['not', 'an', 'object'], 'E508'],
    ];
    for (const [args, code] of cases) {
      const error = await rejectionOf(core.runs.run({ skill: 'echoes', tool: 'go', args, surface: 'mcp' }, { approval: { kind: 'none' } }));
      expect(error.code).toBe(code);
      expect(error.details?.runId).toBeUndefined();
    }
    expect(core.runs.history()).toEqual([]);
  });

  it('property: any argument values reach the program exactly as given — no shell ever interprets them', async () => {
    const t = testHome();
    writeSkill(t.bundled, 'echoes', toolSkill('echoes', argvCommand, { read_only: true }));
    const core = open(t);
    const sentinel = join(t.work, 'pwned');
    const value = fc.oneof(
      fc.string({ minLength: 1, maxLength: 40 }).filter((s) => !s.startsWith('-') && !s.includes('\0')),
      fc.constantFrom(
        `$(touch ${sentinel})`,
        `; touch ${sentinel}`,
        `\`touch ${sentinel}\``,
        `| touch ${sentinel}`,
        `&& touch ${sentinel}`,
        '"quoted" \'single\'',
        '*',
        '~',
        '$HOME',
        'a b\tc\nd',
      ),
    );
    await fc.assert(
      fc.asyncProperty(value, value, async (a, b) => {
        // Pre-approved: some values look like hidden paths and would ask; this property is about the shell, not policy.
        const report = await core.runs.run(
          { skill: 'echoes', tool: 'go', args: { a, b }, surface: 'cli', cwd: t.work },
          { approval: { kind: 'preapproved', actor: 'test' } },
        );
        expect(JSON.parse(report.result.stdout)).toEqual([a, b]);
      }),
      { numRuns: 25 },
    );
    expect(existsSync(sentinel)).toBe(false);
  });
});

describe('programs shipped in a skill folder', () => {
  it('a relative program path runs the skill’s own script, found in the skill directory whatever the cwd', async () => {
    const t = testHome();
    const dir = writeSkill(t.bundled, 'scripted', toolSkill('scripted', 'scripts/hello.mjs <<a>>', { read_only: true }), {
      'scripts/hello.mjs': `#!${NODE}\nprocess.stdout.write('hello ' + process.argv[2]);\n`,
    });
    chmodSync(join(dir, 'scripts', 'hello.mjs'), 0o755);
    const core = open(t);
    const report = await core.runs.run({ skill: 'scripted', tool: 'go', args: { a: 'world' }, surface: 'cli', cwd: t.work }, { approval: { kind: 'none' } });
    expect(report.programPath).toBe(realpathSync(join(dir, 'scripts', 'hello.mjs')));
    expect(report.result.stdout).toBe('hello world');
  });

  it('a relative program path may not leave the skill (E012), even through a symlink', async () => {
    const t = testHome();
    const dir = writeSkill(t.bundled, 'escape', toolSkill('escape', '../escape2/run.sh', { read_only: true }));
    writeSkill(t.bundled, 'escape2', toolSkill('escape2', 'true'), { 'run.sh': '#!/bin/sh\n' });
    chmodSync(join(t.bundled, 'escape2', 'run.sh'), 0o755);
    const core = open(t);
    const go = () => rejectionOf(core.runs.run({ skill: 'escape', tool: 'go', surface: 'cli' }, { approval: { kind: 'none' } }));
    expect((await go()).code).toBe('E012');
    symlinkSync(join(t.bundled, 'escape2', 'run.sh'), join(dir, 'linked.sh'));
    writeFileSync(join(dir, 'SKILL.md'), toolSkill('escape', './linked.sh', { read_only: true }));
    core.registry.reload('escape');
    expect((await go()).code).toBe('E012');
  });
});

describe('shutdown', () => {
  it('closing the core cancels live runs (their trees die) and withdraws pending approvals', async () => {
    const t = testHome();
    writeSkill(t.bundled, 'slow', toolSkill('slow', `${NODE} ${fixture('behave.mjs')} sleep:60000 <<a>> <<b>>`, { read_only: true, timeout: 60 }));
    writeSkill(t.skills, 'asks', toolSkill('asks', argvCommand));
    t.sealBundled();
    const core = new SkilltrayCore(t.config());
    const started = new Promise<void>((resolve) => core.runs.service.on('run', (e) => e.type === 'started' && resolve()));
    const added = new Promise<void>((resolve) => core.on('event', (e) => e.type === 'approval.added' && resolve()));
    const running = core.runs.run({ skill: 'slow', tool: 'go', surface: 'http' }, { approval: { kind: 'none' } });
    const waiting = rejectionOf(core.runs.run({ skill: 'asks', tool: 'go', surface: 'http' }, { approval: { kind: 'broker' } }));
    await Promise.all([started, added]);
    // The tool sleeps 60 s: close returns within the test's timeout only by killing it.
    await core.close();
    expect((await running).result.cancelled).toBe(true);
    expect((await waiting).code).toBe('E613');
  });
});

describe('what a tool that runs unasked may reach', () => {
  it('a bundled read-only tool asks when an argument names a hidden path or Skilltray’s own data', async () => {
    const t = testHome();
    writeSkill(t.bundled, 'reader', toolSkill('reader', argvCommand, { read_only: true }));
    writeFiles(t.work, { '.ssh/id_ed25519': 'secret', 'notes.txt': 'fine' });
    const core = open(t);
    const auto = await core.runs.run({ skill: 'reader', tool: 'go', args: { a: 'notes.txt' }, surface: 'mcp', cwd: t.work }, { approval: { kind: 'none' } });
    expect(auto.decision).toMatchObject({ outcome: 'auto', by: 'policy' });
    for (const a of ['.ssh/id_ed25519', join(t.home, 'token')]) {
      const refused = await rejectionOf(
        core.runs.run({ skill: 'reader', tool: 'go', args: { a }, surface: 'mcp', cwd: t.work }, { approval: { kind: 'none' } }),
      );
      expect(refused.code).toBe('E601');
      expect(refused.details?.reason).toMatch(/would run without asking .* but its argument 'a'/);
    }
  });

  it('a script in a hidden folder of the skill is refused (E012): the content hash does not cover it', async () => {
    const t = testHome();
    const dir = writeSkill(t.bundled, 'sneaky', toolSkill('sneaky', '.bin/run.mjs <<a>>', { read_only: true }), { '.bin/run.mjs': `#!${NODE}\n` });
    chmodSync(join(dir, '.bin', 'run.mjs'), 0o755);
    const core = open(t);
    const error = await rejectionOf(core.runs.run({ skill: 'sneaky', tool: 'go', surface: 'cli', cwd: t.work }, { approval: { kind: 'none' } }));
    expect(error).toMatchObject({ code: 'E012' });
    expect(error.message).toContain("is in a hidden folder, which the skill's content hash does not cover");
  });
});

describe('after the person approves', () => {
  it('a skill edited on disk while it waited is refused (E612), even before the watcher reloads it, and "always" is not remembered', async () => {
    const t = testHome();
    const dir = writeSkill(t.skills, 'echoes', toolSkill('echoes', argvCommand));
    const core = open(t);
    const approval = {
      kind: 'prompt' as const,
      ask: async (): Promise<Verdict> => {
        writeFileSync(join(dir, 'extra.md'), '# changed\n');
        return { verdict: 'always', actor: 'ada' };
      },
    };
    expect((await rejectionOf(core.runs.run({ skill: 'echoes', tool: 'go', surface: 'cli' }, { approval }))).code).toBe('E612');
    expect(core.policy.remembered()).toEqual([]);
  });

  it('runs paused, or a mode chosen, while it waited are respected (E608, E605)', async () => {
    const t = testHome();
    writeSkill(t.skills, 'echoes', toolSkill('echoes', argvCommand));
    const core = open(t);
    const approveAfter = (change: () => void) => ({
      kind: 'prompt' as const,
      ask: async (): Promise<Verdict> => {
        change();
        return { verdict: 'once', actor: 'ada' };
      },
    });
    expect(
      (await rejectionOf(core.runs.run({ skill: 'echoes', tool: 'go', surface: 'cli' }, { approval: approveAfter(() => core.preferences.setPaused(true)) })))
        .code,
    ).toBe('E608');
    core.preferences.setPaused(false);
    expect(
      (await rejectionOf(core.runs.run({ skill: 'echoes', tool: 'go', surface: 'cli' }, { approval: approveAfter(() => core.preferences.setMode('Meeting')) })))
        .code,
    ).toBe('E605');
    expect(core.runs.history().filter((r) => r.startedAt !== null)).toEqual([]);
  });
});

describe('listeners', () => {
  it('a listener that throws is reported, and the run, its record and the other listeners go on', async () => {
    const t = testHome();
    writeSkill(t.bundled, 'echoes', toolSkill('echoes', argvCommand, { read_only: true }));
    const core = open(t);
    const warnings = captureWarnings();
    const seen: string[] = [];
    core.on('event', () => {
      throw new Error('a broken listener');
    });
    core.on('event', (event) => event.type === 'run' && seen.push(event.event.type));
    const report = await core.runs.run({ skill: 'echoes', tool: 'go', args: { a: 'x' }, surface: 'cli', cwd: t.work }, { approval: { kind: 'none' } });
    expect(report.result.exitCode).toBe(0);
    expect(core.runs.getRun(report.id).status).toBe('succeeded');
    expect(seen).toEqual(['decided', 'started', 'output', 'finished']);
    // One warning for each event the broken listener was given.
    expect(warnings.messages).toEqual(Array(seen.length).fill("a 'event' listener failed: a broken listener"));
  });
});

describe('policy changes are announced', () => {
  it('adding or removing a rule, and remembering or revoking an approval, each emit policy.changed', async () => {
    const t = testHome();
    writeSkill(t.skills, 'echoes', toolSkill('echoes', argvCommand));
    const core = open(t);
    let changes = 0;
    core.on('event', (e) => e.type === 'policy.changed' && changes++);
    const rule = core.policy.addRule('skill:other', 'deny');
    core.policy.removeRule(rule.id);
    await core.runs.run(
      { skill: 'echoes', tool: 'go', surface: 'cli' },
      { approval: { kind: 'prompt', ask: async () => ({ verdict: 'always', actor: 'ada' }) } },
    );
    core.policy.revokeRemembered(core.policy.remembered()[0]!.id);
    expect(changes).toBe(4);
  });
});

describe('what a run holds', () => {
  /** This process's descriptors open on `folder` or inside it. */
  const openInside = (folder: string): string[] =>
    readdirSync('/proc/self/fd').flatMap((fd) => {
      try {
        const target = readlinkSync(`/proc/self/fd/${fd}`);
        return target === folder || target.startsWith(`${folder}/`) ? [target] : [];
      } catch {
        return [];
      }
    });

  it.runIf(process.platform === 'linux')(
    'a run that fails midway (its box cannot hold its folder: E513) lets go of all it took: the box spec’s handles, its place among live runs',
    async () => {
      const t = testHome();
      writeSkill(t.skills, 'writes', toolSkill('writes', argvCommand));
      const core = open(t);
      const project = realpathSync(t.work);
      mkdirSync(join(project, ...Array.from({ length: 260 }, () => 'd')), { recursive: true });
      const events: RunEvent[] = [];
      core.runs.service.on('run', (event) => events.push(event));
      const error = await rejectionOf(core.runs.run({ skill: 'writes', tool: 'go', surface: 'cli', cwd: project }, { approval: once() }));
      expect(error.code).toBe('E513');
      // It failed after it had started: its box spec, snapshot and place among live runs were all taken.
      expect(events.map((event) => event.type)).toContain('started');
      expect(core.runs.service.running()).toEqual([]);
      expect(openInside(project)).toEqual([]);
    },
  );
});
