/**
 * `skilltray doctor`: what the machine has for Skilltray, from the core's one report. It exits 0
 * when nothing needs fixing and 1 otherwise, with the line that fixes each problem; with `serve`
 * running it answers for the owner, which watches the roots; it changes nothing.
 */
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SkilltrayCore } from '../../../src-main/core/api.js';
import { noSandbox } from '../../../src-main/core/process/sandbox/sandbox.js';
import type { DoctorCheck, DoctorReport } from '../../../src-main/shared/doctor.js';
import { cliProcess } from '../../support/cli.js';
import { cliAsOrdinaryUser, openTo } from '../../support/ordinary-user.js';
import { requireSandbox } from '../../support/sandbox.js';
import { tempDir, testHome } from '../../support/temp.js';
import { serve } from '../server/helpers.js';

const find = (report: DoctorReport, name: string): DoctorCheck | undefined => report.checks.find((c) => c.name === name);

/** Every file under `dir` with its mtime: what doctor must leave as it found it. */
function snapshot(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).map((e) => `${join(e.parentPath, e.name)} ${statSync(join(e.parentPath, e.name)).mtimeMs}`);
}

describe('skilltray doctor', () => {
  it('on a machine that contains runs and a fresh home: every area checked, notes with their fixes, exit 0, nothing changed', async () => {
    requireSandbox();
    const t = testHome();
    const before = snapshot(join(t.home, '..'));
    const { code, stdout } = await cliProcess(['doctor', '--json'], t.env);
    const report = JSON.parse(stdout) as DoctorReport;
    expect(code, stdout).toBe(0);
    expect(report.ok).toBe(true);
    expect([...new Set(report.checks.map((c) => c.area))]).toEqual(['containment', 'roots', 'clients', 'voice', 'node']);
    expect(find(report, 'bubblewrap')).toMatchObject({ state: 'ok', fix: null });
    expect(report.checks.filter((c) => c.area === 'containment').map((c) => c.name)).toEqual([
      'bubblewrap',
      'user namespaces',
      'AppArmor',
      'ICMP',
      'seccomp',
      'network relay',
      'resource limits',
      'cgroup',
    ]);
    expect(find(report, join(t.home, 'skills'))).toMatchObject({ state: 'note', fix: 'skilltray new <name> makes it with your first skill' });
    expect(find(report, 'watching')).toMatchObject({ state: 'note', fix: 'npm start, or skilltray serve' });
    expect(find(report, 'assistants')).toMatchObject({ state: 'note', detail: 'no MCP client Skilltray connects was found on this machine' });
    const text = await cliProcess(['doctor'], t.env);
    expect(text.stdout).toMatch(/^Containment\n {2}ok {6}bubblewrap +\/\S*bwrap contains every run/);
    expect(text.stdout).toMatch(/^ +fix: skilltray new <name> makes it with your first skill$/m);
    expect(text.stdout).toMatch(/All is well\.$/);
    expect(snapshot(join(t.home, '..'))).toEqual(before);
  });

  it('an assistant whose entry is outdated is a problem with the line that fixes it, and the exit status is 1', async () => {
    const t = testHome();
    mkdirSync(join(t.userHome, '.cursor'));
    writeFileSync(
      join(t.userHome, '.cursor', 'mcp.json'),
      JSON.stringify({ mcpServers: { skilltray: { command: 'node', args: ['/nowhere/skilltray.js', 'mcp'] } } }),
    );
    const json = await cliProcess(['doctor', '--json'], t.env);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as DoctorReport;
    expect(report.ok).toBe(false);
    expect(find(report, 'Cursor')).toMatchObject({ area: 'clients', state: 'problem', fix: 'skilltray connect cursor' });
    const text = await cliProcess(['doctor'], t.env);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^ {2}PROBLEM Cursor +its entry is outdated.*\n +fix: skilltray connect cursor$/m);
    expect(text.stdout).toMatch(/1 problem: each has its fix above\.$/);
  });

  it('without bubblewrap: the problem and the package that fixes it (the core API the CLI prints)', async () => {
    const t = testHome();
    const bin = tempDir();
    const core = new SkilltrayCore(t.config({ PATH: bin }), { sandbox: noSandbox('bubblewrap (bwrap) is not installed') });
    try {
      const report = await core.doctor();
      expect(report.ok).toBe(false);
      expect(find(report, 'bubblewrap')).toMatchObject({ state: 'problem', fix: 'sudo apt-get install bubblewrap' });
      // What follows from it is said once, as the one problem: no other line blames another package or claims a run is filtered.
      expect(report.checks.filter((c) => c.state === 'problem').map((c) => c.name)).toEqual(['bubblewrap']);
      expect(find(report, 'resource limits')).toMatchObject({ state: 'note', fix: null });
      expect(find(report, 'seccomp')?.detail).not.toContain('applied to every run');
    } finally {
      await core.close();
    }
  });

  it('for an ordinary user: the user namespace and cgroup checks are about that user, not root', async () => {
    const t = testHome();
    openTo(join(t.home, '..'), [t.home, t.userHome]);
    const { stdout } = await cliAsOrdinaryUser(['doctor', '--json'], t.env);
    const report = JSON.parse(stdout) as DoctorReport;
    expect(find(report, 'user namespaces')?.detail).not.toContain('root');
    expect(find(report, 'cgroup')?.state).toMatch(/^(ok|note)$/);
  });

  it('with serve running, answers for it: the roots it watches, and no note that nothing watches', { timeout: 60_000 }, async () => {
    const t = testHome();
    await serve(t);
    const report = JSON.parse((await cliProcess(['doctor', '--json'], t.env)).stdout) as DoctorReport;
    expect(find(report, 'watching')).toBeUndefined();
    expect(find(report, t.skills)?.detail).toMatch(/watched \((native|polling)\)$/);
  });
});
