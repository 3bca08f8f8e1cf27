import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readRecording, wavFromBase64 } from '../../../src-main/core/voice/wav.js';
import { SkilltrayError } from '../../../src-main/shared/skilltray-error.js';
import { wavBytes } from '../../../src-main/shared/pcm.js';
import { thrownBy } from '../../support/errors.js';

/** A WAV with the given format fields and `samples` 16-bit samples (sine, so never silent). */
function wav(format: { tag?: number; channels?: number; rate?: number; bits?: number } = {}, samples = 1600): Buffer {
  const pcm = new Int16Array(samples).map((_, i) => Math.round(8000 * Math.sin(i / 5)));
  const bytes = Buffer.from(wavBytes(pcm));
  bytes.writeUInt16LE(format.tag ?? 1, 20);
  bytes.writeUInt16LE(format.channels ?? 1, 22);
  bytes.writeUInt32LE(format.rate ?? 16_000, 24);
  bytes.writeUInt16LE(format.bits ?? 16, 34);
  return bytes;
}

const codeOf = (run: () => unknown): string => thrownBy(run).code;

describe('a recorded answer', () => {
  it('reads a 16 kHz mono 16-bit PCM WAV: its samples and how long it lasts', () => {
    const recording = readRecording(wav({}, 8000));
    expect(recording.samples.length).toBe(8000);
    expect(recording.seconds).toBe(0.5);
  });

  it.each([
    ['another rate', { rate: 22_050 }, 'sampled at 22050 Hz'],
    ['two channels', { channels: 2 }, '2 channels'],
    ['8-bit samples', { bits: 8 }, '8-bit samples'],
    ['a compressed format', { tag: 3 }, 'format is 3'],
  ])('refuses %s with E630, saying which', (_what, format, says) => {
    const error = thrownBy(() => readRecording(wav(format)));
    expect(error.code).toBe('E630');
    expect(error.message).toContain(says);
  });

  it('refuses what is not a WAV (E630), an empty or silent one (E631), one past 10 s (E632) or 2 MiB (E633)', () => {
    expect(codeOf(() => readRecording(Buffer.from('not a wav at all')))).toBe('E630');
    expect(codeOf(() => readRecording(wav({}, 0)))).toBe('E631');
    expect(codeOf(() => readRecording(Buffer.from(wavBytes(new Int16Array(1600)))))).toBe('E631');
    expect(codeOf(() => readRecording(wav({}, 16_000 * 10 + 1)))).toBe('E632');
    expect(readRecording(wav({}, 16_000 * 10)).seconds).toBe(10);
    expect(codeOf(() => readRecording(Buffer.alloc(2 * 1024 * 1024 + 1)))).toBe('E633');
  });

  it('judges base64 past 2 MiB from its length before decoding it (E633), and refuses what is not base64 (E630)', () => {
    expect(codeOf(() => wavFromBase64('A'.repeat(Math.ceil((2 * 1024 * 1024 + 3) / 3) * 4)))).toBe('E633');
    expect(codeOf(() => wavFromBase64('not base64!'))).toBe('E630');
    expect(codeOf(() => wavFromBase64('abc'))).toBe('E630');
    expect(readRecording(wavFromBase64(wav().toString('base64'))).samples.length).toBe(1600);
  });

  it('any bytes at all are a recording only as 16 kHz mono 16-bit PCM, else a coded error, never a crash', () => {
    const header = fc.record({
      tag: fc.constantFrom(0, 1, 3, 0xfffe),
      channels: fc.integer({ min: 0, max: 8 }),
      rate: fc.constantFrom(0, 8000, 16_000, 22_050, 44_100, 48_000, 0xffffffff),
      bits: fc.constantFrom(0, 8, 16, 24, 32),
    });
    fc.assert(
      fc.property(header, fc.integer({ min: 0, max: 4000 }), fc.uint8Array({ maxLength: 64 }), (format, samples, noise) => {
        const bytes = Buffer.concat([wav(format, samples), Buffer.from(noise)]);
        try {
          const recording = readRecording(bytes);
          expect(format).toMatchObject({ tag: 1, channels: 1, rate: 16_000, bits: 16 });
          expect(recording.samples.length).toBe(samples);
        } catch (error) {
          expect(error).toBeInstanceOf(SkilltrayError);
          expect(['E630', 'E631', 'E632', 'E633']).toContain((error as SkilltrayError).code);
        }
      }),
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 256 }), (bytes) => {
        expect(['E630', 'E631', 'E632', 'E633']).toContain(thrownBy(() => readRecording(Buffer.from(bytes))).code);
      }),
    );
  });
});
