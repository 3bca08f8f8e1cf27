/**
 * `GET /api/events`: the core's events as server-sent events (`event: <type>\ndata: <json>\n\n`),
 * with a comment heartbeat so idle connections and proxies stay open. A subscriber that stops
 * reading is dropped rather than buffered without bound; every listener goes when its client does.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SkilltrayCore } from '../core/api.js';
import type { ServerEvent } from '../shared/contract.js';

/** Bytes queued for one subscriber before it is considered gone. */
const MAX_BACKLOG_BYTES = 8 * 1024 * 1024;

/** The open event streams of one server. */
export class EventStreams {
  /** Each open stream's way to end itself. */
  private readonly open = new Map<ServerResponse, () => void>();

  constructor(
    private readonly core: SkilltrayCore,
    private readonly heartbeatMs: number,
  ) {}

  /** Turns a response into an event stream until the client goes away or the server closes. */
  subscribe(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    req.socket.setNoDelay(true);
    const send = (text: string): void => {
      if (res.writableEnded || res.destroyed) return;
      if (res.writableLength > MAX_BACKLOG_BYTES) {
        res.destroy();
        return;
      }
      res.write(text);
    };
    const listener = (event: ServerEvent): void => send(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    const heartbeat = setInterval(() => send(': heartbeat\n\n'), this.heartbeatMs);
    heartbeat.unref();
    const stop = (): void => {
      clearInterval(heartbeat);
      this.core.off('event', listener);
      this.open.delete(res);
    };
    this.core.on('event', listener);
    this.open.set(res, () => {
      stop();
      res.end();
    });
    res.once('close', stop);
    send(': connected\n\n');
  }

  /** Ends every stream (the server is closing). */
  closeAll(): void {
    for (const end of [...this.open.values()]) end();
  }
}
