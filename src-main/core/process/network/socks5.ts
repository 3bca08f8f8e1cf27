/**
 * The proxy's SOCKS5 side (RFC 1928), as much as a tool needs: no authentication, CONNECT only,
 * to an IPv4 address, an IPv6 one or a name (which the proxy resolves: `socks5h://`). BIND and UDP
 * ASSOCIATE are answered "command not supported".
 */
import type { Socket } from 'node:net';

/** Reply codes the proxy sends (RFC 1928 §6). */
export const SOCKS_REPLY = {
  succeeded: 0x00,
  failure: 0x01,
  notAllowed: 0x02,
  hostUnreachable: 0x04,
  refused: 0x05,
  commandNotSupported: 0x07,
  addressNotSupported: 0x08,
} as const;

/** A CONNECT request: where to, and what the client sent after it. */
export interface SocksRequest {
  host: string;
  port: number;
  rest: Buffer;
}

/** The reply to a request; the bound address is never meaningful here, so it is 0.0.0.0:0. */
export function socksReply(code: number): Buffer {
  return Buffer.from([0x05, code, 0x00, 0x01, 0, 0, 0, 0, 0, 0]);
}

/** Where a request's address ends (its port follows), by address type; -1 for an unknown type. */
function addressEnd(buffer: Buffer): number {
  const type = buffer[3];
  if (type === 0x01) return 8;
  if (type === 0x03) return 5 + (buffer[4] as number);
  if (type === 0x04) return 20;
  return -1;
}

/** The request in `buffer`, or null while more bytes are needed; a number is the reply code to refuse it with. */
function parseRequest(buffer: Buffer): SocksRequest | number | null {
  if (buffer.length < 5) return null;
  if (buffer[0] !== 0x05) return SOCKS_REPLY.failure;
  const at = addressEnd(buffer);
  if (at < 0) return SOCKS_REPLY.addressNotSupported;
  if (buffer.length < at + 2) return null;
  if (buffer[1] !== 0x01) return SOCKS_REPLY.commandNotSupported;
  let host: string;
  if (buffer[3] === 0x01) {
    host = [...buffer.subarray(4, 8)].join('.');
  } else if (buffer[3] === 0x03) {
    host = buffer.subarray(5, at).toString('latin1');
  } else {
    const words: string[] = [];
    for (let i = 4; i < 20; i += 2) words.push(buffer.readUInt16BE(i).toString(16));
    host = `[${words.join(':')}]`;
  }
  return { host, port: buffer.readUInt16BE(at), rest: buffer.subarray(at + 2) };
}

/**
 * Answers the greeting on `socket` (whose first bytes are `first`) and reads one CONNECT request.
 * Resolves null when the client went away or was refused (the refusal already sent); the socket is
 * paused when it resolves, so no byte is lost before the tunnel is piped.
 */
export function readSocksRequest(socket: Socket, first: Buffer): Promise<SocksRequest | null> {
  return new Promise((resolve) => {
    let buffer = first;
    let greeted = false;
    const done = (request: SocksRequest | null): void => {
      socket.pause();
      socket.off('data', onData);
      socket.off('close', onClose);
      resolve(request);
    };
    const refuse = (code: number): void => {
      socket.end(socksReply(code));
      done(null);
    };
    const step = (): void => {
      if (!greeted) {
        if (buffer.length < 2) return;
        const methods = buffer[1] as number;
        if (buffer.length < 2 + methods) return;
        if (buffer[0] !== 0x05 || !buffer.subarray(2, 2 + methods).includes(0x00)) {
          // No acceptable method (RFC 1928 §3): this proxy asks for no authentication.
          socket.end(Buffer.from([0x05, 0xff]));
          done(null);
          return;
        }
        socket.write(Buffer.from([0x05, 0x00]));
        buffer = buffer.subarray(2 + methods);
        greeted = true;
      }
      const request = parseRequest(buffer);
      if (typeof request === 'number') refuse(request);
      else if (request !== null) done(request);
    };
    const onData = (chunk: Buffer): void => {
      buffer = Buffer.concat([buffer, chunk]);
      step();
    };
    const onClose = (): void => done(null);
    socket.on('data', onData);
    socket.on('close', onClose);
    // The listener paused it to look at the first byte.
    socket.resume();
    step();
  });
}
