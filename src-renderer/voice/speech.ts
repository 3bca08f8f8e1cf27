/**
 * Saying a prompt aloud: the window's own speechSynthesis where it has voices (speech-dispatcher on
 * Linux), else the synthesiser of the computer that owns runs (espeak-ng), through `speak`.
 */
import type { SkilltrayClient } from '../../src-main/shared/contract.js';

/** How long to wait for the window's voices to load before falling back. */
const VOICES_WAIT_MS = 300;

function windowVoices(): Promise<number> {
  if (!('speechSynthesis' in window)) return Promise.resolve(0);
  const now = speechSynthesis.getVoices().length;
  if (now > 0) return Promise.resolve(now);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(0), VOICES_WAIT_MS);
    speechSynthesis.addEventListener(
      'voiceschanged',
      () => {
        clearTimeout(timer);
        resolve(speechSynthesis.getVoices().length);
      },
      { once: true },
    );
  });
}

/** Says `text`; resolves once it has been said (or could not be). */
export async function speakText(text: string, client: SkilltrayClient): Promise<void> {
  if ((await windowVoices()) === 0) {
    await client.speak({ text });
    return;
  }
  await new Promise<void>((resolve) => {
    const utterance = new SpeechSynthesisUtterance(text);
    utterance.onend = () => resolve();
    utterance.onerror = () => resolve();
    speechSynthesis.speak(utterance);
  });
}
