/** Notices the app must tell the person once (a damaged state.db recovered), on every screen until dismissed. */
import { useState } from 'react';
import { useAnnounce } from '../app/announcer.js';
import { useClient } from '../app/connection-context.js';
import { ErrorNote } from '../app/error-note.js';
import { useResource } from '../app/use-resource.js';

/** Notices said as an alert: rules may be lost (E902), or recovering state.db failed part way (E906). */
const LOUD: ReadonlySet<string> = new Set(['E902', 'E906']);

export function NoticeBanner() {
  const client = useClient();
  const announce = useAnnounce();
  const notices = useResource(
    'notices',
    (c) => c.notices({}),
    (e) => e.type === 'notice' || e.type === 'notice.dismissed',
  );
  const [error, setError] = useState<Error | null>(null);
  if (!notices.data || notices.data.length === 0) return error ? <ErrorNote error={error} /> : null;
  const dismiss = (id: number): void => {
    setError(null);
    client.dismissNotice({ id }).then(
      () => {
        announce('Notice dismissed');
        notices.reload();
      },
      (e: Error) => setError(e),
    );
  };
  return (
    <>
      {notices.data.map((notice) => (
        <div key={notice.id} className="pending-banner" role={LOUD.has(notice.code) ? 'alert' : 'status'}>
          <span className={`badge ${LOUD.has(notice.code) ? 'badge-bad' : 'badge-warn'}`}>{notice.code}</span>
          <p>{notice.message}</p>
          <button type="button" className="button" onClick={() => dismiss(notice.id)} aria-label={`Dismiss notice ${notice.code}`}>
            Dismiss
          </button>
        </div>
      ))}
      {error ? <ErrorNote error={error} /> : null}
    </>
  );
}
