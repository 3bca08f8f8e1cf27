/** Process warnings a test provokes on purpose: caught and asserted, never printed as if something were wrong. */
import { onTestFinished, vi } from 'vitest';

export interface CapturedWarnings {
  /** Every warning's message, in the order the code emitted them. */
  readonly messages: readonly string[];
  /** The first warning whose message contains `text`, whether it came already or comes later. */
  next(text: string): Promise<string>;
}

/** Keeps `process.emitWarning` from printing until the current test finishes, and collects what it was given. */
export function captureWarnings(): CapturedWarnings {
  const messages: string[] = [];
  const waiting: { text: string; resolve: (message: string) => void }[] = [];
  const spy = vi.spyOn(process, 'emitWarning').mockImplementation((warning: string | Error) => {
    const message = typeof warning === 'string' ? warning : warning.message;
    messages.push(message);
    for (const waiter of waiting.filter((w) => message.includes(w.text))) {
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.resolve(message);
    }
  });
  onTestFinished(() => spy.mockRestore());
  return {
    messages,
    next: (text) => {
      const already = messages.find((message) => message.includes(text));
      return already === undefined ? new Promise((resolve) => waiting.push({ text, resolve })) : Promise.resolve(already);
    },
  };
}
