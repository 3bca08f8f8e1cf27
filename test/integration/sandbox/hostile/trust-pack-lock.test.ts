/**
 * An installed pack is trusted as it was installed. When its files no longer match its lock (W416:
 * edited behind its back, by the pack's own tools or anything else), nothing lets it run unasked, not
 * even the allow rule the person wrote for it, and the approval names the files that changed; an
 * Always is not even offered (E626). On the real CLI and `serve`, as root and as an ordinary user.
 */
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../../../src-main/shared/runs.js';
import { requireSandbox } from '../../../support/sandbox.js';
import { install, people, serve, toolSkill } from './trust-support.js';

beforeAll(() => requireSandbox());

describe.each(people())('a pack that no longer matches its lock, as $label', (person) => {
  it('never runs unasked, and its approval names the changed files', { timeout: 180_000 }, async () => {
    const app = install(person);
    const source = join(app.work, 'source', 'tidy');
    app.write(source, { 'SKILL.md': toolSkill('tidy', 'scripts/tidy.sh', { read_only: true }), 'scripts/tidy.sh': '#!/bin/sh\necho tidy\n' });
    chmodSync(join(source, 'scripts', 'tidy.sh'), 0o755);
    const installed = await app.cli(['install', source, '--yes']);
    expect(installed.code, installed.stderr).toBe(0);
    expect((await app.cli(['rules', 'add', 'allow', 'tool:tidy/go'])).code).toBe(0);
    const clean = JSON.parse((await app.cli(['run', 'tidy', 'go', '--json'])).stdout) as RunReport;
    expect(clean).toMatchObject({ decision: { outcome: 'auto', by: 'rule' }, result: { stdout: 'tidy\n' } });

    // Behind the lock's back: the script is changed and a file added.
    const pack = join(app.home, 'packs', 'tidy', 'tidy');
    app.write(pack, { 'scripts/tidy.sh': '#!/bin/sh\necho tampered\n', 'scripts/extra.sh': 'echo more\n' });
    const check = await app.cli(['check', 'tidy']);
    expect(check.stdout).toContain('warning[W416]');
    expect(check.stdout).toContain('scripts/extra.sh (added), scripts/tidy.sh (changed)');

    const refused = await app.cli(['run', 'tidy', 'go', '--json']);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).error).toMatchObject({
      code: 'E601',
      message: expect.stringContaining('scripts/extra.sh (added), scripts/tidy.sh (changed)'),
    });

    const server = await serve(app);
    const waiting = app.cli(['run', 'tidy', 'go', '--json']);
    const asked = await server.nextApproval();
    expect(asked.rememberScopes).toEqual([]);
    expect(asked.identity.unverified).toContain('scripts/extra.sh (added), scripts/tidy.sh (changed)');
    const listed = await app.cli(['approvals']);
    expect(listed.stdout).toMatch(
      /^ {2}warning {3}installed pack 'tidy' was edited behind its back: scripts\/extra\.sh \(added\), scripts\/tidy\.sh \(changed\)/m,
    );
    const always = await app.cli(['approve', asked.id, '--always']);
    expect(always.stderr).toContain("error[E626]: 'tidy/go' cannot be always allowed: its files cannot be vouched for");
    expect((await app.cli(['approve', asked.id])).code).toBe(0);
    expect(JSON.parse((await waiting).stdout) as RunReport).toMatchObject({ decision: { outcome: 'approved', by: 'user' }, result: { stdout: 'tampered\n' } });
  });
});
