/**
 * The one error class of Skilltray and its code registry.
 *
 * Codes E001–E100 and E999 are skillc's (RFC-0005) and keep its exact message templates.
 * Skilltray's own ranges, documented in docs/errors.md:
 *   E4xx/W4xx skill loading and validation · E5xx template and arguments · E6xx policy and
 *   approval · E7xx runner · E8xx agent gateway and transports.
 * Every surface (CLI, HTTP, MCP, IPC) shows the same code, kind and message.
 */
import type { NameSuggestion } from './did-you-mean.js';
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

/** Message builders for the skillc codes, whose wording RFC-0005 fixes. */
export const skillcErrors = {
  /** RFC-0005's message; `did_you_mean` holds the skills the name may have meant (skills/skill-suggestions.ts). */
  skillNotFound: (skill: string, didYouMean: readonly NameSuggestion[] = []) =>
    new SkilltrayError('E001', `skill '${skill}' not found`, { details: { skill, did_you_mean: didYouMean } }),
  /** A never-built index is "not built yet"; a corrupt or stale one is RFC-0005's "unusable". */
  indexUnusable: (skill: string, reason: 'missing' | 'corrupt' | 'stale') =>
    new SkilltrayError(
      'E002',
      reason === 'missing' ? `search index not built yet; run 'skilltray build ${skill}' to build it` : `search index unusable; run 'skilltray build ${skill}' to rebuild`,
      { details: { skill, reason } },
    ),
  indexCollision: (hash16: string) =>
    new SkilltrayError('E003', `index hash collision; delete .skillc-meta/search-${hash16}.db and rebuild`, {
      details: { hash16 },
    }),
  emptyQuery: () => new SkilltrayError('E004', 'empty query'),
  notASkill: (path: string) => new SkilltrayError('E010', `not a valid skill: '${path}' (missing SKILL.md)`, { details: { path } }),
  missingFrontmatterField: (field: string) =>
    new SkilltrayError('E011', `missing frontmatter field '${field}' in SKILL.md`, { details: { field } }),
  pathEscapesRoot: (path: string) => new SkilltrayError('E012', `path escapes skill root: '${path}'`, { details: { path } }),
  sectionNotFound: (section: string, suggestions: { text: string; file: string }[] = []) =>
    new SkilltrayError('E020', `section not found: '${section}'`, { details: { section, suggestions } }),
  fileNotFound: (path: string) => new SkilltrayError('E021', `file not found: '${path}'`, { details: { path } }),
  directoryNotFound: (path: string) => new SkilltrayError('E022', `directory not found: '${path}'`, { details: { path } }),
  invalidQueryType: (type: string) => new SkilltrayError('E030', `invalid query type: '${type}'`, { details: { type } }),
  invalidFilter: (message: string) => new SkilltrayError('E031', `invalid filter: '${message}'`),
  /** RFC-0005's template, for a flag the command does not have. */
  unknownOption: (flag: string) => new SkilltrayError('E100', `invalid option: '${flag}'`, { details: { option: flag } }),
  /** An option with a bad or missing value, said as a sentence that names the option (`--limit expects an integer, got 'x'`). */
  invalidOption: (message: string) => new SkilltrayError('E100', message),
  /** A command line that does not fit the command (RFC-0005 keeps E100–E199 for the CLI's parsing). */
  usage: (message: string, details?: Record<string, unknown>) => new SkilltrayError('E101', message, details === undefined ? {} : { details }),
};
