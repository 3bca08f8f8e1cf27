/**
 * The MCP bridge's stdio transport (in place of the SDK's StdioServerTransport, whose read buffer
 * throws and ends the session past 10 MiB): newline-delimited JSON-RPC with limits of its own, so
 * no input ends a session or goes unanswered.
 *
 * - A line longer than MAX_LINE_BYTES is skipped as it streams (never held whole) and answered at
 *   once with a JSON-RPC error carrying E804, under the request's id when its first bytes name one.
 * - A line that is not JSON is -32700; a batch, a message that is no JSON-RPC request, or an id that
 *   is not a string or a number is -32600; params that are not an object are -32602.
 * - At most MAX_CONCURRENT requests are worked on at once (a `ping` is always answered at once); up
 *   to MAX_QUEUED more wait in order. Past that, stdin is paused until an answer has been written
 *   out: the client's writes block, and nothing piles up here however much it pipelines.
 *
 * It may read stdin before the server is connected (`listen`), so that a client that goes away
 * during start-up is seen at once; what it sent meanwhile waits, within the same limits.
 */
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { gatewayErrors } from '../shared/error-messages/gateway.js';

/** Bytes one message (one line) may take. */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

/** Requests worked on at once. */
export const MAX_CONCURRENT = 16;

/** Requests waiting for their turn before stdin is paused. */
export const MAX_QUEUED = 64;

/** How much of an oversized line is kept to find its id. */
const ID_PREFIX_BYTES = 1024;

const NEWLINE = 0x0a;

type Json = Record<string, unknown>;

/** A key for an id that tells 1 from "1". */
function idKey(id: RequestId): string {
  return `${typeof id}:${String(id)}`;
}

function isId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/**
 * The id of the message whose first bytes are `prefix`, read without parsing the rest: a string
 * or number `"id"` member at the top level, before any nested value could be mistaken for it.
 */
export function sniffId(prefix: string): RequestId | null {
  const match = /^\s*\{/.exec(prefix);
  if (match === null) return null;
  let at = match[0].length;
  // Top-level members one by one: "key": value, stopping at the first value that is an object or array.
  for (;;) {
    const key = /^\s*,?\s*"((?:[^"\\]|\\.)*)"\s*:\s*/.exec(prefix.slice(at));
    if (key === null) return null;
    at += key[0].length;
    const rest = prefix.slice(at);
    const value = /^(?:"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(rest);
    if (value === null) return null;
    if (key[1] === 'id') {
      const id: unknown = JSON.parse(value[0]);
      return isId(id) ? id : null;
    }
    at += value[0].length;
  }
}

/** A JSON-RPC error answer. */
function errorAnswer(id: RequestId | null, code: number, message: string, data?: unknown): JSONRPCMessage {
  return { jsonrpc: '2.0', id, error: { code, message, ...(data === undefined ? {} : { data }) } } as unknown as JSONRPCMessage;
}

export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** The line being read, in pieces. */
  private line: Buffer[] = [];
  private lineBytes = 0;
  /** Set while skipping an oversized line: its first bytes, to find its id. */
  private skipping: Buffer | null = null;
  /** Requests handed on and not answered yet, by id (a count: a client may reuse an id). */
  private readonly working = new Map<string, number>();
  private workingCount = 0;
  private readonly queued: { key: string; message: JSONRPCMessage }[] = [];
  /** Messages read before the server connected, in order. */
  private readonly held: JSONRPCMessage[] = [];
  private paused = false;
  private listening = false;
  private started = false;
  private readonly onData = (chunk: Buffer): void => this.read(chunk);
  private readonly onError = (error: Error): void => this.onerror?.(error);

  constructor(
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
    private readonly limits = { lineBytes: MAX_LINE_BYTES, concurrent: MAX_CONCURRENT, queued: MAX_QUEUED },
  ) {}

  /** Starts reading stdin; messages wait until `start` (the server connecting). */
  listen(): void {
    if (this.listening) return;
    this.listening = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onError);
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('the stdio transport is already started');
    this.started = true;
    this.listen();
    for (const message of this.held.splice(0)) this.route(message);
    this.pump();
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onError);
    this.stdin.pause();
    this.line = [];
    this.queued.length = 0;
    this.onclose?.();
  }

  /** Writes one message; an answer frees its request's place once the bytes are out. */
  send(message: JSONRPCMessage): Promise<void> {
    const answered = ('result' in message || 'error' in message) && isId((message as Json).id) ? idKey((message as Json).id as RequestId) : null;
    return new Promise((resolve) => {
      this.stdout.write(`${JSON.stringify(message)}\n`, () => {
        if (answered !== null) this.finished(answered);
        resolve();
      });
    });
  }

  /** Splits stdin into lines, skipping an oversized one as it streams. */
  private read(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const end = chunk.indexOf(NEWLINE, start);
      const piece = chunk.subarray(start, end === -1 ? chunk.length : end);
      if (this.skipping !== null) {
        if (this.skipping.length < ID_PREFIX_BYTES) this.skipping = Buffer.concat([this.skipping, piece.subarray(0, ID_PREFIX_BYTES - this.skipping.length)]);
      } else if (this.lineBytes + piece.length > this.limits.lineBytes) {
        this.skipping = Buffer.concat([...this.line, piece]).subarray(0, ID_PREFIX_BYTES);
        this.line = [];
        this.lineBytes = 0;
        this.tooLong(this.skipping);
      } else {
        this.line.push(piece);
        this.lineBytes += piece.length;
      }
      if (end === -1) return;
      start = end + 1;
      if (this.skipping !== null) this.skipping = null;
      else this.lineEnded();
    }
  }

  /** Answers an oversized line at once: the client may be waiting on it. */
  private tooLong(prefix: Buffer): void {
    const error = gatewayErrors.mcpLineTooLarge(this.limits.lineBytes);
    void this.send(errorAnswer(sniffId(prefix.toString('utf8')), ErrorCode.InvalidRequest, error.format(), { error: error.toJSON() }));
  }

  private lineEnded(): void {
    const text = Buffer.concat(this.line).toString('utf8').replace(/\r$/, '');
    this.line = [];
    this.lineBytes = 0;
    if (text.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      void this.send(errorAnswer(null, ErrorCode.ParseError, `Parse error: ${error instanceof Error ? error.message : String(error)}`));
      return;
    }
    const refusal = this.refusal(parsed);
    if (refusal !== null) {
      if (refusal !== 'drop') void this.send(refusal);
      return;
    }
    this.route(parsed as JSONRPCMessage);
  }

  /**
   * The error answer for a message that is no valid JSON-RPC message, or 'drop' when nobody may be
   * answered: a broken notification, or a broken answer to one of the bridge's own requests.
   */
  private refusal(parsed: unknown): JSONRPCMessage | 'drop' | null {
    if (Array.isArray(parsed)) return errorAnswer(null, ErrorCode.InvalidRequest, 'Invalid Request: batches are not supported; send one message per line');
    if (typeof parsed !== 'object' || parsed === null) return errorAnswer(null, ErrorCode.InvalidRequest, 'Invalid Request: a message must be a JSON object');
    const message = parsed as Json;
    const hasId = 'id' in message;
    const id = hasId && isId(message.id) ? message.id : null;
    const valid = (): string | null => {
      const checked = JSONRPCMessageSchema.safeParse(message);
      if (checked.success) return null;
      const issue = checked.error.issues[0];
      return issue === undefined ? 'not a JSON-RPC 2.0 message' : `${issue.path.join('.') || '(message)'}: ${issue.message}`;
    };
    if (!('method' in message)) {
      if ('result' in message || 'error' in message) return valid() === null ? null : 'drop';
      return errorAnswer(id, ErrorCode.InvalidRequest, 'Invalid Request: a message needs a method (or, answering, a result or an error)');
    }
    if (hasId && id === null) return errorAnswer(null, ErrorCode.InvalidRequest, 'Invalid Request: an id must be a string or a number');
    if (typeof message.method !== 'string') return errorAnswer(id, ErrorCode.InvalidRequest, 'Invalid Request: method must be a string');
    if ('params' in message && (typeof message.params !== 'object' || message.params === null || Array.isArray(message.params))) {
      return id === null ? 'drop' : errorAnswer(id, ErrorCode.InvalidParams, `Invalid params: the params of '${message.method}' must be an object`);
    }
    const why = valid();
    if (why === null) return null;
    return id === null ? 'drop' : errorAnswer(id, ErrorCode.InvalidRequest, `Invalid Request: ${why}`);
  }

  /** Hands a message on: notifications and answers at once, requests in turn. */
  private route(message: JSONRPCMessage): void {
    if (!this.started) {
      this.held.push(message);
      this.pump();
      return;
    }
    const fields = message as Json;
    if (!('method' in fields) || !('id' in fields)) {
      this.onmessage?.(message);
      if (fields.method === 'notifications/cancelled') this.cancelled((fields.params as Json | undefined)?.requestId);
      return;
    }
    const key = idKey(fields.id as RequestId);
    if (fields.method === 'ping') {
      this.hand(key, message);
      return;
    }
    this.queued.push({ key, message });
    this.pump();
  }

  /** A cancelled request gets no answer: one still queued is dropped, one at work no longer counts. */
  private cancelled(requestId: unknown): void {
    if (!isId(requestId)) return;
    const key = idKey(requestId);
    const at = this.queued.findIndex((entry) => entry.key === key);
    if (at !== -1) this.queued.splice(at, 1);
    else this.finished(key);
    this.pump();
  }

  private hand(key: string, message: JSONRPCMessage): void {
    this.working.set(key, (this.working.get(key) ?? 0) + 1);
    this.workingCount++;
    this.onmessage?.(message);
  }

  private finished(key: string): void {
    const count = this.working.get(key);
    if (count === undefined) return;
    if (count > 1) this.working.set(key, count - 1);
    else this.working.delete(key);
    this.workingCount--;
    this.pump();
  }

  /** Starts queued requests while there is room; pauses stdin while the queue is full. */
  private pump(): void {
    while (this.workingCount < this.limits.concurrent && this.queued.length > 0) {
      const next = this.queued.shift() as { key: string; message: JSONRPCMessage };
      this.hand(next.key, next.message);
    }
    const full = this.queued.length + this.held.length >= this.limits.queued;
    if (full && !this.paused) this.stdin.pause();
    else if (!full && this.paused) this.stdin.resume();
    this.paused = full;
  }
}
