/**
 * Sound as the recogniser takes it: 16 kHz mono 16-bit PCM in a WAV. The renderer turns the
 * microphone into it and the core turns the synthesiser's output into it, with the same code.
 */

/** The one format answers are heard in. */
export const VOICE_SAMPLE_RATE = 16_000;

/** Half-width of the resampling filter, in input samples. */
const TAPS = 32;

/**
 * Samples at `rate` resampled to 16 kHz with a Hann-windowed sinc filter whose cut-off sits below
 * the lower Nyquist frequency, so nothing above 8 kHz folds back into the speech band.
 */
export function resampleTo16k(samples: Float32Array, rate: number): Float32Array {
  if (rate === VOICE_SAMPLE_RATE) return samples.slice();
  const ratio = rate / VOICE_SAMPLE_RATE;
  const cutoff = 0.9 / Math.max(1, ratio);
  const out = new Float32Array(Math.floor(samples.length / ratio));
  const width = Math.ceil(TAPS * Math.max(1, ratio));
  for (let j = 0; j < out.length; j++) {
    const t = j * ratio;
    const centre = Math.floor(t);
    let sum = 0;
    for (let k = Math.max(0, centre - width + 1); k <= Math.min(samples.length - 1, centre + width); k++) {
      const d = t - k;
      const x = Math.PI * cutoff * d;
      const sinc = d === 0 ? 1 : Math.sin(x) / x;
      sum += (samples[k] as number) * cutoff * sinc * (0.5 + 0.5 * Math.cos((Math.PI * d) / width));
    }
    out[j] = sum;
  }
  return out;
}

/** Float samples (-1…1) as signed 16-bit integers, clipped. */
export function toPcm16(samples: Float32Array): Int16Array {
  const pcm = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) pcm[i] = Math.max(-32768, Math.min(32767, Math.round((samples[i] as number) * 32768)));
  return pcm;
}

/** A 16 kHz mono 16-bit PCM WAV (44-byte header) of `pcm`. */
export function wavBytes(pcm: Int16Array): Uint8Array {
  const bytes = new Uint8Array(44 + pcm.length * 2);
  const view = new DataView(bytes.buffer);
  const ascii = (at: number, text: string): void => [...text].forEach((c, i) => view.setUint8(at + i, c.charCodeAt(0)));
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + pcm.length * 2, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, VOICE_SAMPLE_RATE, true);
  view.setUint32(28, VOICE_SAMPLE_RATE * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, pcm.length * 2, true);
  pcm.forEach((s, i) => view.setInt16(44 + i * 2, s, true));
  return bytes;
}
