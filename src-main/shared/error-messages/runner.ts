/** The errors of the runner (E7xx, docs/errors.md): a process that could not start, a run that is not there, limits it cannot honour. */
import { SkilltrayError } from '../skilltray-error.js';

export const runnerErrors = {
  /** `reason` says why the OS refused (`no such file`, `permission denied (is it executable?)`, …). */
  spawnFailed: (program: string, cwd: string, reason: string, errno: string | undefined, cause: unknown) =>
    new SkilltrayError('E701', `cannot start '${program}': ${reason}`, { details: { program, cwd, reason, ...(errno === undefined ? {} : { errno }) }, cause }),
  /** Found before the run: the tool's program is not on PATH or not executable (`program` as the Command writes it). */
  programNotFound: (skill: string, tool: string, program: string | undefined) =>
    new SkilltrayError(
      'E701',
      `'${skill}/${tool}' cannot run: ${program === undefined ? 'the program it runs' : `'${program}'`} was not found or is not executable`,
      {
        details: { skill, tool, ...(program === undefined ? {} : { program }) },
      },
    ),
  /** Found before the run: the program resolves (through PATH or a symlink) to a file no run may read; `where` ends a sentence ("lies in ~/.ssh"). */
  programInSecretPlace: (skill: string, tool: string, program: string, where: string) =>
    new SkilltrayError(
      'E707',
      `'${skill}/${tool}' cannot run: its program ${program} ${where}, which no run may read or run; install the program in a system folder`,
      {
        details: { skill, tool, program },
      },
    ),
  runNotFound: (id: string) => new SkilltrayError('E702', `no run '${id}'`, { details: { id } }),
  /** cancel: the run has ended, or never was. */
  runNotActive: (id: string) => new SkilltrayError('E702', `no run '${id}' is running or waiting for approval`, { details: { id } }),
  /** A step recorded for a run that history does not hold. */
  runNotRecorded: (id: string) => new SkilltrayError('E702', `run '${id}' not found`, { details: { id } }),
  /** An idempotent replay of a run whose record holds no answer. */
  noFinishedRecord: (id: string) => new SkilltrayError('E702', `run '${id}' has no finished record to answer with`, { details: { id } }),
  invalidProcessSpec: (message: string, details: Record<string, unknown>) => new SkilltrayError('E704', message, { details }),
  /** `why` names the signal or the crash. */
  runInterrupted: (why: string) => new SkilltrayError('E705', `the process that owned the run stopped before it finished (${why})`, { details: { why } }),
  limitsUnavailable: (why: string, options: { details?: Record<string, unknown>; cause?: unknown }) =>
    new SkilltrayError('E706', `the run's resource limits could not be set up, so it did not start: ${why}`, options),
};
