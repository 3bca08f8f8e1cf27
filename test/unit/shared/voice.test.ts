import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SandboxView, Surface } from '../../../src-main/shared/runs.js';
import { SURFACES } from '../../../src-main/shared/runs.js';
import {
  CODE_DIGITS,
  SPEECH_MAX,
  allCodes,
  codeShown,
  codeWords,
  isCode,
  isWriting,
  needsCode,
  requestChannel,
  spokenPrompt,
} from '../../../src-main/shared/voice.js';
import { resampleTo16k } from '../../../src-main/shared/pcm.js';

const sandbox = (name: SandboxView['name'], contained = true, network = false): SandboxView => ({
  name,
  network,
  hosts: network ? ['api.github.com'] : [],
  contained,
  mechanism: contained ? 'bubblewrap' : null,
  why: contained ? null : 'no sandbox here',
});

const request = (over: Partial<Parameters<typeof spokenPrompt>[0]> = {}): Parameters<typeof spokenPrompt>[0] => ({
  surface: 'mcp',
  programPath: '/usr/bin/git',
  argv: ['-C', '.', 'commit', '-m', 'fix: the thing'],
  supplied: [4],
  cwd: '/home/ana/code/app',
  sandbox: sandbox('workspace'),
  ...over,
});

describe('approval codes', () => {
  it('are three of five digits, never one twice in a row: 80 of them', () => {
    const codes = allCodes();
    expect(codes).toHaveLength(80);
    expect(new Set(codes).size).toBe(80);
    for (const code of codes) expect(isCode(code)).toBe(true);
    expect(['113', '411', '416', '41', '4131', 'abc', ''].filter(isCode)).toEqual([]);
    expect(codeWords('413')).toBe('four one three');
    expect(codeShown('413')).toBe('4 1 3');
    expect(Object.keys(CODE_DIGITS)).toEqual(['1', '2', '3', '4', '5']);
  });
});

describe('the spoken prompt', () => {
  it('says who asks to run what, where and what it may do, and the answer with the code', () => {
    expect(spokenPrompt(request(), '413', '/home/ana')).toBe(
      "An MCP client asks to run git commit fix the thing in app: it writes in that folder. Say 'run four one three', or 'deny'.",
    );
    expect(spokenPrompt(request({ sandbox: sandbox('read-only'), cwd: '/home/ana', argv: ['status'], supplied: [] }), '413', '/home/ana')).toBe(
      "An MCP client asks to run git status in your home folder: it only reads. Say 'run', or 'deny'.",
    );
    expect(spokenPrompt(request({ sandbox: sandbox('read-only'), channel: 'voice' }), '245')).toContain("Say 'run two four five', or 'deny'.");
    expect(spokenPrompt(request({ sandbox: sandbox('workspace', false, true) }), '245')).toContain('it is not contained, and uses the network');
  });

  it('stays under 200 characters of sayable words, whatever the request holds, and always ends with how to answer', () => {
    const hostile = fc.string({ unit: 'binary', maxLength: 400 });
    fc.assert(
      fc.property(
        fc.constantFrom(...SURFACES),
        hostile,
        fc.array(hostile, { maxLength: 12 }),
        hostile,
        fc.constantFrom(...allCodes()),
        fc.boolean(),
        (surface: Surface, program, argv, cwd, code, readOnly) => {
          const p = request({
            surface,
            programPath: `/usr/bin/${program}`,
            argv,
            supplied: argv.map((_, i) => i),
            cwd: `/${cwd}`,
            sandbox: sandbox(readOnly ? 'read-only' : 'workspace'),
          });
          const text = spokenPrompt(p, code);
          expect(text.length).toBeLessThan(200);
          expect(text.length).toBeLessThanOrEqual(SPEECH_MAX);
          expect(text.endsWith(readOnly ? "Say 'run', or 'deny'." : `Say 'run ${codeWords(code)}', or 'deny'.`)).toBe(true);
          // Nothing a synthesiser would spell out or choke on: no control, format or symbol characters.
          expect(text).not.toMatch(/[\p{C}<>`$\\|{}[\]]/u);
        },
      ),
    );
  });
});

describe('who needs a code, and where a request came from', () => {
  it('a writing tool, or a request from a voice turn, needs the code; a contained read-only one does not', () => {
    expect(needsCode({ sandbox: sandbox('workspace') })).toBe(true);
    expect(needsCode({ sandbox: sandbox('read-only', false) })).toBe(true);
    expect(needsCode({ sandbox: sandbox('none', false) })).toBe(true);
    expect(needsCode({ sandbox: sandbox('read-only'), channel: 'voice' })).toBe(true);
    expect(needsCode({ sandbox: sandbox('read-only'), channel: 'assistant' })).toBe(false);
    expect(isWriting(sandbox('read-only'))).toBe(false);
  });

  it("the person's surfaces are a keyboard, an assistant's an assistant, and voice only when the request says so", () => {
    expect(SURFACES.map((s) => requestChannel(s))).toEqual(['keyboard', 'assistant', 'assistant', 'keyboard', 'keyboard']);
    expect(SURFACES.map((s) => requestChannel(s, 'voice'))).toEqual(SURFACES.map(() => 'voice'));
  });
});

describe('resampling to 16 kHz', () => {
  it('keeps a tone in the speech band and its length, and drops one above 8 kHz', () => {
    const tone = (hz: number, rate: number): Float32Array => Float32Array.from({ length: rate }, (_, i) => Math.sin((2 * Math.PI * hz * i) / rate));
    const rms = (x: Float32Array): number => Math.sqrt(x.slice(200, -200).reduce((s, v) => s + v * v, 0) / (x.length - 400));
    const kept = resampleTo16k(tone(1000, 48_000), 48_000);
    expect(kept.length).toBe(16_000);
    expect(rms(kept)).toBeCloseTo(Math.SQRT1_2, 1);
    expect(rms(resampleTo16k(tone(11_000, 48_000), 48_000))).toBeLessThan(0.05);
    expect(resampleTo16k(tone(1000, 22_050), 22_050).length).toBe(16_000);
  });
});
