import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SkilltrayError } from '../../../src-main/shared/skilltray-error.js';
import { openFile } from '../../../src-main/core/gateway/open.js';
import { outlineFiles } from '../../../src-main/core/gateway/outline.js';
import { runtimeDir } from '../../../src-main/core/gateway/runtime-dir.js';
import { showSection } from '../../support/index-reads.js';
import { listSources } from '../../../src-main/core/gateway/sources.js';
import { AccessLogger, withAccessLog, type LoggedCommand } from '../../../src-main/core/logs/access-log.js';
import { logArgs } from '../../../src-main/core/gateway/log-args.js';
import { skillStats } from '../../../src-main/core/logs/stats.js';
import { syncLogs } from '../../../src-main/core/logs/sync.js';
import { buildIndex } from '../../../src-main/core/search/skill-index.js';
import { searchSkill } from '../../support/index-reads.js';
import { locateSkill } from '../../../src-main/core/skills/locate.js';
import { copyRfcSkill, tempDir } from '../../fixtures/gateway/skill-fixture.js';
import { formatOpen } from '../../../src-main/cli/format/open.js';
import { formatOutlineFile } from '../../../src-main/cli/format/outline.js';
import { formatSectionNotFound } from '../../../src-main/shared/section-text.js';
import { formatSources } from '../../../src-main/cli/format/sources.js';
import { formatSync } from '../../../src-main/cli/format/sync.js';
import { formatSearch } from '../../../src-main/cli/format/search.js';

/** Resolves a skill in `root` as the gateway does, with nothing loaded: its canonical dir and name. */
function resolveIn(root: string, arg: string, cwd: string): { name: string; dir: string } {
  const at = locateSkill(arg, cwd, { roots: [{ path: root, kind: 'env', trust: 'user', syntax: 'angle' }], get: () => undefined, dirOf: () => null });
  return { name: basename(at.canonical), dir: at.canonical };
}

describe('gateway flow: resolve → build → read → search → stats → sync', () => {
  it('serves a skill section by section and accounts for every access', () => {
    const home = tempDir();
    const root = join(home, 'skills');
    mkdirSync(root, { recursive: true });
    copyRfcSkill(root);
    const project = tempDir();
    const skill = resolveIn(root, 'rfc-skill', project);
    const runtime = runtimeDir(home, skill.name);
    const logger = new AccessLogger({ env: { SKC_RUN_ID: 'flow' } });
    const at = (command: string): LoggedCommand => ({ command, skill: skill.name, skillPath: skill.dir, runtimeDir: runtime, cwd: project });

    expect(withAccessLog(logger, at('build'), logArgs.build, () => buildIndex(skill.dir, runtime)).status).toBe('created');
    expect(
      withAccessLog(
        logger,
        at('outline'),
        () => logArgs.outline({ level: 1 }),
        () => [...outlineFiles(skill.dir, { level: 1 })].map(formatOutlineFile).join('\n'),
      ),
    ).toBe('SKILL.md\n  # Skill Name\nreferences/advanced.md\n  # Advanced Topics');
    const showOptions = { section: 'getting started — install and run', skill: 'rfc-skill' };
    const shown = withAccessLog(
      logger,
      at('show'),
      (r) => logArgs.show(showOptions, r),
      () => showSection(skill.dir, runtime, showOptions),
    );
    expect(shown.content.split('\n')[0]).toBe('## Getting Started');
    const missing = { section: 'Perf' };
    let notFound: SkilltrayError | undefined;
    try {
      withAccessLog(
        logger,
        at('show'),
        (r) => logArgs.show(missing, r),
        () => showSection(skill.dir, runtime, missing),
      );
    } catch (error) {
      notFound = error as SkilltrayError;
    }
    expect(notFound && formatSectionNotFound(notFound)).toBe(
      "error[E020]: section not found: 'Perf'\n\nDid you mean one of these?\n  - Performance (references/advanced.md)",
    );
    const opened = withAccessLog(
      logger,
      at('open'),
      (r) => logArgs.open('references/advanced.md', { maxLines: 1 }, r),
      () => openFile(skill.dir, 'references/advanced.md', { maxLines: 1 }),
    );
    expect(formatOpen(opened)).toBe('# Advanced Topics\n... (6 more lines)\n');
    expect(
      formatSources(
        withAccessLog(
          logger,
          at('sources'),
          () => logArgs.sources({}),
          () => listSources(skill.dir),
        ),
      ),
    ).toBe('rfc-skill/\n├── references/\n│   └── advanced.md\n└── SKILL.md');
    const found = withAccessLog(
      logger,
      at('search'),
      (r) => logArgs.search('configuring client', r),
      () => searchSkill(skill.dir, runtime, 'configuring client'),
    );
    expect(formatSearch(found)).toMatch(
      /^SKILL\.md#Getting Started \(score: \d+\.\d\d\)\n {2}.*\[MATCH\]Configuring\[\/MATCH\] the \[MATCH\]client\[\/MATCH\]/,
    );
    expect(logger.warnings).toEqual([]);

    expect(skillStats(skill, runtime).data).toEqual({ total_accesses: 7, unique_sections: 1, unique_files: 2, error_count: 1 });
    expect(skillStats(skill, runtime, { groupBy: 'commands' }).data).toEqual({ show: 2, build: 1, open: 1, outline: 1, search: 1, sources: 1 });
    expect(skillStats(skill, runtime, { groupBy: 'sections' }).data).toEqual([{ section: 'Getting Started', file: 'SKILL.md', count: 1 }]);
    expect(skillStats(skill, runtime, { groupBy: 'search' }).data).toEqual([{ query: 'configuring client', count: 1 }]);
    expect(skillStats(skill, runtime, { groupBy: 'errors' }).data).toEqual([
      { target: 'Perf', command: 'show', error: "error[E020]: section not found: 'Perf'", count: 1 },
    ]);
  });

  it('a sandboxed session logs to the project, and sync merges those logs into the primary log', () => {
    const home = tempDir();
    const root = join(home, 'skills');
    mkdirSync(root, { recursive: true });
    copyRfcSkill(root);
    const project = tempDir();
    const skill = resolveIn(root, join(root, 'rfc-skill'), project);
    const runtime = runtimeDir(home, skill.name);
    // The sandbox: the runtime store cannot be created.
    writeFileSync(join(home, 'runtime'), 'blocked');
    const logger = new AccessLogger({ env: { SKC_RUN_ID: 'sandbox' } });
    for (const section of ['Skill Name', 'Endpoints']) {
      logger.log({
        command: 'show',
        skill: skill.name,
        skillPath: skill.dir,
        runtimeDir: runtime,
        cwd: project,
        args: { section, file: 'SKILL.md', max_lines: null },
      });
    }
    expect(skillStats(skill, runtime).data).toMatchObject({ total_accesses: 0 });
    const blocked = syncLogs({ project, runtimeDirFor: (name) => runtimeDir(home, name) });
    expect(formatSync(blocked).stderr).toBe(`error[E041]: sync destination not writable: '${runtime}'`);
    rmSync(join(home, 'runtime'));
    const synced = syncLogs({ project, runtimeDirFor: (name) => runtimeDir(home, name) });
    expect(formatSync(synced)).toEqual({ stdout: "Synced 2 entries for 'rfc-skill' (local logs removed)", stderr: '' });
    expect(skillStats(skill, runtime, { groupBy: 'sections' }).data).toEqual([
      { section: 'Endpoints', file: 'SKILL.md', count: 1 },
      { section: 'Skill Name', file: 'SKILL.md', count: 1 },
    ]);
    expect(formatSync(syncLogs({ project, runtimeDirFor: (name) => runtimeDir(home, name) })).stdout).toBe('No local logs to sync');
  });
});
