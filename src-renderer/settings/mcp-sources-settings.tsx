/**
 * Settings › Sources: the MCP servers Skilltray takes skills from (the Skills extension, SEP-2640).
 * Each source with the skills it serves: approved, waiting for approval, changed since (with what
 * changed, line by line), refused (and why) or no longer served. A skill is approved as shown — its
 * files, what it declares that would widen its runs (honoured only when ticked) — and a source is
 * added by the command that starts it or its URL, checked again, or removed with what it left.
 * Everything a server wrote is shown as text, never as markup.
 */
import { useId, useState, type FormEvent } from 'react';
import type { McpSourceStatus, ServedFileChange, ServedSkillStatus } from '../../src-main/shared/served.js';
import { displayText } from '../../src-main/shared/display-text.js';
import { useAnnounce } from '../app/announcer.js';
import { useClient } from '../app/connection-context.js';
import { ErrorNote } from '../app/error-note.js';
import { formatTime } from '../app/format.js';
import { useResource } from '../app/use-resource.js';

const STATES: Record<ServedSkillStatus['state'], { text: string; badge: string }> = {
  approved: { text: 'approved', badge: 'badge-ok' },
  pending: { text: 'waits for approval', badge: 'badge-warn' },
  changed: { text: 'changed: approve again', badge: 'badge-warn' },
  refused: { text: 'refused', badge: 'badge-bad' },
  gone: { text: 'no longer served', badge: 'badge-neutral' },
};

function ChangeView({ change }: { change: ServedFileChange }) {
  const lines = change.diff?.lines ?? [];
  return (
    <li>
      <span className="badge badge-quiet">{change.change}</span> <code>{displayText(change.path)}</code>
      {change.diff?.omitted ? <span className="muted"> ({change.diff.omitted})</span> : null}
      {lines.length > 0 ? (
        <pre className="command-diff source-diff" aria-label={`What changed in ${change.path}`}>
          {lines.map((line, i) => (
            <span key={i} className={line.startsWith('+') ? 'diff-add' : line.startsWith('-') ? 'diff-del' : line.startsWith('@@') ? 'muted' : undefined}>
              {displayText(line)}
              {'\n'}
            </span>
          ))}
          {change.diff !== null && change.diff.more > 0 ? <span className="muted">… {change.diff.more} more lines</span> : null}
        </pre>
      ) : null}
    </li>
  );
}

/** A skill waiting for approval, shown as it would be approved. */
function Review({ skill, busy, onApprove }: { skill: ServedSkillStatus; busy: boolean; onApprove(grants: boolean): void }) {
  const [grants, setGrants] = useState(false);
  const grantsId = useId();
  const declared = Object.entries(skill.declares);
  return (
    <div className="source-review" role="group" aria-label={`Review ${skill.name}`}>
      {skill.changes.length > 0 ? (
        <>
          <p>Changed since you approved it:</p>
          <ul className="plain-list">
            {skill.changes.map((change) => (
              <ChangeView key={change.path} change={change} />
            ))}
          </ul>
        </>
      ) : null}
      <p className="muted">
        {skill.files.length} file{skill.files.length === 1 ? '' : 's'}: {displayText(skill.files.map((file) => file.path).join(', '))}
      </p>
      {declared.length > 0 ? (
        <div className="field field-check">
          <input id={grantsId} type="checkbox" checked={grants} onChange={(e) => setGrants(e.target.checked)} />
          <label htmlFor={grantsId}>
            Also allow what it declares:{' '}
            {declared.map(([key, value]) => (
              <code key={key}>{displayText(`${key}: ${JSON.stringify(value)}`)} </code>
            ))}
            <span className="muted"> (otherwise its runs never get it)</span>
          </label>
        </div>
      ) : null}
      <div className="button-row">
        <button type="button" className="button button-primary" disabled={busy} onClick={() => onApprove(grants)}>
          {busy ? 'Working…' : `Approve ${skill.name}`}
        </button>
      </div>
    </div>
  );
}

interface SkillRowProps {
  skill: ServedSkillStatus;
  open: boolean;
  busy: boolean;
  onToggle(): void;
  onApprove(grants: boolean): void;
}

function SkillRow({ skill, open, busy, onToggle, onApprove }: SkillRowProps) {
  const state = STATES[skill.state];
  const reviewable = skill.digest !== null && skill.state !== 'approved';
  return (
    <li className="source-skill" aria-label={skill.name}>
      <div className="assistant-head">
        <strong>{skill.name}</strong>
        <span className={`badge ${state.badge}`}>{state.text}</span>
        {skill.state === 'approved' && Object.keys(skill.declares).length > 0 && !skill.grants ? (
          <span className="badge badge-quiet">what it declares is ignored</span>
        ) : null}
        {reviewable ? (
          <span className="assistant-actions">
            <button type="button" className="button" aria-expanded={open} onClick={onToggle} aria-label={`Review ${skill.name}`}>
              {open ? 'Hide' : 'Review'}
            </button>
          </span>
        ) : null}
      </div>
      {skill.description !== '' ? <p className="muted source-line">{displayText(skill.description)}</p> : null}
      {skill.refusal ? <p className="note note-error">{displayText(`error[${skill.refusal.code}] ${skill.refusal.message}`)}</p> : null}
      {skill.clash ? <p className="note note-warn">{displayText(skill.clash)}</p> : null}
      {open && reviewable ? <Review skill={skill} busy={busy} onApprove={onApprove} /> : null}
    </li>
  );
}

function AddSource({ onAdded }: { onAdded(source: McpSourceStatus): void }) {
  const client = useClient();
  const nameId = useId();
  const targetId = useId();
  const [name, setName] = useState('');
  const [target, setTarget] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const submit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    setError(null);
    setBusy(true);
    const given = target.trim();
    const how = /^https?:\/\//i.test(given) ? { url: given } : { command: given.split(/\s+/) };
    client
      .addMcpSource({ name: name.trim(), ...how })
      .then(
        (added) => {
          setName('');
          setTarget('');
          onAdded(added);
        },
        (e: Error) => setError(e),
      )
      .finally(() => setBusy(false));
  };
  return (
    <>
      <form className="inline-form" onSubmit={submit} aria-label="Add an MCP source">
        <div className="field">
          <label htmlFor={nameId}>Name</label>
          <input
            id={nameId}
            type="text"
            value={name}
            required
            spellCheck={false}
            autoComplete="off"
            placeholder="team"
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <div className="field source-target">
          <label htmlFor={targetId}>Command or URL</label>
          <input
            id={targetId}
            type="text"
            value={target}
            required
            spellCheck={false}
            autoComplete="off"
            placeholder="npx -y @acme/skills-server  or  https://…/mcp"
            onChange={(e) => setTarget(e.target.value)}
          />
        </div>
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Adding…' : 'Add source'}
        </button>
      </form>
      <p className="hint">
        The command is split at spaces and started without a shell. For arguments with spaces, variables or headers, use <code>skilltray sources add-mcp</code>.
      </p>
      {error ? <ErrorNote error={error} title="The source was not added" /> : null}
    </>
  );
}

/** Removing a source asks once, saying what goes with it. */
function RemoveSource({ name, onRemove, onCancel }: { name: string; onRemove: () => void; onCancel: () => void }) {
  return (
    <div className="note note-warn" role="group" aria-label={`Remove ${name}?`}>
      <p>Remove {name}? Its skills, their cached files and your approvals of them go with it.</p>
      <div className="button-row">
        <button type="button" className="button button-danger" onClick={onRemove}>
          Remove {name}
        </button>
        <button type="button" className="button button-quiet" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}

export function McpSourcesSettings() {
  const client = useClient();
  const announce = useAnnounce();
  const list = useResource('mcpSources', (c) => c.mcpSources({}));
  const [open, setOpen] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const [error, setError] = useState<Error | null>(null);

  const act = (key: string, work: () => Promise<string>): void => {
    setError(null);
    setBusy(key);
    work()
      .then((said) => {
        announce(said);
        list.reload();
      }, setError)
      .finally(() => setBusy(null));
  };
  const approve = (skill: ServedSkillStatus, grants: boolean): void =>
    act(skill.name, async () => {
      await client.approveServedSkill({ skill: skill.name, confirm: skill.digest as string, grants });
      setOpen(null);
      return `Approved ${skill.name}`;
    });

  if (list.error) return <ErrorNote error={list.error} title="The sources could not be listed" />;
  if (!list.data) return <p className="muted">Loading…</p>;
  return (
    <>
      <p className="muted">
        MCP servers that serve skills. Each of their skills loads as <code>source.skill</code> once you approve it as shown, never stands in for one of yours,
        and waits for you again when any of its files changes. Their tools ask before every run.
      </p>
      {list.data.length === 0 ? <p className="empty">No MCP source is added.</p> : null}
      <ul className="item-list source-list">
        {list.data.map((source) => (
          <li key={source.name} className="source-row" aria-label={`Source ${source.name}`}>
            <div className="assistant-head">
              <strong>{source.name}</strong>
              <span className="badge badge-info">{source.endpoint.kind === 'stdio' ? 'command' : 'URL'}</span>
              <span className="assistant-actions">
                <button
                  type="button"
                  className="button button-quiet"
                  disabled={busy !== null}
                  onClick={() => act(source.name, async () => (await client.refreshMcpSources({ name: source.name }), `Checked ${source.name} again`))}
                >
                  {busy === source.name ? 'Checking…' : 'Check again'}
                </button>
                <button type="button" className="button" onClick={() => setRemoving(source.name)} aria-label={`Remove ${source.name}`}>
                  Remove
                </button>
              </span>
            </div>
            <p className="muted source-line">
              <code>{displayText(source.endpoint.kind === 'stdio' ? [source.endpoint.command, ...source.endpoint.args].join(' ') : source.endpoint.url)}</code>
              {source.checkedAt === null ? null : ` · checked ${formatTime(source.checkedAt)}`}
            </p>
            {source.error ? (
              <p className="note note-error">{displayText(`The last check failed: error[${source.error.code}] ${source.error.message}`)}</p>
            ) : null}
            {removing === source.name ? (
              <RemoveSource
                name={source.name}
                onRemove={() =>
                  act(source.name, async () => (await client.removeMcpSource({ name: source.name }), setRemoving(null), `Removed ${source.name}`))
                }
                onCancel={() => setRemoving(null)}
              />
            ) : null}
            {source.skills.length === 0 ? (
              <p className="empty">It serves no skills.</p>
            ) : (
              <ul className="plain-list source-skills">
                {source.skills.map((skill) => (
                  <SkillRow
                    key={skill.name}
                    skill={skill}
                    open={open === skill.name}
                    busy={busy === skill.name}
                    onToggle={() => setOpen(open === skill.name ? null : skill.name)}
                    onApprove={(grants) => approve(skill, grants)}
                  />
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
      <AddSource
        onAdded={(added) => {
          announce(`Added ${added.name}: ${added.skills.length} skill${added.skills.length === 1 ? '' : 's'} wait for your approval`);
          list.reload();
        }}
      />
      {error ? <ErrorNote error={error} /> : null}
    </>
  );
}
