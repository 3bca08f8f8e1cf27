/** A fresh trace id for a run started from the UI (random, 128 bits, hex), so its events can be followed before the run has an id. */
export function newTraceId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `ui-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
