/**
 * Trust comes from the manifest shipped with Skilltray, never from the folder a skill lies in. A
 * hostile skill author plants a read-only skill with the network in the bundled folder of a
 * user-writable install (a checkout, or `npm -g` with a user prefix), or edits a bundled skill in
 * place: either is a user skill with W420 in `check` and `list`, and never runs unasked. Bundled
 * tools that reach the network ask too. On the real CLI, as root and as an ordinary user.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUNDLED_MANIFEST } from '../../../../src-main/core/config.js';
import { bundledManifestOf, manifestText } from '../../../../src-main/core/skills/bundled-manifest.js';
import type { DryRun, RunSummary } from '../../../../src-main/shared/runs.js';
import { requireSandbox } from '../../../support/sandbox.js';
import { install, people, toolSkill, type Install } from './trust-support.js';

beforeAll(() => requireSandbox());

/** The one run history holds, as `skilltray history --json` prints it. */
async function onlyRun(app: Install): Promise<RunSummary> {
  const runs = JSON.parse((await app.cli(['history', '--json'])).stdout) as RunSummary[];
  expect(runs).toHaveLength(1);
  return runs[0] as RunSummary;
}

describe.each(people())('the bundled folder, as $label', (person) => {
  it('a planted read-only skill with the network is a user skill: W420 in check and list, and it never runs unasked', { timeout: 180_000 }, async () => {
    const app = install(person);
    app.write(app.work, { 'notes.txt': 'secret notes\n' });
    app.write(app.bundled, { 'helper/SKILL.md': toolSkill('helper', 'cat <<a>>', { read_only: true, network: true }) });

    const check = await app.cli(['check', 'helper']);
    expect(check.code).toBe(0);
    expect(check.stdout).toMatch(
      /warning\[W420\] SKILL\.md:1 'helper' is in Skilltray's bundled folder but Skilltray did not ship it; .*: it is trusted as a user skill and never runs unasked/,
    );
    const listed = JSON.parse((await app.cli(['list', '--json'])).stdout) as {
      skills: { name: string; trust: string; status: string; identity: { manifest: string } }[];
    };
    expect(listed.skills.find((s) => s.name === 'helper')).toMatchObject({ trust: 'user', status: 'warnings', identity: { manifest: 'absent' } });

    const run = await app.cli(['run', 'helper', 'go', '--arg', 'a=notes.txt', '--json']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).error).toMatchObject({
      code: 'E601',
      message: expect.stringContaining("'helper' is in Skilltray's bundled folder but Skilltray did not ship it"),
    });
    expect(run.stdout).not.toContain('secret notes');
    expect(await onlyRun(app)).toMatchObject({ skill: 'helper', status: 'refused', errorCode: 'E601', startedAt: null });
  });

  it(
    'a bundled skill edited in place is not bundled: W420 names the changed file, and its read-only tools ask while the others still run',
    { timeout: 180_000 },
    async () => {
      const app = install(person);
      appendFileSync(join(app.bundled, 'git', 'SKILL.md'), '\n<!-- edited after install -->\n');
      const check = await app.cli(['check', 'git']);
      expect(check.stdout).toContain(
        "warning[W420] SKILL.md:1 bundled skill 'git' is not as Skilltray shipped it: SKILL.md (changed); reinstall Skilltray to restore it",
      );
      const dry = JSON.parse((await app.cli(['run', 'git', 'git_status', '--dry-run', '--json'])).stdout) as DryRun;
      expect(dry).toMatchObject({ decision: 'ask', reason: expect.stringContaining('SKILL.md (changed)') });
      // The control: a bundled read-only tool as shipped, from the same install, runs unasked.
      const files = await app.cli(['run', 'files', 'list_directory', '--arg', 'path=.', '--json']);
      expect(files.code, files.stderr).toBe(0);
      expect(JSON.parse(files.stdout).decision).toMatchObject({ outcome: 'auto', by: 'policy' });
    },
  );

  it('a bundled read-only tool that reaches the network asks, even as shipped', { timeout: 180_000 }, async () => {
    const app = install(person);
    // As if Skilltray shipped it: the build's manifest lists it.
    app.write(app.bundled, { 'lookup/SKILL.md': toolSkill('lookup', 'getent hosts <<a>>', { read_only: true, network: true }) });
    app.write(app.app, { [BUNDLED_MANIFEST]: manifestText(bundledManifestOf(app.bundled)) });
    const listed = JSON.parse((await app.cli(['list', '--json'])).stdout) as { skills: { name: string; trust: string }[] };
    expect(listed.skills.find((s) => s.name === 'lookup')).toMatchObject({ trust: 'bundled' });
    const dry = JSON.parse((await app.cli(['run', 'lookup', 'go', '--arg', 'a=localhost', '--dry-run', '--json'])).stdout) as DryRun;
    expect(dry).toMatchObject({
      decision: 'ask',
      reason: "'lookup/go' is bundled but reaches the network (network to any host), so it asks",
      sandbox: { network: true, contained: true },
    });
  });
});
