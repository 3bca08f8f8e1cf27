/** A server-sent events parser for bodies read with fetch streaming (EventSource cannot send a bearer header). */

/** One dispatched event: its type (`message` when unnamed) and its data lines joined by `\n`. */
export interface SseMessage {
  event: string;
  data: string;
}

/**
 * Returns a function to feed decoded text chunks in arrival order. Lines may be split anywhere
 * across chunks; `\n`, `\r\n` and `\r` all end a line; comment lines (`:` first) are skipped; a
 * blank line dispatches the event gathered so far (if it has data), as the SSE format says.
 */
export function createSseParser(onMessage: (message: SseMessage) => void): (chunk: string) => void {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let pendingCr = false;

  const line = (text: string): void => {
    if (text === '') {
      if (data.length > 0) onMessage({ event: event === '' ? 'message' : event, data: data.join('\n') });
      event = '';
      data = [];
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    // `id` and `retry` are not used: the client resynchronises by refetching after a reconnect.
  };

  return (chunk) => {
    let text = chunk;
    // A `\r` at the end of the previous chunk already ended its line; drop the `\n` that completes `\r\n`.
    if (pendingCr && text.startsWith('\n')) text = text.slice(1);
    pendingCr = false;
    buffer += text;
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const c = buffer[i];
      if (c !== '\n' && c !== '\r') continue;
      line(buffer.slice(start, i));
      if (c === '\r') {
        if (i + 1 < buffer.length) {
          if (buffer[i + 1] === '\n') i++;
        } else {
          pendingCr = true;
        }
      }
      start = i + 1;
    }
    buffer = buffer.slice(start);
  };
}
