/**
 * pocketsphinx kept warm: a recogniser whose decoders have heard other recordings (under the other
 * grammar too) hears each one exactly as a fresh recogniser does; a decoder that stops is replaced
 * by the next hearing; cooled, it leaves no process and no folder behind.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { PocketsphinxRecogniser } from '../../../src-main/core/voice/pocketsphinx.js';
import { readRecording } from '../../../src-main/core/voice/wav.js';
import type { Hearing } from '../../../src-main/shared/voice.js';
import { ROOT } from '../../support/fresh-build.js';
import { tempDir } from '../../support/temp.js';
import { VOICES, spoken } from '../../support/voice.js';

const recognisers: PocketsphinxRecogniser[] = [];
afterEach(async () => {
  for (const r of recognisers.splice(0)) await r.cool();
});

function recogniser(): PocketsphinxRecogniser {
  const r = new PocketsphinxRecogniser(process.env);
  recognisers.push(r);
  return r;
}

/** The pocketsphinx processes this test process started, with the folder each decodes in. */
function decoders(): { pid: number; dir: string }[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        if (ppid !== process.pid || !(argv[0] ?? '').endsWith('pocketsphinx_batch')) return [];
        return [{ pid: Number(pid), dir: argv[argv.indexOf('-cepdir') + 1] as string }];
      } catch {
        return []; // it ended while being read
      }
    });
}

const without = ({ elapsedSeconds: _, ...rest }: Hearing): Omit<Hearing, 'elapsedSeconds'> => rest;

async function recording(text: string, voice?: string) {
  return readRecording(Buffer.from(await spoken(text, voice), 'base64'));
}

describe('pocketsphinx kept warm', () => {
  it('hears each recording as a fresh recogniser does, whatever it heard before and under either grammar', { timeout: 300_000 }, async () => {
    const warm = recogniser();
    warm.warm();
    const said: [string, string, boolean][] = [
      ['run four one three', VOICES[0], false],
      ['run', VOICES[1], true],
      ['the weather is nice today', VOICES[0], false],
      ['always two five', VOICES[1], true],
      ['deny', VOICES[0], false],
      ['run three one', VOICES[1], true],
    ];
    for (const [text, voice, codeless] of said) {
      const rec = await recording(text, voice);
      const fresh = recogniser();
      const once = await fresh.hear(rec, { codeless });
      await fresh.cool();
      expect(without(await warm.hear(rec, { codeless })), `${text} (${voice}, ${codeless ? 'codeless' : 'with code'})`).toEqual(without(once));
    }
    // One engine of three decoders heard them all.
    expect(decoders()).toHaveLength(3);
  });

  it('replaces a decoder that stopped, and leaves no process nor folder once cooled', { timeout: 120_000 }, async () => {
    const r = recogniser();
    const rec = await recording('run four one three');
    const first = await r.hear(rec, { codeless: false });
    expect(first).toMatchObject({ text: 'run four one three', accepted: true });
    const [stopped] = decoders();
    process.kill((stopped as { pid: number }).pid, 'SIGKILL');
    expect(without(await r.hear(rec, { codeless: false }))).toEqual(without(first));
    const running = decoders();
    expect(running).toHaveLength(3);
    expect(running.map((d) => d.pid)).not.toContain((stopped as { pid: number }).pid);
    await r.cool();
    expect(decoders()).toEqual([]);
    for (const { dir } of running) expect(existsSync(dir)).toBe(false);
  });

  it('cooled while it is still starting, fails nothing and leaves nothing behind', { timeout: 120_000 }, async () => {
    for (let turns = 0; turns < 40; turns++) {
      const r = recogniser();
      r.warm();
      // Cooled at a different point of its start each time: before, among and after its pipes being made.
      for (let i = 0; i < turns; i++) await new Promise<void>((resolve) => setImmediate(resolve));
      await r.cool();
    }
    expect(decoders()).toEqual([]);
  });

  it(
    'a process whose last step awaits cool() goes on past it and ends by itself (it exited 13, an unsettled await, in the bench)',
    { timeout: 120_000 },
    async () => {
      const dir = tempDir();
      writeFileSync(join(dir, 'run.wav'), Buffer.from(await spoken('run four one three'), 'base64'));
      const at = (module: string): string => pathToFileURL(join(ROOT, 'dist', 'node', 'src-main', 'core', 'voice', module)).href;
      const script = [
        `import { readFileSync } from 'node:fs';`,
        `import { PocketsphinxRecogniser } from '${at('pocketsphinx.js')}';`,
        `import { readRecording } from '${at('wav.js')}';`,
        `const r = new PocketsphinxRecogniser(process.env);`,
        // Its decoders are up and have answered once: nothing of the engine is still starting.
        `await r.hear(readRecording(readFileSync(${JSON.stringify(join(dir, 'run.wav'))})), { codeless: false });`,
        `await r.cool();`,
        `console.log('cooled');`,
      ].join('\n');
      const child = await execa(process.execPath, ['--input-type=module', '-e', script], { reject: false, stdin: 'ignore' });
      expect({ exitCode: child.exitCode, stdout: child.stdout }, child.stderr).toEqual({ exitCode: 0, stdout: 'cooled' });
    },
  );
});
