/**
 * A request's JSON body, read within MAX_BODY_BYTES: an oversized one is refused (E804) and its
 * connection dropped without reading the rest, a malformed one is E805.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SkilltrayError } from '../shared/skilltray-error.js';
import { sendError } from './http-reply.js';
import { gatewayErrors } from '../shared/error-messages/gateway.js';

/** Largest request body accepted. */
export const MAX_BODY_BYTES = 1024 * 1024;

function tooLarge(limit: number): SkilltrayError {
  return gatewayErrors.bodyTooLarge(limit);
}

/**
 * The body, when all of it came with the request (the usual small JSON call), read at once: no turn
 * of the event loop, so the operation runs in the same slice of the request queue. Null otherwise.
 */
function bodyAtHand(req: IncomingMessage, limit: number): Buffer | null {
  if (!req.complete) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for (let chunk = req.read() as Buffer | null; chunk !== null; chunk = req.read() as Buffer | null) {
    size += chunk.length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Reads a body of at most `limit` bytes; past it, stops reading and rejects with E804. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      reject(tooLarge(limit));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (error?: Error): void => {
      if (done) return;
      done = true;
      req.off('data', onData);
      if (error) {
        req.pause();
        reject(error);
      } else resolve(Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) finish(tooLarge(limit));
      else chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => finish());
    req.once('error', (error) => finish(error));
    // Made only when it happens: an Error captures a stack, and every request closes.
    req.once('close', () => done || finish(new Error('the client went away before sending its whole request')));
  });
}

function isJsonContentType(header: string | undefined): boolean {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() === 'application/json';
}

/** The body a spoken answer may have: a 2 MiB WAV in base64, and its JSON around it (the core says E633 past 2 MiB). */
export const VOICE_BODY_BYTES = 3 * 1024 * 1024;

/** A JSON request body within `limit` (MAX_BODY_BYTES), parsed and as sent; a failure is answered here (E804, E805) and null returned. */
export async function jsonBody(req: IncomingMessage, res: ServerResponse, limit = MAX_BODY_BYTES): Promise<{ value: unknown; body: Buffer } | null> {
  if (!isJsonContentType(req.headers['content-type'])) {
    sendError(res, gatewayErrors.bodyNotJsonType(req.headers['content-type'] ?? null));
    return null;
  }
  try {
    const body = bodyAtHand(req, limit) ?? (await readBody(req, limit));
    return { value: JSON.parse(body.toString('utf8')), body };
  } catch (error) {
    if (error instanceof SkilltrayError) {
      // Stop here: answer, then drop the connection instead of reading the rest.
      res.shouldKeepAlive = false;
      res.once('finish', () => req.socket.destroySoon());
      sendError(res, error, { Connection: 'close' });
      return null;
    }
    if (error instanceof SyntaxError) {
      sendError(res, gatewayErrors.bodyNotJson(error.message));
      return null;
    }
    throw error;
  }
}
