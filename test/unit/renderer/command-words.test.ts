/**
 * The command an approval shows: words, not a shell line (no quoting, no backticks), and in each
 * argument the caller filled exactly the characters the caller chose marked.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commandWords, fitWords, markValues, sentenceFrame } from '../../../src-renderer/approvals/command-words.js';
import type { PendingApproval } from '../../../src-main/shared/runs.js';

const text = (words: ReturnType<typeof commandWords>) => words.map((w) => w.parts.map((p) => (p.supplied ? `[${p.text}]` : p.text)).join('')).join(' ');

describe('the approval command as words', () => {
  it("marks only the caller's value inside an argument the template filled: `<<name>>!` with Ada marks Ada, not the skill's !", () => {
    const words = commandWords({ programPath: '/bin/echo', argv: ['Hello,', 'Ada!'], supplied: [1], args: { name: 'Ada' } });
    expect(text(words)).toBe('echo Hello, [Ada]!');
  });

  it('shows an argument with a space as one word, unquoted, and says it holds a space', () => {
    const words = commandWords({ programPath: '/bin/echo', argv: ["it's two words"], supplied: [0], args: { text: "it's two words" } });
    expect(text(words)).toBe("echo [it's two words]");
    expect(words[1]).toMatchObject({ spaced: true });
  });

  it('leaves the safety flags out, marks a flag a boolean turned on whole, and a number by its digits', () => {
    const argv = ['-c', 'core.fsmonitor=false', '-C', '/home/ana/code', 'log', '-n', '5', '--staged'];
    const words = commandWords({ programPath: '/usr/bin/git', argv, supplied: [3, 6, 7], args: { repo: '/home/ana/code', count: 5, staged: true } });
    expect(text(words)).toBe('git -C [/home/ana/code] log -n [5] [--staged]');
  });

  it('shortens a long fixed path the template wrote, never a value the caller gave', () => {
    const argv = ['/usr/share/skilltray/scripts/extract.py', '/very/long/path/the/caller/chose/file.txt'];
    const words = commandWords({ programPath: '/usr/bin/python3', argv, supplied: [1], args: { path: '/very/long/path/the/caller/chose/file.txt' } }, true);
    expect(text(words)).toBe('python3 …/extract.py [/very/long/path/the/caller/chose/file.txt]');
  });

  it('fits the words in a length, saying when some were left out', () => {
    const words = commandWords({ programPath: '/bin/echo', argv: ['aaaa', 'bbbb', 'cccc'], supplied: [], args: {} });
    expect(fitWords(words, 9)).toMatchObject({ cut: true, words: [{ index: -1 }, { index: 0 }] });
    expect(fitWords(words, 100).cut).toBe(false);
  });

  it('property: the marked parts of an argument are exactly the text, in order, and mark only occurrences of the values', () => {
    fc.assert(
      fc.property(fc.string(), fc.array(fc.string({ minLength: 1, maxLength: 4 }), { maxLength: 3 }), (arg, values) => {
        const parts = markValues(arg, values);
        expect(parts.map((p) => p.text).join('')).toBe(arg);
        const marked = parts.filter((p) => p.supplied);
        if (marked.length === 1 && marked[0]?.text === arg) return;
        for (const part of marked) expect(values).toContain(part.text);
      }),
    );
  });

  it('frames the sentence: who asks, where (home as ~), how it is contained', () => {
    const sandbox: PendingApproval['sandbox'] = { name: 'read-only', network: false, hosts: [], contained: true, mechanism: 'bubblewrap', why: null };
    expect(sentenceFrame({ surface: 'mcp', cwd: '/home/ana/code/app', sandbox }, '/home/ana')).toEqual({
      asker: 'An MCP client',
      where: '~/code/app',
      containment: 'read-only, no network',
    });
  });
});
