/** How a failed operation becomes a JSON-RPC error, for the requests (resource reads, skills/…) that have no error result. */
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { ErrorShape } from '../shared/errors.js';
import { errorText } from './mcp-tools.js';

/**
 * A JSON-RPC error whose message is Skilltray's error line as it is (McpError would prefix its
 * own code to it), with the structured error as data.
 */
export class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown,
  ) {
    super(message);
  }
}

/** `shape` as a JSON-RPC error: `notFound` for the codes that say there is no such thing, internal for E999 and E807, invalid params for the rest. */
export function protocolError(shape: ErrorShape, notFound: { codes: ReadonlySet<string>; as: number } | null = null): ProtocolError {
  const code =
    notFound !== null && notFound.codes.has(shape.code)
      ? notFound.as
      : shape.code === 'E999' || shape.code === 'E807'
        ? ErrorCode.InternalError
        : ErrorCode.InvalidParams;
  return new ProtocolError(code, errorText(shape), { error: shape });
}
