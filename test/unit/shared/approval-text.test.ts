import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { approvalSentence, boxLines, containment, shortCommand, shortPath, shownArguments, word } from '../../../src-main/shared/approval-text.js';
import type { SandboxView } from '../../../src-main/shared/runs.js';

const GIT_LOG = [
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'log.showSignature=false',
  '-C',
  '/home/ana/app',
  'log',
  '--no-ext-diff',
  '--no-textconv',
  '-n',
  '5',
  '--date=short',
  '--format=%h %ad %an: %s',
  '--',
  'src',
];
const readOnly: SandboxView = { name: 'read-only', network: false, hosts: [], contained: true, mechanism: 'bubblewrap', why: null };

describe('how an approval reads', () => {
  it('folds the fixed -c settings and --no- flags, never a value the caller supplied', () => {
    const shown = shownArguments(GIT_LOG, [7, 12, 16]);
    expect(shown.filter((a) => a.hardening).map((a) => a.text)).toEqual([
      '-c',
      'core.fsmonitor=false',
      '-c',
      'core.hooksPath=/dev/null',
      '-c',
      'log.showSignature=false',
      '--no-ext-diff',
      '--no-textconv',
    ]);
    expect(shown.filter((a) => a.supplied).map((a) => a.text)).toEqual(['/home/ana/app', '5', 'src']);
    // A caller's value that looks like a hardening flag is still the caller's, and is shown.
    expect(shownArguments(['-c', 'x', '--no-verify'], [1, 2]).filter((a) => a.hardening)).toEqual([]);
  });

  it('whatever the argv and the supplied indexes, a supplied argument is never folded away', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('-c', 'a=b', '--no-x', 'status', '-C', '.', ''), { maxLength: 12 }), fc.array(fc.nat(11)), (argv, supplied) => {
        for (const a of shownArguments(argv, supplied)) if (a.supplied) expect(a.hardening).toBe(false);
      }),
    );
  });

  it('quotes an argument only when it would not read as one word', () => {
    expect(word('--short')).toBe('--short');
    expect(word('--format=%h %s')).toBe("'--format=%h %s'");
    expect(word("it's")).toBe(`'it'\\''s'`);
    expect(word('')).toBe("''");
  });

  it('shortens the command and the folder for the sentence', () => {
    expect(shortCommand('/usr/bin/git', GIT_LOG, [7, 12, 16])).toBe("git -C /home/ana/app log -n 5 --date=short '--format=%h %ad %an: %s' -- src");
    expect(shortCommand('/usr/bin/git', GIT_LOG, [7, 12, 16], 30)).toBe('git -C /home/ana/app log -n 5…');
    // A long path the template fixed reads as its name; one the caller chose is shown whole.
    const script = ['/usr/share/skilltray/scripts/extract.py', '/very/long/path/the/caller/chose/file.txt'];
    expect(shortCommand('/usr/bin/python3', script, [1])).toBe('python3 …/extract.py /very/long/path/the/caller/chose/file.txt');
    expect(shortPath('/home/ana/code/app', '/home/ana')).toBe('~/code/app');
    expect(shortPath('/home/ana', '/home/ana/')).toBe('~');
    expect(shortPath('/home/anabel/x', '/home/ana')).toBe('/home/anabel/x');
    expect(shortPath('/srv/builds/very/long/path/to/the/project/checkout')).toBe('…/project/checkout');
  });

  it('leads with one sentence: who, what, where, how contained', () => {
    const status = ['-c', 'core.fsmonitor=false', '-C', '.', 'status', '--short', '--branch'];
    expect(
      approvalSentence({ surface: 'mcp', programPath: '/usr/bin/git', argv: status, supplied: [], cwd: '/home/ana/code/app', sandbox: readOnly }, '/home/ana'),
    ).toBe('An MCP client asks to run `git -C . status --short --branch` in ~/code/app — read-only, no network.');
    // The assistant whose own token asks is named; the stdio bridge's name is only the surface's.
    const base = { programPath: '/usr/bin/git', argv: status, supplied: [], cwd: '/home/ana/code/app', sandbox: readOnly };
    expect(approvalSentence({ ...base, surface: 'http', assistant: 'codex' }, '/home/ana')).toMatch(/^An HTTP client \(codex\) asks to run /);
    expect(approvalSentence({ ...base, surface: 'mcp', assistant: 'mcp' }, '/home/ana')).toMatch(/^An MCP client asks to run /);
    expect(approvalSentence({ ...base, surface: 'cli', assistant: null }, '/home/ana')).toMatch(/^The command line asks to run /);
    expect(containment({ ...readOnly, name: 'workspace', network: true, hosts: ['*'] })).toBe('can write in that folder, network to any host');
    expect(containment({ ...readOnly, network: true, hosts: ['api.github.com', '*.example.org'] })).toBe('read-only, network to api.github.com, *.example.org');
    expect(containment({ ...readOnly, network: true, hosts: ['a.io', 'b.io', 'c.io', 'd.io', 'e.io'] })).toBe(
      'read-only, network to a.io, b.io, c.io and 2 more',
    );
    expect(containment({ ...readOnly, network: true, hosts: 'host' })).toBe("read-only, this computer's own network");
    expect(containment({ ...readOnly, contained: false, mechanism: null, why: 'x' })).toBe('not contained (no sandbox here)');
    expect(containment({ name: 'none', network: true, hosts: 'host', contained: false, mechanism: null, why: 'x' })).toBe('not sandboxed (you turned it off)');
  });

  it('says where each declared read really leads, names a .git that points outside, and what a writing tool may change', () => {
    const lines = boxLines({
      ...readOnly,
      name: 'workspace',
      reads: ['~/.gitconfig', '~/.config/git/ignore'],
      readsAt: ['/home/ana/dotfiles/gitconfig', '/home/ana/.config/git/ignore'],
      writes: ['.cargo'],
      gitOutside: ['vendor/lib/.git'],
    });
    expect(lines).toContain(
      'Also reads: ~/.gitconfig, ~/.config/git/ignore (read-only), which lead to /home/ana/dotfiles/gitconfig, /home/ana/.config/git/ignore.',
    );
    expect(lines).toContain('A .git in its folder names a git folder outside it (vendor/lib/.git): the run sees nothing there, so git may fail.');
    expect(lines).toContain(
      'May also change: .cargo; every other hidden file and folder (.git hooks and config, editor, agent and CI settings) stays read-only, and hidden ones it makes are removed when it ends.',
    );
    expect(boxLines({ ...readOnly, name: 'workspace' })).toContain(
      'Every hidden file and folder (.git, editor, agent and CI settings, startup files) and node_modules stay read-only; hidden ones it makes are removed when it ends.',
    );
  });
});
