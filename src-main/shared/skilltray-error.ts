/**
 * The one error class of Skilltray. Its codes are registered in errors.ts and its messages built by
 * one module per range in error-messages/ (docs/errors.md): skillc's E001–E101 and E999 (RFC-0005's
 * exact templates) · E3xx packs · E5xx templates and arguments · E6xx policy and approval · E7xx
 * runner · E8xx gateway and transports (E85x connecting assistants) · E9xx state database.
 * Every surface (CLI, HTTP, MCP, IPC) shows the same code, kind and message.
 */
import { ERROR_KINDS, type ErrorCode, type ErrorKind, type ErrorShape } from './errors.js';

export class SkilltrayError extends Error {
  override readonly name = 'SkilltrayError';
  readonly code: ErrorCode;
  readonly kind: ErrorKind;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options: { details?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.kind = ERROR_KINDS[code];
    this.details = options.details;
  }

  /** `error[E020]: section not found: 'x'` — RFC-0005's message format. */
  format(): string {
    return `error[${this.code}]: ${this.message}`;
  }

  toJSON(): ErrorShape {
    return {
      code: this.code,
      kind: this.kind,
      message: this.message,
      ...(this.details === undefined ? {} : { details: this.details }),
    };
  }
}

/**
 * Wraps anything thrown into a SkilltrayError: an error that already carries a registry code (one
 * received from another process, such as a SkilltrayClientError) keeps it; anything else is E999 with
 * the original as cause.
 */
export function toSkilltrayError(error: unknown): SkilltrayError {
  if (error instanceof SkilltrayError) return error;
  const coded = error as Error & { code?: unknown; details?: Record<string, unknown> };
  if (error instanceof Error && typeof coded.code === 'string' && Object.hasOwn(ERROR_KINDS, coded.code)) {
    return new SkilltrayError(coded.code as ErrorCode, error.message, { cause: error, ...(coded.details === undefined ? {} : { details: coded.details }) });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new SkilltrayError('E999', message, { cause: error });
}
