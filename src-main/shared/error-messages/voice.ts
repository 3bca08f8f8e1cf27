/** The errors of answering by voice (E63x, docs/errors.md): nothing was approved when one is thrown. */
import { SkilltrayError } from '../skilltray-error.js';

/** Longest recording an answer may be. */
export const MAX_ANSWER_SECONDS = 10;

/** Largest WAV an answer may be. */
export const MAX_ANSWER_BYTES = 2 * 1024 * 1024;

export const voiceErrors = {
  audioInvalid: (why: string) =>
    new SkilltrayError('E630', `the recording is not a 16 kHz mono 16-bit PCM WAV (${why}); nothing was approved`, { details: { why } }),
  audioEmpty: () => new SkilltrayError('E631', 'the recording holds no sound; nothing was approved'),
  audioTooLong: (seconds: number) =>
    new SkilltrayError('E632', `the recording is ${seconds.toFixed(1)} s long, more than an answer's ${MAX_ANSWER_SECONDS} s; nothing was approved`, {
      details: { seconds, maxSeconds: MAX_ANSWER_SECONDS },
    }),
  audioTooLarge: (bytes: number) =>
    new SkilltrayError('E633', `the recording is ${bytes} bytes, more than an answer's ${MAX_ANSWER_BYTES} (2 MiB); nothing was approved`, {
      details: { bytes, maxBytes: MAX_ANSWER_BYTES },
    }),
  unavailable: (why: string, options: { cause?: unknown } = {}) =>
    new SkilltrayError('E634', `voice unavailable: ${why}`, { details: { why }, ...(options.cause === undefined ? {} : { cause: options.cause }) }),
  voiceOff: () => new SkilltrayError('E636', 'voice is off: turn it on in Settings › Voice to answer approvals by voice'),
};
