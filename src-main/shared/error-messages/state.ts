/** The state database and Skilltray's home (E9xx, docs/errors.md): a recovered state.db (said as a notice too), a read-only home, a full disk. */
import type { Notice } from '../runs.js';
import { SkilltrayError } from '../skilltray-error.js';

type NoticeText = Pick<Notice, 'code' | 'message' | 'details'>;

export const stateErrors = {
  /** A call that met damage another call (or process) has already repaired. */
  recoveredMeanwhile: (reason: string, cause: unknown) =>
    new SkilltrayError('E901', `state.db reported damage (${reason}) but is whole now (it was just replaced by a recovered one). Try again.`, { cause }),
  /** A call that met the damage this process just recovered from: `told` is the notice's sentence. */
  recovered: (told: string, details: Record<string, unknown>, cause: unknown) => new SkilltrayError('E901', `${told} Try again.`, { details, cause }),
  /** A recovery that failed part way (E906): `told` says what may be lost and where the damaged file is. */
  recoveryFailed: (told: string, details: Record<string, unknown>, cause: unknown) => new SkilltrayError('E906', told, { details, cause }),
  noticeNotFound: (id: number) => new SkilltrayError('E903', `no notice #${id} is shown: it is unknown or already dismissed`, { details: { id } }),
  homeReadOnly: (path: string, errno: string, cause: unknown) =>
    new SkilltrayError('E904', `Skilltray's home is read-only: cannot write ${path} (${errno}); reading works, saving does not`, {
      details: { path, errno },
      cause,
    }),
  diskFull: (path: string, errno: string, cause: unknown) =>
    new SkilltrayError('E905', `no space left on device at ${path}: free some space and try again`, { details: { path, errno }, cause }),
};

/** The notices of a recovery, shown once where the person looks (CLI, UI, the owner's log). */
export const stateNotices = {
  /** `what` says what was damaged, where it went and what was saved; `lost` what could not be read. */
  recovered: (what: string, lost: readonly string[], details: Record<string, unknown>): NoticeText => ({
    code: 'E901',
    message: `${[what, ...lost].join('; ')}.`,
    details,
  }),
  rulesLost: (what: string, details: Record<string, unknown>): NoticeText => ({
    code: 'E902',
    message: `${what}. SOME RULES COULD NOT BE READ BACK: a deny rule you had may be gone, so a tool it refused could now run. Runs are paused until you check your rules (skilltray rules, or Settings) and resume.`,
    details,
  }),
  /** Recovering failed part way: nothing of what the new file holds can be trusted to be all there was. */
  recoveryFailed: (reason: string, aside: string, failure: string): NoticeText => ({
    code: 'E906',
    message: `state.db was damaged (${reason}) and was moved to ${aside}, where it is kept; recovering what it held failed (${failure}), so rules, remembered approvals, settings, skills you turned off and history may all be lost. Runs are paused until you check your rules and skills (skilltray rules, or Settings) and resume.`,
    details: { aside, reason, failure },
  }),
};
