/** Settings › Sandbox: what contains runs on this machine, and the skills the person chose to run without a sandbox. */
import { useId, useState, type FormEvent } from 'react';
import { useAnnounce } from '../app/announcer.js';
import { useClient } from '../app/connection-context.js';
import { ErrorNote } from '../app/error-note.js';
import { useResource } from '../app/use-resource.js';

export function SandboxSettings() {
  const client = useClient();
  const announce = useAnnounce();
  const status = useResource(
    'sandbox',
    (c) => c.sandbox({}),
    (e) => e.type === 'policy.changed',
  );
  const skills = useResource(
    'skill-names',
    (c) => c.list({ limit: 10_000 }),
    (e) => e.type === 'skills.changed',
  );
  const skillId = useId();
  const [skill, setSkill] = useState('');
  const [error, setError] = useState<Error | null>(null);

  const set = (name: string, sandboxed: boolean): void => {
    setError(null);
    client.setSkillSandbox({ skill: name, sandboxed }).then(
      () => {
        announce(sandboxed ? `${name} runs in the sandbox again` : `${name} now runs without a sandbox`);
        setSkill('');
        status.reload();
      },
      (e: Error) => setError(e),
    );
  };
  const add = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (skill !== '') set(skill, false);
  };

  if (status.error) return <ErrorNote error={status.error} title="The sandbox status could not be loaded" />;
  if (!status.data) return <p className="muted">Loading…</p>;
  const { available, mechanism, why, unsandboxed } = status.data;
  const candidates = (skills.data?.skills ?? []).map((s) => s.name).filter((name) => !unsandboxed.includes(name));
  return (
    <>
      {available ? (
        <p className="note note-ok">
          Runs are contained by <strong>{mechanism}</strong>: each gets the profile its skill needs (read-only, or writes in its working directory; the network
          only if declared), and none can read Skilltray&apos;s data or your keys.
        </p>
      ) : (
        <p className="note note-error">
          Runs are <strong>not contained</strong> here: {why} Tools that would run without asking (bundled read-only tools, your “Always” answers) ask every
          time instead.
        </p>
      )}
      <h3 className="field-title">Skills that run without a sandbox</h3>
      {unsandboxed.length > 0 ? (
        <ul className="item-list">
          {unsandboxed.map((name) => (
            <li key={name}>
              <strong>{name}</strong> <span className="badge badge-bad">not contained</span>
              <button type="button" className="button button-quiet" onClick={() => set(name, true)} aria-label={`Put ${name} back in the sandbox`}>
                Put back in the sandbox
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="empty">None: every skill runs in the sandbox.</p>
      )}
      <form className="inline-form" onSubmit={add} aria-label="Run a skill without a sandbox">
        <div className="field">
          <label htmlFor={skillId}>Skill</label>
          <select id={skillId} value={skill} onChange={(e) => setSkill(e.target.value)}>
            <option value="">Choose a skill…</option>
            {candidates.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button button-danger" disabled={skill === ''}>
          Run without a sandbox
        </button>
      </form>
      <p className="hint">
        A skill without a sandbox can do anything you can, so each of its runs asks you first (unless an allow rule says otherwise). Only you can turn this on;
        a skill cannot.
      </p>
      {error ? <ErrorNote error={error} /> : null}
    </>
  );
}
