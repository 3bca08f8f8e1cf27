/** Notices (a damaged state.db recovered) as the command line prints them: once, on stderr, coded. */
import type { SkilltrayCore } from '../core/api.js';
import { displayText } from '../shared/display-text.js';
import type { Notice } from '../shared/runs.js';
import type { CliIo } from './command.js';

/** `notice[E901]: …`, or `warning[E902]: …` when rules may be lost. */
export function formatNotice(notice: Pick<Notice, 'code' | 'message'>): string {
  return `${notice.code === 'E902' ? 'warning' : 'notice'}[${notice.code}]: ${displayText(notice.message)}`;
}

/** Prints every notice `core` raises in this process on `io`'s stderr; returns the core. */
export function printNotices(core: SkilltrayCore, io: Pick<CliIo, 'err'>): SkilltrayCore {
  core.on('event', (event) => {
    if (event.type === 'notice') io.err(`${formatNotice(event.notice)}\n`);
  });
  return core;
}
