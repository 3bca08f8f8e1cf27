/**
 * `#/settings`: mode and pause, history retention, the palette, voice, connected assistants, MCP sources of skills, where skills come from, rules,
 * the sandbox, and remembered approvals.
 */
import { useId, useState, type FormEvent } from 'react';
import { COMPATIBILITY_ROOTS, type RootWatch } from '../../src-main/shared/model.js';
import { RULE_EFFECTS, type Rule, type RuleEffect } from '../../src-main/shared/runs.js';
import { describePin } from '../../src-main/shared/identity-text.js';
import { displayText } from '../../src-main/shared/display-text.js';
import { useAnnounce } from '../app/announcer.js';
import { useClient, useConnection } from '../app/connection-context.js';
import { ErrorNote } from '../app/error-note.js';
import { formatTime } from '../app/format.js';
import { PathText } from '../app/path-text.js';
import { useResource } from '../app/use-resource.js';
import { useSettings } from '../app/use-settings.js';
import { RememberedList } from '../approvals/remembered-list.js';
import { AssistantsSettings } from './assistants-settings.js';
import { McpSourcesSettings } from './mcp-sources-settings.js';
import { HistoryRetention } from './history-retention.js';
import { ModeSwitch, PauseSwitch } from './mode-controls.js';
import { PaletteShortcut } from './palette-shortcut.js';
import { LimitCeiling } from './limit-ceiling.js';
import { SandboxSettings } from './sandbox-settings.js';
import { VoiceSettingsSection } from './voice-settings.js';

/** How a root is watched, in words; `none` when the server watches nothing. */
const WATCH_LABELS: Record<RootWatch['mode'] | 'none', string> = {
  native: 'yes',
  polling: 'by polling',
  off: 'no',
  none: '—',
};

function Roots() {
  const roots = useResource('roots', (client) => client.roots({}));
  if (roots.error) return <ErrorNote error={roots.error} title="Roots could not be listed" />;
  if (!roots.data) return <p className="muted">Loading…</p>;
  return (
    <>
      <p className="muted">
        Home: <PathText path={roots.data.home} />. First match wins when two roots hold a skill of the same name.
      </p>
      <div className="table-wrap">
        <table className="stack-narrow">
          <caption className="visually-hidden">Skill roots in precedence order</caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Kind</th>
              <th scope="col">Path</th>
              <th scope="col">Trust</th>
              <th scope="col">Placeholders</th>
              <th scope="col">Exists</th>
              <th scope="col">Watched</th>
            </tr>
          </thead>
          <tbody>
            {roots.data.roots.map((root, i) => (
              <tr key={root.path} className={root.exists ? undefined : 'row-dim'}>
                <td data-label="#">{i + 1}</td>
                <td data-label="Kind">
                  {root.kind}
                  {COMPATIBILITY_ROOTS.includes(root.kind) ? <span className="muted"> (compatibility)</span> : null}
                </td>
                <td className="stack-title" data-label="Path">
                  <PathText path={root.path} />
                </td>
                <td data-label="Trust">{root.trust}</td>
                <td data-label="Placeholders">
                  <code>{root.syntax === 'angle' ? '<<key>>' : '{{key}}'}</code>
                </td>
                <td data-label="Exists">{root.exists ? 'yes' : 'no'}</td>
                <td data-label="Watched">{WATCH_LABELS[root.watch?.mode ?? 'none']}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {roots.data.roots.some((root) => (root.watch?.problems.length ?? 0) > 0) ? (
        <ul className="item-list" aria-label="Watch problems">
          {roots.data.roots.flatMap((root) =>
            (root.watch?.problems ?? []).map((problem) => (
              <li key={`${root.path}\0${problem.path}\0${problem.code}`}>
                <span className="badge badge-warn">{problem.code}</span> <PathText path={problem.path} /> <span className="muted">{problem.message}</span>
              </li>
            )),
          )}
        </ul>
      ) : null}
    </>
  );
}

/** The skills an allow rule covers, as they were when it was made. */
function pinsText(rule: Rule): string {
  const pins = rule.pins ?? [];
  if (pins.length === 0) return 'covers no skill now: add it again to cover the skills it names';
  return `for ${pins.map((pin) => `${pin.skill} (${describePin(pin)})`).join(', ')}`;
}

function Rules() {
  const client = useClient();
  const announce = useAnnounce();
  const rules = useResource(
    'rules',
    (c) => c.rules({}),
    (e) => e.type === 'policy.changed',
  );
  const patternId = useId();
  const effectId = useId();
  const [pattern, setPattern] = useState('');
  const [effect, setEffect] = useState<RuleEffect>('deny');
  const [error, setError] = useState<Error | null>(null);

  const add = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    setError(null);
    client.addRule({ pattern: pattern.trim(), effect }).then(
      (rule) => {
        announce(`Added rule ${rule.effect} ${rule.pattern}`);
        setPattern('');
        rules.reload();
      },
      (e: Error) => setError(e),
    );
  };
  const remove = (id: number, text: string): void => {
    setError(null);
    client.removeRule({ id }).then(
      () => {
        announce(`Removed rule ${text}`);
        rules.reload();
      },
      (e: Error) => setError(e),
    );
  };

  return (
    <>
      <p className="muted">
        Write <code>skill:&lt;glob&gt;</code> (e.g. <code>skill:git*</code>), <code>tool:&lt;skill&gt;/&lt;tool&gt;</code> or <code>tool:&lt;skill&gt;/*</code>.
        The most specific matching rule wins; at equal specificity, deny wins. A deny refuses the run; an allow runs it without asking — the skills it covers as
        they are when you add it (which skill each is, and no more than its runs could do then): a skill that changes, or another skill of the same name, asks
        until you add the rule again.
      </p>
      {rules.error ? <ErrorNote error={rules.error} title="Rules could not be loaded" /> : null}
      {rules.data && rules.data.length > 0 ? (
        <ul className="item-list">
          {rules.data.map((rule) => (
            <li key={rule.id}>
              <span className={`badge ${rule.effect === 'deny' ? 'badge-bad' : 'badge-ok'}`}>{rule.effect}</span> <code>{rule.pattern}</code>{' '}
              <span className="muted">
                #{rule.id}, added {formatTime(rule.createdAt)}
              </span>
              <button
                type="button"
                className="button button-quiet"
                onClick={() => remove(rule.id, `${rule.effect} ${rule.pattern}`)}
                aria-label={`Remove rule ${rule.effect} ${rule.pattern}`}
              >
                Remove
              </button>
              {rule.effect === 'allow' ? <span className="rule-pins">{displayText(pinsText(rule))}</span> : null}
            </li>
          ))}
        </ul>
      ) : rules.data ? (
        <p className="empty">No rules.</p>
      ) : null}
      <form className="inline-form" onSubmit={add} aria-label="Add a rule">
        <div className="field">
          <label htmlFor={patternId}>Pattern</label>
          <input
            id={patternId}
            type="text"
            value={pattern}
            required
            spellCheck={false}
            autoComplete="off"
            placeholder="tool:git/git_status"
            onChange={(e) => setPattern(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={effectId}>Effect</label>
          <select id={effectId} value={effect} onChange={(e) => setEffect(RULE_EFFECTS.find((x) => x === e.target.value) ?? 'deny')}>
            {RULE_EFFECTS.map((x) => (
              <option key={x} value={x}>
                {x}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button button-primary">
          Add rule
        </button>
      </form>
      {error ? <ErrorNote error={error} /> : null}
    </>
  );
}

export function SettingsScreen() {
  const { settings, error, set } = useSettings();
  // The global shortcut is the desktop app's: a browser tab cannot listen for keys outside itself.
  const desktop = useConnection().kind === 'desktop';
  return (
    <div className="page">
      <header className="page-head">
        <h1>Settings</h1>
      </header>
      <section className="card" aria-labelledby="mode-title">
        <h2 id="mode-title">Mode and runs</h2>
        {settings ? (
          <div className="stack">
            <ModeSwitch settings={settings} onChange={set} />
            <PauseSwitch settings={settings} onChange={set} />
          </div>
        ) : error ? (
          <ErrorNote error={error} />
        ) : (
          <p className="muted">Loading…</p>
        )}
      </section>
      <section className="card" aria-labelledby="history-title">
        <h2 id="history-title">History</h2>
        {settings ? <HistoryRetention settings={settings} onChange={set} /> : <p className="muted">Loading…</p>}
      </section>
      {desktop ? (
        <section className="card" aria-labelledby="palette-title">
          <h2 id="palette-title">Command palette</h2>
          {settings ? <PaletteShortcut settings={settings} onChange={set} /> : null}
        </section>
      ) : null}
      <section className="card" aria-labelledby="voice-title">
        <h2 id="voice-title">Voice</h2>
        <VoiceSettingsSection />
      </section>
      <section className="card" aria-labelledby="assistants-title">
        <h2 id="assistants-title">Assistants</h2>
        <AssistantsSettings />
      </section>
      <section className="card" aria-labelledby="sources-title">
        <h2 id="sources-title">Sources</h2>
        <McpSourcesSettings />
      </section>
      <section className="card" aria-labelledby="roots-title">
        <h2 id="roots-title">Skill roots</h2>
        <Roots />
      </section>
      <section className="card" aria-labelledby="rules-title">
        <h2 id="rules-title">Rules</h2>
        <Rules />
      </section>
      <section className="card" aria-labelledby="sandbox-title">
        <h2 id="sandbox-title">Sandbox</h2>
        <SandboxSettings />
        {settings ? <LimitCeiling settings={settings} onChange={set} /> : null}
      </section>
      <section className="card" aria-labelledby="remembered-title">
        <h2 id="remembered-title">Remembered approvals</h2>
        <p className="muted">
          Tools you chose to always allow. Each lapses by itself when its skill changes on disk, its program resolves elsewhere, or it would need a wider
          sandbox; one given for this session ends when the app stops.
        </p>
        <RememberedList />
      </section>
    </div>
  );
}
