/**
 * The Command blocks of gibb.eri.sh's own skills (shared/fixtures/gibberish-skills), copied
 * verbatim with their Parameters tables, rendered in the braces compatibility syntax.
 */
import { describe, expect, it } from 'vitest';
import { SkilltrayError } from '../../../src-main/shared/skilltray-error.js';
import { parseCommand } from '../../../src-main/core/template/parse-command.js';
import { renderCommand } from '../../../src-main/core/template/render-command.js';
import type { Tool } from '../../../src-main/shared/model.js';
import { param, skill, tool } from './skill-builder.js';

const files = skill(
  [
    tool('find_files', 'mdfind -name {{query}} {{folder:-onlyin}}', [param('query', 'string', { required: true }), param('folder', 'string')]),
    tool('list_directory', 'ls -la {{all:-a}} {{path:.}}', [param('path', 'string'), param('all', 'boolean')]),
    tool('read_file', 'head -n {{lines:9999}} {{path}}', [param('path', 'string', { required: true }), param('lines', 'integer')]),
    tool('file_info', 'file {{path}}', [param('path', 'string', { required: true })]),
    tool('word_count', 'wc {{path}}', [param('path', 'string', { required: true })]),
  ],
  'braces',
  { name: 'files', timeoutSec: 30 },
);

const git = skill(
  [
    tool('git_status', 'git status --short --branch'),
    tool('git_log', 'git log --oneline --graph -n {{count:10}}', [param('count', 'integer')]),
    tool('git_diff', 'git diff {{staged:--staged}} {{file}}', [param('staged', 'boolean'), param('file', 'string')]),
    tool('git_branch', 'git branch {{all:--all}} -v', [param('all', 'boolean')]),
    tool('git_stash_list', 'git stash list'),
  ],
  'braces',
  { name: 'git', timeoutSec: 15 },
);

const summarizeParams = (input: string) => [param(input, 'string', { required: true }), param('length', 'string')];
const summarize = skill(
  [
    tool('summarize_url', 'npx -y @steipete/summarize {{url}} --length {{length:medium}}', summarizeParams('url')),
    tool('summarize_file', 'npx -y @steipete/summarize {{path}} --length {{length:medium}}', summarizeParams('path')),
    tool('summarize_youtube', 'npx -y @steipete/summarize {{video}} --youtube auto --length {{length:medium}}', summarizeParams('video')),
    tool('extract_content', 'npx -y @steipete/summarize {{url}} --extract', [param('url', 'string', { required: true })]),
  ],
  'braces',
  { name: 'summarize', timeoutSec: 120 },
);

const SKILLS = { files, git, summarize };

describe('gibb.eri.sh fixtures render in braces syntax', () => {
  it.each<[keyof typeof SKILLS, string, Record<string, unknown>, string, string[]]>([
    ['git', 'git_status', {}, 'git', ['status', '--short', '--branch']],
    ['git', 'git_log', {}, 'git', ['log', '--oneline', '--graph', '-n', '10']],
    ['git', 'git_log', { count: 3 }, 'git', ['log', '--oneline', '--graph', '-n', '3']],
    ['git', 'git_diff', { staged: true }, 'git', ['diff', '--staged']],
    ['git', 'git_diff', {}, 'git', ['diff']],
    ['git', 'git_diff', { staged: false, file: 'src/a.ts' }, 'git', ['diff', 'src/a.ts']],
    ['git', 'git_diff', { staged: true, file: 'my file.ts' }, 'git', ['diff', '--staged', 'my file.ts']],
    ['git', 'git_branch', {}, 'git', ['branch', '-v']],
    ['git', 'git_branch', { all: true }, 'git', ['branch', '--all', '-v']],
    ['git', 'git_stash_list', {}, 'git', ['stash', 'list']],
    ['files', 'list_directory', {}, 'ls', ['-la', '.']],
    ['files', 'list_directory', { all: true }, 'ls', ['-la', '-a', '.']],
    ['files', 'list_directory', { all: false, path: '/tmp' }, 'ls', ['-la', '/tmp']],
    // gibb's `{{folder:-onlyin}}`: the option and the folder together, or nothing.
    ['files', 'find_files', { query: 'report' }, 'mdfind', ['-name', 'report']],
    ['files', 'find_files', { query: 'report', folder: '/Users/me' }, 'mdfind', ['-name', 'report', '-onlyin', '/Users/me']],
    ['files', 'read_file', { path: 'notes.txt' }, 'head', ['-n', '9999', 'notes.txt']],
    ['files', 'read_file', { path: 'notes.txt', lines: 5 }, 'head', ['-n', '5', 'notes.txt']],
    ['files', 'file_info', { path: 'a b.pdf' }, 'file', ['a b.pdf']],
    ['files', 'word_count', { path: 'x; rm -rf ~' }, 'wc', ['x; rm -rf ~']],
    [
      'summarize',
      'summarize_url',
      { url: 'https://example.com/a?b=1&c=2' },
      'npx',
      ['-y', '@steipete/summarize', 'https://example.com/a?b=1&c=2', '--length', 'medium'],
    ],
    ['summarize', 'summarize_file', { path: 'paper.pdf', length: 'short' }, 'npx', ['-y', '@steipete/summarize', 'paper.pdf', '--length', 'short']],
    [
      'summarize',
      'summarize_youtube',
      { video: 'dQw4w9WgXcQ' },
      'npx',
      ['-y', '@steipete/summarize', 'dQw4w9WgXcQ', '--youtube', 'auto', '--length', 'medium'],
    ],
    ['summarize', 'extract_content', { url: 'https://example.com' }, 'npx', ['-y', '@steipete/summarize', 'https://example.com', '--extract']],
  ])('%s/%s %j', (skillName, toolName, args, program, expected) => {
    const rendered = renderCommand(SKILLS[skillName], toolName, args, { cwd: '/home/me' });
    expect(rendered.program).toBe(program);
    expect(rendered.args).toEqual(expected);
    expect(rendered.timeoutMs).toBe(SKILLS[skillName].timeoutSec * 1000);
  });

  it.each<[keyof typeof SKILLS, string, Record<string, unknown>, string]>([
    ['files', 'read_file', {}, 'E501'],
    ['files', 'file_info', { path: '--version' }, 'E504'],
    ['files', 'find_files', { query: 'q', folder: '-rf' }, 'E504'],
    ['git', 'git_log', { count: 'ten' }, 'E503'],
    ['git', 'git_diff', { staged: 'yes' }, 'E503'],
    ['summarize', 'summarize_url', { url: '--help' }, 'E504'],
    ['summarize', 'summarize_url', { link: 'https://x' }, 'E502'],
  ])('%s/%s %j is refused with %s', (skillName, toolName, args, code) => {
    let error: unknown = null;
    try {
      renderCommand(SKILLS[skillName], toolName, args, { cwd: '/' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SkilltrayError);
    expect((error as SkilltrayError).code).toBe(code);
  });

  it('finds no shell syntax in any fixture command', () => {
    const tools: Tool[] = Object.values(SKILLS).flatMap((s) => s.tools);
    for (const t of tools) expect(parseCommand(t.command, 'braces').shellSyntax, t.name).toEqual([]);
  });
});
