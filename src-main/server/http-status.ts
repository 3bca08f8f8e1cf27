/** The HTTP status of an error envelope: the body always says exactly what failed; the status says which kind. */
import type { ErrorCode } from '../shared/errors.js';

const STATUS: Partial<Record<ErrorCode, number>> = {
  E805: 400,
  E802: 401,
  E803: 403,
  E814: 403,
  E806: 404,
  E808: 405,
  E804: 413,
  E811: 429,
  E999: 500,
  // state.db was damaged and has just been replaced by a recovered one: the same call can be made again.
  E901: 503,
  // Recovering it failed part way: runs are paused until the person looks.
  E906: 500,
  // The run's cgroup could not be made, or its sandbox is gone: the machine, not the request, is at fault.
  E706: 500,
  E515: 500,
  // Shed before any work: the same call can be made again after Retry-After.
  E812: 503,
  // A recording that is not an answer's format, empty or too long; too large; an assistant answering for the person.
  E630: 400,
  E631: 400,
  E632: 400,
  E633: 413,
};

/** Codes that name something that does not exist. */
const NOT_FOUND: readonly ErrorCode[] = [
  'E001',
  'E010',
  'E020',
  'E021',
  'E022',
  'E702',
  'E611',
  'E614',
  'E615',
  'E903',
  'E306',
  'E851',
  'E852',
  'E857',
  'E862',
  'E869',
];

/** Refusals the caller must relay to whoever asked (a person denied it, policy refused it, …). */
const CONFLICT: readonly ErrorCode[] = [
  'E601',
  'E602',
  'E603',
  'E604',
  'E605',
  'E606',
  'E607',
  'E608',
  'E612',
  'E618',
  'E801',
  'E303',
  'E304',
  'E305',
  'E308',
  'E310',
  'E856',
  'E861',
  'E867',
];

/** 400 input, 401/403 access, 404 not found, 405 method, 409 refusal to relay, 413 too large, 429 too many streams, 500 internal, 503 try again, else 422. */
export function statusForCode(code: ErrorCode): number {
  const fixed = STATUS[code];
  if (fixed !== undefined) return fixed;
  if (/^E1\d\d$/.test(code)) return 400;
  if (NOT_FOUND.includes(code)) return 404;
  if (CONFLICT.includes(code)) return 409;
  return 422;
}
