/**
 * Text that cannot lie: a name holding a right-to-left override (U+202E) or a newline is printed
 * escaped (`\u202e`, `\n`) by `list`, `check`, `describe`, the scan report and `packs --check`,
 * while `--json` keeps it exactly.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describePending } from '../../../src-main/cli/terminal-approval.js';
import { formatNotice } from '../../../src-main/cli/notices.js';
import { remember } from '../../../src-main/core/store/approvals.js';
import { addRule } from '../../../src-main/core/store/rules.js';
import { openStateDb } from '../../../src-main/core/store/state-db.js';
import { cli } from '../../support/cli.js';
import { toolSkill } from '../../support/pack-sources.js';
import { skillMd, tempDir, testHome, writeSkill } from '../../support/temp.js';

const RLO = '\u202E';
const hidden = /[\p{Cc}\p{Cf}]/u;

/** Lines of output that still hold a control or format character (the newlines between lines are split off). */
const linesWithHidden = (text: string): string[] => text.split('\n').filter((line) => hidden.test(line));

describe('names that would reorder or fake a line are shown escaped', () => {
  it('in list, check and describe, whose JSON keeps them exact', async () => {
    const t = testHome();
    writeSkill(
      t.skills,
      `invoice${RLO}fdp.sh`,
      skillMd({ name: `invoice${RLO}fdp.sh`, description: `Pays ${RLO}nwo ti eht. Use it.`, version: '1.0.0' }, 'Body.\n'),
    );
    writeSkill(t.skills, 'two\nlines', skillMd({ name: 'two\nlines', description: 'Two lines. Use it.', version: '1.0.0' }, 'Body.\n'));
    writeSkill(t.skills, 'tidy', toolSkill('tidy', 'echo <<what>>').replace('### run_it', `### run${RLO}ti_\u001b[2J`));

    const list = await cli(['list'], t);
    expect(list.stdout).toContain('invoice\\u202efdp.sh  1.0.0');
    expect(list.stdout).toContain('Pays \\u202enwo ti eht. Use it.');
    expect(list.stdout).toContain('two\\nlines           1.0.0');
    const json = JSON.parse((await cli(['list', '--json'], t)).stdout) as { skills: { name: string }[] };
    expect(json.skills.map((s) => s.name)).toEqual(expect.arrayContaining([`invoice${RLO}fdp.sh`, 'two\nlines']));

    const check = await cli(['check', t.skills], t);
    expect(check.stdout).toContain(`invoice\\u202efdp.sh error ${join(t.skills, 'invoice\\u202efdp.sh')}\n`);
    expect(check.stdout).toContain("  error[E405] SKILL.md:2 name 'two\\nlines' must be");

    // A tool heading with an override and an ESC sequence (a clear-screen) is refused by the loader; its diagnostic names it escaped.
    const described = await cli(['describe', 'tidy'], t);
    expect(described.stdout).toContain("  error[E415] SKILL.md:9 tool name 'run\\u202eti_\\x1b[2J' must be");
    expect(JSON.parse((await cli(['describe', 'tidy', '--json'], t)).stdout).diagnostics[0].message).toContain(`run${RLO}ti_\u001b[2J`);
    for (const out of [list.stdout, check.stdout, described.stdout]) expect(linesWithHidden(out)).toEqual([]);
  });

  it('in the scan report and packs --check, whose JSON keeps them exact', async () => {
    const t = testHome();
    const source = writeSkill(tempDir(), 'kit', toolSkill('kit', 'echo <<what>>').replace('### run_it', `### run${RLO}ti`), {
      [`scripts/report${RLO}hs.exe`]: '#!/bin/sh\necho hi\n',
      'scripts/fake\nHIGH S301 nothing.sh': '#!/bin/sh\necho hi\n',
    });
    const report = await cli(['install', source, '--yes'], t);
    expect(report.stdout).toContain("  error E415: tool name 'run\\u202eti' must be");
    expect(report.stdout).toContain('  script scripts/report\\u202ehs.exe\n');
    expect(report.stdout).toContain('  script scripts/fake\\nHIGH S301 nothing.sh\n');
    expect(report.stdout).not.toMatch(/^HIGH/m);
    expect(linesWithHidden(report.stdout)).toEqual([]);
    const scanned = JSON.parse((await cli(['install', source, '--yes', '--json'], t)).stdout);
    expect(scanned.report.skills[0].scripts).toEqual(['scripts/fake\nHIGH S301 nothing.sh', `scripts/report${RLO}hs.exe`]);

    writeFileSync(join(t.home, 'packs', 'kit', 'kit', `notes${RLO}dm.exe`), 'added behind the lock\n');
    const checked = await cli(['packs', '--check'], t);
    expect(checked.stdout).toContain('  added    kit/notes\\u202edm.exe\n');
    expect(linesWithHidden(checked.stdout)).toEqual([]);
  });

  it('in the remembered approvals and the skills a rule covers: a caller names the folder, a skill its own', async () => {
    const t = testHome();
    const db = openStateDb(join(t.home, 'state.db'));
    try {
      const identity = { rootKind: 'home', path: join(t.skills, `kit${RLO}x`), trust: 'user' } as const;
      const profile = { name: 'read-only' as const, network: false, hosts: [] };
      remember(db, { skill: 'kit', tool: 'run_it', skillHash: 'h', identity, programPath: '/usr/bin/echo', profile, folder: `/home/ana/${RLO}proj` });
      addRule(db, 'tool:kit/run_it', 'allow', Date.now(), [{ skill: 'kit', ...identity, profile }]);
    } finally {
      db.close();
    }
    const remembered = await cli(['remembered'], t);
    expect(remembered.stdout).toContain('in /home/ana/\\u202eproj and the folders inside it');
    const rules = await cli(['rules'], t);
    expect(rules.stdout).toContain(`for kit: the user skill in ${join(t.skills, 'kit\\u202ex')}, up to`);
    for (const out of [remembered.stdout, rules.stdout]) expect(linesWithHidden(out)).toEqual([]);
  });

  it('in an approval asked at the terminal and in a notice', () => {
    const text = describePending({
      surface: 'mcp',
      skill: 'kit',
      tool: 'run_it',
      trust: 'user',
      identity: {
        rootKind: 'home',
        path: `/home/ana/skills/${RLO}kit`,
        hash: 'h',
        manifest: null,
        trust: 'user',
        unverified: null,
        hides: [{ path: `/home/ana/.kode/${RLO}kit`, rootKind: 'kode' }],
      },
      programPath: '/usr/bin/echo',
      argv: [`invoice${RLO}fdp.sh`, 'a\nb'],
      supplied: [0, 1],
      cwd: `/home/ana/${RLO}dir`,
      timeoutMs: 30_000,
      env: [],
      reason: 'a user skill asks first',
      sandbox: { name: 'read-only', network: false, hosts: [], contained: true, mechanism: 'bubblewrap', why: null },
    });
    expect(text).toContain("asks to run `echo 'invoice\\u202efdp.sh' 'a\\nb'` in /home/ana/\\u202edir");
    expect(text).toContain('  arg 1     "invoice\\u202efdp.sh"');
    expect(text).toContain('  skill     kit/run_it: the user skill in /home/ana/skills/\\u202ekit\n');
    expect(text).toContain("  warning   It hides the skill of the same name in Kode's skills (/home/ana/.kode/\\u202ekit)");
    expect(linesWithHidden(text)).toEqual([]);
    expect(formatNotice({ code: 'E901', message: `state.db at /home/${RLO}x was damaged\nand moved aside` })).toBe(
      'notice[E901]: state.db at /home/\\u202ex was damaged\\nand moved aside',
    );
  });
});
