/** The tools the person chose to always allow, each with the folder it holds in, its sandbox profile, how long it lasts, and a Revoke button. */
import { useState } from 'react';
import { networkWords } from '../../src-main/shared/network-reach.js';
import type { Remembered } from '../../src-main/shared/runs.js';
import { useAnnounce } from '../app/announcer.js';
import { useClient } from '../app/connection-context.js';
import { ErrorNote } from '../app/error-note.js';
import { formatTime } from '../app/format.js';
import { PathText } from '../app/path-text.js';
import { useResource } from '../app/use-resource.js';

function profileText(r: Remembered): string {
  const files = r.profile.name === 'read-only' ? 'read-only' : r.profile.name === 'workspace' ? 'writes in its folder' : 'unsandboxed';
  return r.profile.name === 'none' ? files : `${files}, ${networkWords(r.profile)}`;
}

/** Remembered approvals in force; `compact` drops the program path and dates (the tray popup). */
export function RememberedList({ compact = false }: { compact?: boolean }) {
  const client = useClient();
  const announce = useAnnounce();
  const remembered = useResource(
    'remembered',
    (c) => c.remembered({}),
    (e) => e.type === 'policy.changed' || e.type === 'skills.changed',
  );
  const [error, setError] = useState<Error | null>(null);
  const revoke = (r: Remembered): void => {
    setError(null);
    client.revokeRemembered({ id: r.id }).then(
      () => {
        announce(`Revoked always allow for ${r.skill} ${r.tool}`);
        remembered.reload();
      },
      (e: Error) => setError(e),
    );
  };
  return (
    <>
      {remembered.error ? <ErrorNote error={remembered.error} title="Remembered approvals could not be loaded" /> : null}
      {remembered.data && remembered.data.length > 0 ? (
        <ul className={`item-list remembered-list${compact ? ' remembered-compact' : ''}`} aria-label="Remembered approvals">
          {remembered.data.map((r) => (
            <li key={r.id}>
              <span className="remembered-what">
                <strong>
                  {r.skill} / {r.tool}
                </strong>{' '}
                <span className="badge badge-neutral">{profileText(r)}</span>{' '}
                <span className="badge badge-info">{r.expires === 'session' ? 'this session' : 'until revoked'}</span>{' '}
                <span className="remembered-folder">
                  {r.folder === null ? (
                    'in any folder'
                  ) : (
                    <>
                      in <PathText path={r.folder} />
                    </>
                  )}
                </span>
                {compact ? null : (
                  <span className="muted">
                    {' '}
                    <PathText path={r.programPath} /> since {formatTime(r.createdAt)}, skill version {r.skillHash.slice(0, 12)}
                  </span>
                )}
              </span>
              <button type="button" className="button button-quiet" onClick={() => revoke(r)} aria-label={`Revoke always allow for ${r.skill} ${r.tool}`}>
                Revoke
              </button>
            </li>
          ))}
        </ul>
      ) : remembered.data ? (
        <p className="empty">No remembered approvals.</p>
      ) : null}
      {error ? <ErrorNote error={error} /> : null}
    </>
  );
}
