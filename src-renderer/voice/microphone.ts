/**
 * A few seconds of the microphone as a spoken answer: 16 kHz mono 16-bit PCM in a WAV, base64, as
 * answerApprovalByVoice takes it. Opened only when asked (voice on), closed as soon as it stops.
 */
import { resampleTo16k, toPcm16, wavBytes } from '../../src-main/shared/pcm.js';

/** How long a spoken answer is listened for (an answer takes about two seconds to say). */
export const LISTEN_MS = 5000;

/** A recording in progress: `stop()` ends it early and discards it; `done` has the WAV, or null when it was stopped. */
export interface Capture {
  stop(): void;
  done: Promise<string | null>;
}

/** Bytes as base64, in slices small enough for String.fromCharCode's arguments. */
export function base64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

/** Starts listening; the microphone closes after `ms` (the WAV is then in `done`) or on stop() (nothing is kept). */
export async function captureAnswer(ms = LISTEN_MS): Promise<Capture> {
  const stream = await navigator.mediaDevices.getUserMedia({ audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true } });
  const context = new AudioContext();
  const source = context.createMediaStreamSource(stream);
  // ScriptProcessor needs no separate module file, which the page's CSP would have to allow.
  const processor = context.createScriptProcessor(4096, 1, 1);
  const chunks: Float32Array[] = [];
  processor.onaudioprocess = (event) => chunks.push(new Float32Array(event.inputBuffer.getChannelData(0)));
  source.connect(processor);
  processor.connect(context.destination);
  let finish: (keep: boolean) => void = () => undefined;
  const done = new Promise<string | null>((resolve) => {
    finish = (keep) => {
      finish = () => undefined;
      clearTimeout(timer);
      processor.disconnect();
      source.disconnect();
      for (const track of stream.getTracks()) track.stop();
      const rate = context.sampleRate;
      void context.close();
      if (!keep) return resolve(null);
      const all = new Float32Array(chunks.reduce((n, c) => n + c.length, 0));
      chunks.reduce((at, c) => (all.set(c, at), at + c.length), 0);
      resolve(base64(wavBytes(toPcm16(resampleTo16k(all, rate)))));
    };
  });
  const timer = setTimeout(() => finish(true), ms);
  return { stop: () => finish(false), done };
}
