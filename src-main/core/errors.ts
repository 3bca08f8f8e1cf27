/**
 * The one error class of Skilltray and its code registry.
 *
 * Codes E001–E100 and E999 are skillc's (RFC-0005) and keep its exact message templates.
 * Skilltray's own ranges, documented in docs/errors.md:
 *   E4xx/W4xx skill loading and validation · E5xx template and arguments · E6xx policy and
 *   approval · E7xx runner · E8xx agent gateway and transports.
 * Every surface (CLI, HTTP, MCP, IPC) shows the same code, kind and message.
 */

/** Stable snake_case name of each error code, for programs that prefer words to numbers. */
export const ERROR_KINDS = {
  // skillc registry (RFC-0005:C-CODES)
  E001: 'skill_not_found',
  E002: 'index_unusable',
  E003: 'index_collision',
  E004: 'empty_query',
  E010: 'not_a_skill',
  E011: 'missing_frontmatter_field',
  E012: 'path_escapes_root',
  E020: 'section_not_found',
  E021: 'file_not_found',
  E022: 'directory_not_found',
  E030: 'invalid_query_type',
  E031: 'invalid_filter',
  E100: 'invalid_option',
  E999: 'internal',
  // E5xx: templates and arguments
  E501: 'missing_argument',
  E502: 'unknown_argument',
  E503: 'invalid_argument_type',
  E504: 'argument_looks_like_option',
  E505: 'invalid_enum_value',
  E506: 'tool_not_found',
  E507: 'skill_has_errors',
  E508: 'invalid_arguments',
  E509: 'template_error',
  // E6xx: policy and approval
  E601: 'approval_required',
  E602: 'denied_by_rule',
  E603: 'denied_by_user',
  E604: 'approval_timed_out',
  E605: 'tool_not_offered_in_mode',
  E606: 'missing_binary',
  E607: 'missing_environment',
  E608: 'runs_paused',
  E609: 'invalid_rule',
  E610: 'unknown_mode',
  E611: 'approval_not_found',
  E612: 'skill_changed',
  E613: 'approval_cancelled', // the requester withdrew a pending approval
  E614: 'rule_not_found', // no rule with that id
  E615: 'remembered_not_found', // no active remembered approval with that id
  E616: 'invalid_verdict', // a verdict other than once, always or deny
  // E7xx: runner
  E701: 'spawn_failed',
  E702: 'run_not_found',
  E703: 'not_a_prompt_skill',
  E704: 'invalid_process_spec', // runner given limits it cannot honour (timeout, cap, grace) or a relative program
  // E8xx: agent gateway and transports
  E801: 'attach_validation',
  E802: 'unauthorized',
  E803: 'forbidden_origin',
  E804: 'body_too_large',
  E805: 'invalid_request',
  E806: 'route_not_found',
  E807: 'app_not_reachable',
  E808: 'method_not_allowed',
} as const;

export type ErrorCode = keyof typeof ERROR_KINDS;
export type ErrorKind = (typeof ERROR_KINDS)[ErrorCode];

/** The shape an error takes when it crosses a process or wire boundary. */
export interface ErrorShape {
  code: ErrorCode;
  kind: ErrorKind;
  message: string;
  details?: Record<string, unknown>;
}

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

/** Wraps anything thrown into a SkilltrayError; unknown failures become E999 with the original as cause. */
export function toSkilltrayError(error: unknown): SkilltrayError {
  if (error instanceof SkilltrayError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new SkilltrayError('E999', message, { cause: error });
}

/** Rebuilds an error received as data (HTTP, IPC, MCP) so callers can catch it like a local one. */
export function fromErrorShape(shape: ErrorShape): SkilltrayError {
  const code = shape.code in ERROR_KINDS ? shape.code : 'E999';
  return new SkilltrayError(code, shape.message, shape.details === undefined ? {} : { details: shape.details });
}

/** Message builders for the skillc codes, whose wording RFC-0005 fixes. */
export const skillcErrors = {
  skillNotFound: (skill: string) => new SkilltrayError('E001', `skill '${skill}' not found`, { details: { skill } }),
  indexUnusable: (skill: string, reason: 'missing' | 'corrupt' | 'stale') =>
    new SkilltrayError('E002', `search index unusable; run 'skilltray build ${skill}' to rebuild`, {
      details: { skill, reason },
    }),
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
  invalidOption: (message: string) => new SkilltrayError('E100', `invalid option: '${message}'`),
};
