/** Notices for the person (a recovered state.db), kept until they dismiss them. */
import type { ErrorCode } from '../../shared/errors.js';
import type { Notice } from '../../shared/runs.js';
import { stateErrors } from '../../shared/error-messages/state.js';
import type { StateDb } from './state-db.js';
import { prepared } from './state-db.js';

interface NoticeRow {
  id: number;
  code: ErrorCode;
  message: string;
  details: string | null;
  created_at: number;
}

/** Notices not dismissed yet, oldest first. */
export function listNotices(db: StateDb): Notice[] {
  return prepared<[], NoticeRow>(db, 'SELECT id, code, message, details, created_at FROM notices WHERE dismissed_at IS NULL ORDER BY id')
    .all()
    .map((row) => ({
      id: row.id,
      code: row.code,
      message: row.message,
      details: row.details === null ? null : (JSON.parse(row.details) as Record<string, unknown>),
      createdAt: row.created_at,
    }));
}

/** Dismisses a notice; E903 when there is no such notice still shown. */
export function dismissNotice(db: StateDb, id: number, now: number = Date.now()): void {
  const info = prepared(db, 'UPDATE notices SET dismissed_at = ? WHERE id = ? AND dismissed_at IS NULL').run(now, id);
  if (info.changes === 0) throw stateErrors.noticeNotFound(id);
}
