/**
 * Settings › Assistants: the MCP clients Skilltray connects, one row each: where its config lives,
 * whether it names Skilltray, Connect or Disconnect (the change to its file shown first, as a diff,
 * and made only when confirmed), a test that starts the bridge and completes an MCP handshake, and
 * what the client sees of Skilltray right now (assistant-sees.tsx).
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { AssistantChange, AssistantStatus } from '../../src-main/shared/connect.js';
import { useAnnounce } from '../app/announcer.js';
import { useClient } from '../app/connection-context.js';
import { ErrorNote } from '../app/error-note.js';
import { PathText } from '../app/path-text.js';
import { useResource } from '../app/use-resource.js';
import { AssistantSees } from './assistant-sees.js';

const STATE_LABELS: Record<NonNullable<AssistantStatus['state']>, { text: string; badge: string }> = {
  connected: { text: 'connected', badge: 'badge-ok' },
  outdated: { text: 'outdated', badge: 'badge-warn' },
  not_connected: { text: 'not connected', badge: 'badge-neutral' },
};

/** A unified diff, its added and removed lines marked. */
function DiffView({ diff, label }: { diff: string; label: string }) {
  const lines = diff.replace(/\n$/, '').split('\n');
  return (
    <pre className="command-diff assistant-diff" aria-label={label}>
      {lines.map((line, i) => (
        <span
          key={i}
          className={
            line.startsWith('+') && !line.startsWith('+++')
              ? 'diff-add'
              : line.startsWith('-') && !line.startsWith('---')
                ? 'diff-del'
                : line.startsWith('@@')
                  ? 'muted'
                  : undefined
          }
        >
          {line}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}

/** What the last test (or connect, which tests before it writes) found. */
interface Checked {
  works: boolean;
  error: string | null;
}

/** Whether the bridge answered: from the last test or connect, else from the list. */
function WorksBadge({ status, test }: { status: AssistantStatus; test: Checked | undefined }) {
  const works = test?.works ?? status.works;
  if (works === null) return null;
  return works ? <span className="badge badge-ok">works</span> : <span className="badge badge-bad">does not answer</span>;
}

interface RowProps {
  status: AssistantStatus;
  test: Checked | undefined;
  testing: boolean;
  preview: AssistantChange | null;
  busy: boolean;
  onPreview(action: AssistantChange['action']): void;
  onConfirm(change: AssistantChange): void;
  onCancel(): void;
  onTest(): void;
}

/** What the assistant sees of Skilltray, opened on demand (it asks the bridge). */
function SeesToggle({ status }: { status: AssistantStatus }) {
  const seesId = useId();
  const [seeing, setSeeing] = useState(false);
  return (
    <>
      <button
        type="button"
        id={seesId}
        className="button button-quiet button-small assistant-sees-toggle"
        aria-expanded={seeing}
        aria-controls={`${seesId}-view`}
        onClick={() => setSeeing((open) => !open)}
      >
        <span aria-hidden="true">{seeing ? '▾' : '▸'}</span> What {status.name} sees
      </button>
      {seeing ? (
        <div id={`${seesId}-view`}>
          {/* Keyed by its entry: connecting or disconnecting starts it over, handshake included. */}
          <AssistantSees key={`${status.state}|${status.transport ?? ''}|${String(status.personToken)}`} status={status} headingId={seesId} />
        </div>
      ) : null}
    </>
  );
}

/** The change connecting or disconnecting makes to the assistant's file, as a diff, and its confirm. */
function ChangePreview({
  preview,
  name,
  busy,
  onConfirm,
  onCancel: cancel,
}: {
  preview: AssistantChange;
  name: string;
  busy: boolean;
  onConfirm(change: AssistantChange): void;
  onCancel(): void;
}) {
  const change = useRef<HTMLDivElement>(null);
  const shown = `${preview.action}\n${preview.diff}`;
  // The change opens below the row, off screen on a phone: it takes focus and comes into view whole.
  useEffect(() => {
    const group = change.current;
    if (!group) return;
    group.focus({ preventScroll: true });
    group.scrollIntoView({ block: 'nearest' });
  }, [shown]);
  return (
    <div
      ref={change}
      tabIndex={-1}
      className="assistant-preview"
      role="group"
      aria-label={`${preview.action === 'connect' ? 'Connect' : 'Disconnect'} ${name}: the change`}
    >
      {preview.changed ? (
        <>
          <p>
            {preview.action === 'connect' ? 'Connecting' : 'Disconnecting'} changes <PathText path={preview.path} /> like this (a copy of the file as it is now
            is kept beside it):
          </p>
          <DiffView diff={preview.diff} label={`Change to ${preview.path}`} />
        </>
      ) : (
        <p>
          Nothing to change in <PathText path={preview.path} />.
        </p>
      )}
      <div className="button-row">
        {preview.changed ? (
          <button
            type="button"
            className={`button ${preview.action === 'connect' ? 'button-primary' : 'button-danger'}`}
            disabled={busy}
            onClick={() => onConfirm(preview)}
          >
            {busy ? 'Working…' : preview.action === 'connect' ? `Connect ${name}` : `Disconnect ${name}`}
          </button>
        ) : null}
        <button type="button" className="button button-quiet" onClick={cancel}>
          {preview.changed ? 'Cancel' : 'Close'}
        </button>
      </div>
    </div>
  );
}

function AssistantRow({ status, test, testing, preview, busy, onPreview, onConfirm, onCancel, onTest }: RowProps) {
  const state = status.state === null ? null : STATE_LABELS[status.state];
  const connected = status.state === 'connected';
  const opener = useRef<HTMLButtonElement | null>(null);
  const cancel = (): void => {
    onCancel();
    opener.current?.focus();
  };
  return (
    <li className="assistant-row" aria-label={status.name}>
      <div className="assistant-head">
        <strong>{status.name}</strong>
        {status.error ? <span className="badge badge-bad">unreadable</span> : state ? <span className={`badge ${state.badge}`}>{state.text}</span> : null}
        {status.transport === 'http' ? <span className="badge badge-info">URL</span> : null}
        <WorksBadge status={status} test={test} />
        <span className="assistant-actions">
          {status.state !== null && !connected ? (
            <button
              type="button"
              className="button button-primary"
              disabled={busy}
              onClick={(event) => {
                opener.current = event.currentTarget;
                onPreview('connect');
              }}
              aria-label={`Connect ${status.name}`}
            >
              Connect
            </button>
          ) : null}
          {status.state !== null && status.state !== 'not_connected' ? (
            <button
              type="button"
              className="button"
              disabled={busy}
              onClick={(event) => {
                opener.current = event.currentTarget;
                onPreview('disconnect');
              }}
              aria-label={`Disconnect ${status.name}`}
            >
              Disconnect
            </button>
          ) : null}
          {status.state !== null ? (
            <button type="button" className="button button-quiet" disabled={busy || testing} onClick={onTest} aria-label={`Test ${status.name}`}>
              {testing ? 'Testing…' : 'Test'}
            </button>
          ) : null}
        </span>
      </div>
      {status.configPath ? (
        <p className="muted assistant-file">
          <PathText path={status.configPath} />
        </p>
      ) : null}
      {status.error ? <p className="note note-error">{`error[${status.error.code}] ${status.error.message}`}</p> : null}
      {status.personToken ? (
        <p className="note note-error">
          Its entry holds your own token, so {status.name} can act as you: answer approvals, change rules. Connect it again to give it a token of its own, then
          rotate yours (<code>skilltray token --rotate</code>).
        </p>
      ) : null}
      {test && !test.works ? <p className="note note-error">The bridge did not answer: {test.error}</p> : null}
      {status.state !== null ? <SeesToggle status={status} /> : null}
      {preview ? <ChangePreview preview={preview} name={status.name} busy={busy} onConfirm={onConfirm} onCancel={cancel} /> : null}
    </li>
  );
}

export function AssistantsSettings() {
  const client = useClient();
  const announce = useAnnounce();
  const list = useResource('assistants', (c) => c.assistants({}));
  const [preview, setPreview] = useState<AssistantChange | null>(null);
  const [tests, setTests] = useState<Record<string, Checked>>({});
  const [testing, setTesting] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<Error | null>(null);

  const showPreview = (status: AssistantStatus, action: AssistantChange['action']): void => {
    setError(null);
    setBusy(status.id);
    const dryRun =
      action === 'connect' ? client.connectAssistant({ client: status.id, dry_run: true }) : client.disconnectAssistant({ client: status.id, dry_run: true });
    dryRun.then(setPreview, (e: Error) => setError(e)).finally(() => setBusy(null));
  };
  const confirm = (change: AssistantChange): void => {
    setError(null);
    setBusy(change.client);
    const done = change.action === 'connect' ? client.connectAssistant({ client: change.client }) : client.disconnectAssistant({ client: change.client });
    done
      .then(
        (made) => {
          setPreview(null);
          if (made.action === 'connect' && made.works !== null) {
            setTests((all) => ({ ...all, [made.client]: { works: made.works === true, error: null } }));
          } else {
            setTests(({ [made.client]: _dropped, ...rest }) => rest);
          }
          announce(made.action === 'connect' ? `Connected ${made.name}; its bridge answered` : `Disconnected ${made.name}`);
          list.reload();
        },
        (e: Error) => setError(e),
      )
      .finally(() => setBusy(null));
  };
  const test = (status: AssistantStatus): void => {
    setError(null);
    setTesting(status.id);
    client
      .testAssistant({ client: status.id })
      .then(
        (result) => {
          setTests((all) => ({ ...all, [status.id]: { works: result.works, error: result.error } }));
          announce(result.works ? `${status.name}: the bridge answered` : `${status.name}: the bridge did not answer`);
        },
        (e: Error) => setError(e),
      )
      .finally(() => setTesting(null));
  };

  if (list.error) return <ErrorNote error={list.error} title="The assistants could not be listed" />;
  if (!list.data) return <p className="muted">Loading…</p>;
  const found = list.data.filter((s) => s.foundBy !== null);
  const missing = list.data.filter((s) => s.foundBy === null);
  return (
    <>
      <p className="muted">
        Connect adds Skilltray to an assistant&apos;s own config file, keeping its other servers, comments and formatting; the change is shown first. Restart
        the assistant afterwards.
      </p>
      {found.length > 0 ? (
        <ul className="item-list assistant-list">
          {found.map((status) => (
            <AssistantRow
              key={status.id}
              status={status}
              test={tests[status.id]}
              testing={testing === status.id}
              preview={preview?.client === status.id ? preview : null}
              busy={busy === status.id}
              onPreview={(action) => showPreview(status, action)}
              onConfirm={confirm}
              onCancel={() => setPreview(null)}
              onTest={() => test(status)}
            />
          ))}
        </ul>
      ) : (
        <p className="empty">No assistant Skilltray connects was found on this computer.</p>
      )}
      {missing.length > 0 ? <p className="hint">Not found here: {missing.map((s) => s.name).join(', ')}.</p> : null}
      {error ? <ErrorNote error={error} /> : null}
    </>
  );
}
