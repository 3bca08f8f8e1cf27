/** A skill's on/off switch, everywhere at once: off, it is offered to no assistant and its runs are refused (E618). */
import { useState } from 'react';
import type { SkillSummary } from '../../src-main/shared/model.js';
import { switchesText } from '../../src-main/shared/pack-text.js';
import { useAnnounce } from '../app/announcer.js';
import { useClient } from '../app/connection-context.js';
import { ErrorNote } from '../app/error-note.js';

/** The switch shows whether the skill is on in the current mode; flipping it sets it everywhere (per-mode switches are the CLI's `--mode`). */
export function SkillSwitch({ skill, onChanged }: { skill: Pick<SkillSummary, 'name' | 'enabled' | 'switches'>; onChanged?: () => void }) {
  const client = useClient();
  const announce = useAnnounce();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const modes = skill.switches.filter((w) => w.scope !== 'all');
  const flip = (): void => {
    const enabled = !skill.enabled;
    setBusy(true);
    setError(null);
    client.setSkillEnabled({ skill: skill.name, enabled }).then(
      () => {
        setBusy(false);
        announce(`${skill.name} turned ${enabled ? 'on' : 'off'} everywhere`);
        onChanged?.();
      },
      (e: Error) => {
        setBusy(false);
        setError(e);
      },
    );
  };
  return (
    <span className="skill-switch">
      <button type="button" role="switch" aria-checked={skill.enabled} className="switch switch-on" disabled={busy} onClick={flip} aria-label={`${skill.name} on`}>
        <span className="switch-track" aria-hidden="true">
          <span className="switch-thumb" />
        </span>
        <span className="switch-label" aria-hidden="true">
          {skill.enabled ? 'On' : 'Off'}
        </span>
      </button>
      {modes.length > 0 ? <span className="muted switch-modes">{switchesText(skill.switches)}</span> : null}
      {error ? <ErrorNote error={error} /> : null}
    </span>
  );
}
