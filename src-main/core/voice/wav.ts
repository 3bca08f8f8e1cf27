/**
 * A recorded answer, checked before anything hears it: base64 of a 16 kHz mono 16-bit PCM WAV, at
 * most 2 MiB and 10 s, with sound in it. What passes is the samples alone; the recogniser is fed
 * those, never the caller's file.
 */
import { MAX_ANSWER_BYTES, MAX_ANSWER_SECONDS, voiceErrors } from '../../shared/error-messages/voice.js';
import { VOICE_SAMPLE_RATE } from '../../shared/pcm.js';

/** A checked recording: its samples and how long it lasts. */
export interface Recording {
  samples: Int16Array;
  seconds: number;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The bytes of a base64 WAV; E633 past 2 MiB (judged from the text's length before decoding), E630 for what is not base64. */
export function wavFromBase64(text: string): Buffer {
  const bytes = Math.floor((text.length * 3) / 4) - (text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0);
  if (bytes > MAX_ANSWER_BYTES) throw voiceErrors.audioTooLarge(bytes);
  if (text.length % 4 !== 0 || !BASE64.test(text)) throw voiceErrors.audioInvalid('the wav field is not base64');
  return Buffer.from(text, 'base64');
}

/** The chunks of a RIFF file: id, where its data starts, and how long it says it is. */
function* chunks(wav: Buffer): Generator<{ id: string; start: number; size: number }> {
  for (let at = 12; at + 8 <= wav.length;) {
    const size = wav.readUInt32LE(at + 4);
    yield { id: wav.toString('latin1', at, at + 4), start: at + 8, size };
    at += 8 + size + (size % 2);
  }
}

/** Reads a WAV's samples; E630 for any other format, E631 without samples, E632 past 10 s, E633 past 2 MiB. */
export function readRecording(wav: Buffer): Recording {
  if (wav.length > MAX_ANSWER_BYTES) throw voiceErrors.audioTooLarge(wav.length);
  if (wav.length < 12 || wav.toString('latin1', 0, 4) !== 'RIFF' || wav.toString('latin1', 8, 12) !== 'WAVE') {
    throw voiceErrors.audioInvalid('it does not start with a RIFF WAVE header');
  }
  let format: { tag: number; channels: number; rate: number; bits: number } | null = null;
  let data: { start: number; size: number } | null = null;
  for (const chunk of chunks(wav)) {
    if (chunk.id === 'fmt ' && chunk.size >= 16 && chunk.start + 16 <= wav.length) {
      format = {
        tag: wav.readUInt16LE(chunk.start),
        channels: wav.readUInt16LE(chunk.start + 2),
        rate: wav.readUInt32LE(chunk.start + 4),
        bits: wav.readUInt16LE(chunk.start + 14),
      };
    }
    if (chunk.id === 'data') {
      data = { start: chunk.start, size: Math.min(chunk.size, wav.length - chunk.start) };
      break;
    }
  }
  if (format === null) throw voiceErrors.audioInvalid('it has no fmt chunk before its data');
  if (format.tag !== 1) throw voiceErrors.audioInvalid(`its format is ${format.tag}, not 1 (PCM)`);
  if (format.channels !== 1) throw voiceErrors.audioInvalid(`it has ${format.channels} channels, not 1`);
  if (format.rate !== VOICE_SAMPLE_RATE) throw voiceErrors.audioInvalid(`it is sampled at ${format.rate} Hz, not ${VOICE_SAMPLE_RATE}`);
  if (format.bits !== 16) throw voiceErrors.audioInvalid(`it has ${format.bits}-bit samples, not 16`);
  if (data === null) throw voiceErrors.audioInvalid('it has no data chunk');
  const count = Math.floor(data.size / 2);
  if (count === 0) throw voiceErrors.audioEmpty();
  const seconds = count / VOICE_SAMPLE_RATE;
  if (seconds > MAX_ANSWER_SECONDS) throw voiceErrors.audioTooLong(seconds);
  const samples = new Int16Array(count);
  for (let i = 0; i < count; i++) samples[i] = wav.readInt16LE(data.start + i * 2);
  if (samples.every((s) => s === 0)) throw voiceErrors.audioEmpty();
  return { samples, seconds };
}

/** Any mono or multi-channel 16-bit PCM WAV (a synthesiser's output) as float samples of its first channel, with its rate. */
export function readPcmWav(wav: Buffer): { rate: number; samples: Float32Array } {
  let format: { channels: number; rate: number; bits: number } | null = null;
  for (const chunk of chunks(wav)) {
    if (chunk.id === 'fmt ' && chunk.start + 16 <= wav.length) {
      format = { channels: wav.readUInt16LE(chunk.start + 2), rate: wav.readUInt32LE(chunk.start + 4), bits: wav.readUInt16LE(chunk.start + 14) };
    }
    if (chunk.id === 'data' && format !== null && format.bits === 16 && format.channels > 0) {
      const frame = 2 * format.channels;
      const count = Math.floor(Math.min(chunk.size, wav.length - chunk.start) / frame);
      const samples = new Float32Array(count);
      for (let i = 0; i < count; i++) samples[i] = wav.readInt16LE(chunk.start + i * frame) / 32768;
      return { rate: format.rate, samples };
    }
  }
  throw voiceErrors.audioInvalid('the synthesiser did not write a 16-bit PCM WAV');
}
