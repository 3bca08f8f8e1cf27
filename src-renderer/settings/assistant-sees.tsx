/**
 * What one assistant sees of Skilltray right now, like Claude Code's `/mcp`: its entry and whether it
 * works (a real handshake, when opened or asked again), the credential it holds and the name it acts
 * under, the skills and tools offered to it as its own `list` answers, and its latest runs — kept
 * current by the app's events (runs, skill changes, mode changes), without a reload.
 */
import type { AssistantCredential, AssistantStatus, AssistantView } from '../../src-main/shared/connect.js';
import type { ServerEvent } from '../../src-main/shared/contract.js';
import { ErrorNote } from '../app/error-note.js';
import { formatShort, formatTime } from '../app/format.js';
import { routeHref, skillHref } from '../app/route.js';
import { useResource } from '../app/use-resource.js';
import { useSettings } from '../app/use-settings.js';
import { STATUS_TONES } from '../runs/run-status.js';

/** What changes what an assistant is offered or has run. */
const changesWhatItSees = (e: ServerEvent): boolean => (e.type === 'run' && e.event.type !== 'output') || e.type === 'skills.changed' || e.type === 'settings';

function CredentialText({ credential, name, id }: { credential: AssistantCredential | null; name: string; id: string }) {
  if (credential === null) return <>No entry: {name} sees nothing of Skilltray.</>;
  switch (credential.kind) {
    case 'bridge':
      return (
        <>
          No token of its own: it starts the stdio bridge (<code>skilltray mcp</code>), which asks as the assistant <code>mcp</code>, a name every stdio client
          shares.
        </>
      );
    case 'assistant_token':
      return credential.name === id ? (
        <>
          Its own assistant token, issued to <code>{credential.name}</code>: it can ask for runs, never answer them.
        </>
      ) : (
        <>
          An assistant token issued to <code>{credential.name}</code>, not to {name}: connect it again to give it its own.
        </>
      );
    case 'person_token':
      return (
        <strong className="assistant-sees-warn">
          Your own token. At <code>/mcp</code> it still asks only as the assistant <code>mcp</code>, but anywhere else it can act as you: connect it again.
        </strong>
      );
    case 'unknown_token':
      return <>A token this Skilltray never issued, or has withdrawn: every call is refused (E802). Connect it again.</>;
    case 'no_token':
      return <>No token: every call is refused (E802). Connect it again.</>;
  }
}

/** The entry's transport and, from the handshake, whether it answers and with which tools. */
function EntryText({ status, tested, testing }: { status: AssistantStatus; tested: AssistantView | undefined; testing: boolean }) {
  const how =
    status.transport === 'http' ? `${status.name} calls Skilltray’s /mcp URL` : status.transport === 'stdio' ? `${status.name} starts the stdio bridge` : null;
  const works = tested?.status.works ?? null;
  return (
    <>
      {how ?? 'No Skilltray entry.'}{' '}
      {testing && tested === undefined ? (
        <span className="muted">Checking with a handshake…</span>
      ) : works === true ? (
        <span className="badge badge-ok">works</span>
      ) : works === false ? (
        <span className="badge badge-bad">does not answer</span>
      ) : status.state === 'outdated' ? (
        <span className="muted">Not checked: the entry is not what Skilltray writes, so it is not run to find out.</span>
      ) : null}
      {works === false && tested?.status.worksError ? <span className="muted"> {tested.status.worksError}</span> : null}
      {tested?.mcpTools ? (
        <span className="assistant-sees-tools">
          MCP tools: <code>{tested.mcpTools.join(', ')}</code>
        </span>
      ) : null}
    </>
  );
}

export function AssistantSees({ status, headingId }: { status: AssistantStatus; headingId: string }) {
  const { settings } = useSettings();
  // The handshake starts a bridge (or calls /mcp): once when opened, and when asked again.
  const tested = useResource(`assistant-handshake\n${status.id}`, (c) => c.assistantView({ client: status.id, test: true }));
  const live = useResource(`assistant-view\n${status.id}`, (c) => c.assistantView({ client: status.id }), changesWhatItSees);
  const view = live.data;
  if (live.error) return <ErrorNote error={live.error} title={`What ${status.name} sees could not be loaded`} />;
  if (!view) return <p className="muted">Loading what {status.name} sees…</p>;
  const mode = settings?.mode ?? 'this';
  return (
    <dl className="assistant-sees" aria-labelledby={headingId}>
      <div>
        <dt>Entry</dt>
        <dd>
          <EntryText status={view.status} tested={tested.data} testing={tested.loading} />{' '}
          {view.status.state !== null && view.status.state !== 'not_connected' ? (
            <button type="button" className="button button-quiet button-small" disabled={tested.loading} onClick={tested.reload}>
              {tested.loading ? 'Checking…' : 'Check again'}
            </button>
          ) : null}
        </dd>
      </div>
      <div>
        <dt>Credential</dt>
        <dd>
          <CredentialText credential={view.credential} name={status.name} id={status.id} />
        </dd>
      </div>
      <div>
        <dt>Offered now</dt>
        <dd>
          {view.actsAs === null ? <p className="muted">Skilltray offers any assistant these; {status.name} reaches none of them as things stand.</p> : null}
          <p>
            {view.offered.skills} {view.offered.skills === 1 ? 'skill' : 'skills'} with {view.offered.tools} {view.offered.tools === 1 ? 'tool' : 'tools'}, on
            and offered in {mode} mode{view.skills.length < view.offered.skills ? ` (the first ${view.skills.length} below)` : ''}:
          </p>
          <ul className="assistant-sees-skills" aria-label={`Skills offered to ${status.name}`}>
            {view.skills.map((skill) => (
              <li key={skill.name}>
                <a href={skillHref(skill.name)}>{skill.name}</a>
                {skill.prompt ? <span className="badge badge-info">prompt</span> : null}
                {skill.tools.length > 0 ? <span className="muted"> {skill.tools.join(', ')}</span> : null}
              </li>
            ))}
          </ul>
        </dd>
      </div>
      <div>
        <dt>Its runs</dt>
        <dd>
          {view.actsAs === null ? (
            <p className="muted">It acts as no one Skilltray knows, so it has no runs.</p>
          ) : view.runs.length === 0 ? (
            <p className="muted">
              No runs asked as <code>{view.actsAs}</code> yet.
            </p>
          ) : (
            <>
              <p>
                The latest asked as <code>{view.actsAs}</code>
                {view.actsAs === 'mcp' ? ' (by any stdio client)' : ''}:
              </p>
              <ul className="assistant-sees-runs" aria-label={`Runs of ${status.name}`}>
                {view.runs.map((run) => (
                  <li key={run.id}>
                    <time dateTime={new Date(run.requestedAt).toISOString()} title={formatTime(run.requestedAt)}>
                      {formatShort(run.requestedAt)}
                    </time>{' '}
                    <a href={routeHref({ screen: 'history', run: run.id, filter: { skill: '', status: null, surface: null } })}>
                      {run.skill} / {run.tool}
                    </a>{' '}
                    <span className={`badge badge-${STATUS_TONES[run.status]}`}>{run.status}</span>
                  </li>
                ))}
              </ul>
            </>
          )}
        </dd>
      </div>
    </dl>
  );
}
