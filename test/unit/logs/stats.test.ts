import { mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accessLogPath, appendAccessRows, type AccessRow } from '../../../src-main/core/logs/access-log.js';
import { skillStats } from '../../../src-main/core/logs/stats.js';
import { STATS_QUERY_TYPES } from '../../../src-main/shared/gateway.js';
import { makeSkill, tempDir } from '../../fixtures/gateway/skill-fixture.js';
import { thrownBy } from '../../support/errors.js';
import { formatStats } from '../../../src-main/cli/format/stats.js';

interface Fixture {
  dir: string;
  runtime: string;
  webapp: string;
  cli: string;
  skill: { name: string; dir: string };
}

function fixture(): Fixture {
  const base = tempDir();
  const dir = realpathSync(makeSkill(base, 'demo', { 'SKILL.md': '# Demo\n' }));
  const webapp = join(realpathSync(base), 'webapp');
  const cli = join(realpathSync(base), 'webapp2');
  mkdirSync(join(webapp, 'src'), { recursive: true });
  mkdirSync(cli);
  return { dir, runtime: join(base, 'runtime', 'demo'), webapp, cli, skill: { name: 'demo', dir } };
}

function row(
  f: Fixture,
  timestamp: string,
  command: string,
  args: Record<string, unknown>,
  options: { cwd?: string; error?: string; skillPath?: string } = {},
): AccessRow {
  return {
    timestamp,
    run_id: 'r',
    command,
    skill: 'demo',
    skill_path: options.skillPath ?? f.dir,
    cwd: options.cwd ?? f.webapp,
    args: JSON.stringify(args),
    error: options.error ?? null,
  };
}

/** A small log: shows, opens, searches and failures from two projects over three days. */
function populated(): Fixture {
  const f = fixture();
  const show = (section: string, file: string | null = 'SKILL.md') => ({ section, file, max_lines: null });
  appendAccessRows(accessLogPath(f.runtime), [
    row(f, '2026-01-28T09:00:00Z', 'show', show('Usage')),
    row(f, '2026-01-28T09:05:00Z', 'show', show('Setup')),
    row(f, '2026-01-29T10:00:00Z', 'show', show('Usage')),
    row(f, '2026-01-29T10:01:00Z', 'show', show('Alpha', 'refs/a.md'), { cwd: join(f.webapp, 'src') }),
    row(f, '2026-01-29T10:02:00Z', 'open', { path: 'refs/a.md', max_lines: null }),
    row(f, '2026-01-29T10:03:00Z', 'open', { path: 'refs/b.md', max_lines: null }, { cwd: f.cli }),
    row(f, '2026-01-30T08:00:00Z', 'search', { query: 'token', result_count: 2 }, { cwd: f.cli }),
    row(f, '2026-01-30T08:01:00Z', 'search', { query: 'auth', result_count: 0 }, { cwd: f.cli }),
    row(f, '2026-01-30T08:02:00Z', 'search', { query: 'token', result_count: 2 }),
    row(f, '2026-01-30T08:03:00Z', 'show', show('Nope', null), { error: "error[E020]: section not found: 'Nope'" }),
    row(f, '2026-01-30T08:04:00Z', 'show', show('Nope', null), { error: "error[E020]: section not found: 'Nope'" }),
    row(f, '2026-01-30T08:05:00Z', 'open', { path: 'gone.md', max_lines: null }, { error: "error[E021]: file not found: 'gone.md'" }),
    row(f, '2026-01-30T08:06:00Z', 'outline', { level: null }),
    row(f, '2026-01-30T08:07:00Z', 'show', show('Usage'), { skillPath: '/another/checkout/demo' }),
  ]);
  return f;
}

describe('RFC-0003:C-SCHEMA and C-QUERIES', () => {
  it('summary is the default: totals, unique sections and files, errors, the period and the applied filters', () => {
    const f = populated();
    expect(skillStats(f.skill, f.runtime)).toEqual({
      skill: 'demo',
      skill_path: f.dir,
      query: 'summary',
      filters: { since: null, until: null, projects: [] },
      period: { start: '2026-01-28T09:00:00Z', end: '2026-01-30T08:06:00Z' },
      data: { total_accesses: 13, unique_sections: 3, unique_files: 3, error_count: 3 },
    });
  });

  it('sections: by count descending, ties by file then heading ascending', () => {
    const f = populated();
    expect(skillStats(f.skill, f.runtime, { groupBy: 'sections' }).data).toEqual([
      { section: 'Usage', file: 'SKILL.md', count: 2 },
      { section: 'Setup', file: 'SKILL.md', count: 1 },
      { section: 'Alpha', file: 'refs/a.md', count: 1 },
    ]);
  });

  it('files: by count descending, ties by path ascending (show and open both count)', () => {
    const f = populated();
    expect(skillStats(f.skill, f.runtime, { groupBy: 'files' }).data).toEqual([
      { file: 'SKILL.md', count: 3 },
      { file: 'refs/a.md', count: 2 },
      { file: 'refs/b.md', count: 1 },
    ]);
  });

  it('commands: every logged command is a key', () => {
    const f = populated();
    expect(skillStats(f.skill, f.runtime, { groupBy: 'commands' }).data).toEqual({ show: 6, open: 3, search: 3, outline: 1 });
  });

  it('projects: by count descending, ties by path', () => {
    const f = populated();
    expect(skillStats(f.skill, f.runtime, { groupBy: 'projects' }).data).toEqual([
      { project: f.webapp, count: 9 },
      { project: f.cli, count: 3 },
      { project: join(f.webapp, 'src'), count: 1 },
    ]);
  });

  it('errors: target, command, error and count', () => {
    const f = populated();
    expect(skillStats(f.skill, f.runtime, { groupBy: 'errors' }).data).toEqual([
      { target: 'Nope', command: 'show', error: "error[E020]: section not found: 'Nope'", count: 2 },
      { target: 'gone.md', command: 'open', error: "error[E021]: file not found: 'gone.md'", count: 1 },
    ]);
  });

  it('search: queries by frequency descending, ties by query text ascending', () => {
    const f = populated();
    expect(skillStats(f.skill, f.runtime, { groupBy: 'search' }).data).toEqual([
      { query: 'token', count: 2 },
      { query: 'auth', count: 1 },
    ]);
  });

  it('counts only rows of this skill path (another checkout of the same name shares the log)', () => {
    const f = populated();
    const other = skillStats({ name: 'demo', dir: '/another/checkout/demo' }, f.runtime, { groupBy: 'commands' });
    expect(other.data).toEqual({ show: 1 });
  });
});

describe('RFC-0003:C-FILTERS', () => {
  it('--since and --until are inclusive; a date-only value is the start of that day, UTC', () => {
    const f = populated();
    const result = skillStats(f.skill, f.runtime, { groupBy: 'commands', since: '2026-01-29', until: '2026-01-30T08:00:00Z' });
    expect(result.filters).toEqual({ since: '2026-01-29T00:00:00Z', until: '2026-01-30T08:00:00Z', projects: [] });
    expect(result.period).toEqual({ start: '2026-01-29T10:00:00Z', end: '2026-01-30T08:00:00Z' });
    expect(result.data).toEqual({ show: 2, open: 2, search: 1 });
  });

  it('accepts RFC 3339 offsets and fractions, converting to UTC', () => {
    const f = populated();
    const result = skillStats(f.skill, f.runtime, { groupBy: 'commands', since: '2026-01-30T09:01:00.5+01:00' });
    expect(result.filters.since).toBe('2026-01-30T08:01:00.500Z');
    expect(result.data).toEqual({ search: 1, show: 2, open: 1, outline: 1 });
  });

  it('--project matches the directory and below, not a sibling sharing its prefix; several are ORed', () => {
    const f = populated();
    expect(skillStats(f.skill, f.runtime, { projects: [f.webapp] }).data).toMatchObject({ total_accesses: 10 });
    expect(skillStats(f.skill, f.runtime, { projects: [f.cli] }).data).toMatchObject({ total_accesses: 3 });
    expect(skillStats(f.skill, f.runtime, { projects: [join(f.webapp, 'src'), f.cli] }).data).toMatchObject({ total_accesses: 4 });
  });

  it('--project is canonicalised: symlinks and .. resolved before matching', () => {
    const f = populated();
    const link = join(f.cli, 'link-to-webapp');
    symlinkSync(f.webapp, link);
    const result = skillStats(f.skill, f.runtime, { projects: [join(link, 'src', '..')] });
    expect(result.filters.projects).toEqual([f.webapp]);
    expect(result.data).toMatchObject({ total_accesses: 10 });
  });

  it.each(['yesterday', '2026-13-01', '2026-02-30', '2026-01-30 08:00:00', '2026-01-30T25:00:00Z', '2026-01-30T08:00:00'])(
    'malformed time %j → E031',
    (value) => {
      const f = fixture();
      expect(thrownBy(() => skillStats(f.skill, f.runtime, { since: value })).code).toBe('E031');
      expect(thrownBy(() => skillStats(f.skill, f.runtime, { until: value })).code).toBe('E031');
    },
  );

  it('an empty --project is E031', () => {
    const f = fixture();
    expect(thrownBy(() => skillStats(f.skill, f.runtime, { projects: [''] })).code).toBe('E031');
  });
});

describe('RFC-0003:C-CLI and C-ERRORS', () => {
  it.each(['searches', 'Summary', 'bogus'])('unknown query type %j → E030', (type) => {
    const f = fixture();
    expect(thrownBy(() => skillStats(f.skill, f.runtime, { groupBy: type })).format()).toBe(`error[E030]: invalid query type: '${type}'`);
  });

  it('no log database is an empty result, not an error, for every query type', () => {
    const f = fixture();
    const empty = Object.fromEntries(STATS_QUERY_TYPES.map((type) => [type, skillStats(f.skill, f.runtime, { groupBy: type }).data]));
    expect(empty).toEqual({
      summary: { total_accesses: 0, unique_sections: 0, unique_files: 0, error_count: 0 },
      sections: [],
      files: [],
      commands: {},
      projects: [],
      errors: [],
      search: [],
    });
    expect(skillStats(f.skill, f.runtime).period).toEqual({ start: null, end: null });
  });

  it('text form conveys the same information', () => {
    const f = populated();
    expect(formatStats(skillStats(f.skill, f.runtime))).toBe(
      [
        `demo (${f.dir})`,
        'period: 2026-01-28T09:00:00Z to 2026-01-30T08:06:00Z',
        'summary:',
        '  total accesses:  13',
        '  unique sections: 3',
        '  unique files:    3',
        '  errors:          3',
      ].join('\n'),
    );
    expect(formatStats(skillStats(f.skill, f.runtime, { groupBy: 'sections', until: '2026-01-29' }))).toBe(
      [
        `demo (${f.dir})`,
        'period: 2026-01-28T09:00:00Z to 2026-01-28T09:05:00Z',
        'filters: until 2026-01-29T00:00:00Z',
        'sections:',
        '  1  SKILL.md#Setup',
        '  1  SKILL.md#Usage',
      ].join('\n'),
    );
    expect(
      formatStats(skillStats(fixture().skill, join(tempDir(), 'none'), { groupBy: 'search' }))
        .split('\n')
        .slice(1),
    ).toEqual(['period: no accesses', 'search:', '  (none)']);
  });
});
