/** `#/skills/<name>`: one skill — what it is, what it needs, its tools as forms, its outline, sections and files. */
import { useEffect, useRef, type ReactNode } from 'react';
import type { Skill } from '../../src-main/shared/model.js';
import { networkWords } from '../../src-main/shared/network-reach.js';
import { policyDifferences } from '../../src-main/shared/tool-policy.js';
import { ErrorNote } from '../app/error-note.js';
import { PathText } from '../app/path-text.js';
import { skillHref, type SkillView } from '../app/route.js';
import { useResource } from '../app/use-resource.js';
import { DiagnosticsList } from './diagnostics-list.js';
import { OutlineTree, SourcesTree } from './skill-trees.js';
import { FileView, SectionView } from './skill-views.js';
import { toolDiagnostics } from './tool-diagnostics.js';
import { ToolForm } from './tool-form.js';

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function list(values: readonly string[], empty = 'none'): ReactNode {
  return values.length === 0 ? <span className="muted">{empty}</span> : values.map((v) => <code key={v} className="chip">{v}</code>);
}

/**
 * Read-only once: the value runs are decided by (the `read_only` the policy reads), with the
 * classification's declared effect beside it when that says otherwise, so the page never shows
 * two answers to one question.
 */
function ReadOnlyFact({ skill }: { skill: Skill }) {
  const declared = skill.classification?.effectMode ?? null;
  const differs = declared !== null && (declared === 'read_only') !== skill.readOnly;
  return (
    <Fact term="Read-only">
      {skill.readOnly ? 'yes' : 'no'}
      {differs ? (
        <span className="fact-note">
          Its classification declares the effect <code>{declared}</code>, which guides discovery; approvals go by{' '}
          <code>read_only: {String(skill.readOnly)}</code>.
        </span>
      ) : null}
    </Fact>
  );
}

/** Whether a fact has something to say: an empty list or an unstated value is left out, not shown as "none". */
const stated = (value: string | null | readonly string[]): boolean => (Array.isArray(value) ? value.length > 0 : value !== null && value !== '');

/** The skill's tools first (what a person came to do), then what it is and needs; cards with nothing to say are left out. */
function Overview({ skill }: { skill: Skill }) {
  const c = skill.classification;
  const byTool = toolDiagnostics(skill);
  const classified = c !== null && (c.role !== null || c.invocation !== null || c.attachTargets.length > 0 || (c.effectMode !== null && c.effectMode !== 'read_only'));
  const requires = skill.requires.bins.length > 0 || skill.requires.env.length > 0;
  return (
    <>
      {skill.diagnostics.length > 0 ? (
        <section className="card" aria-labelledby="diagnostics-title">
          <h2 id="diagnostics-title">Diagnostics</h2>
          <DiagnosticsList diagnostics={skill.diagnostics} dir={skill.dir} label={`Diagnostics of ${skill.name}`} />
        </section>
      ) : null}

      <section aria-labelledby="tools-title" className="tools">
        <h2 id="tools-title">Tools</h2>
        {skill.tools.length === 0 ? (
          <p className="muted">No tools: this skill is instructions only.</p>
        ) : (
          skill.tools.map((tool) => <ToolForm
              key={tool.name}
              skill={skill.name}
              skillDir={skill.dir}
              tool={tool}
              diagnostics={byTool.get(tool.name) ?? []}
              policy={policyDifferences(skill, tool)}
            />)
        )}
      </section>

      <section className="card" aria-labelledby="about-title">
        <h2 id="about-title">About</h2>
        <dl className="facts facts-grid">
          <Fact term="Trust">{skill.trust}</Fact>
          <Fact term="Root">
            {skill.root.kind} <PathText path={skill.root.path} />
          </Fact>
          <Fact term="Modes">{list(skill.modes)}</Fact>
          <ReadOnlyFact skill={skill} />
          {skill.alwaysAsk ? <Fact term="Always ask">yes</Fact> : null}
          <Fact term="Network">{networkWords(skill)}</Fact>
          <Fact term="Timeout">{skill.timeoutSec} s</Fact>
          {stated(skill.status) ? <Fact term="Status">{skill.status}</Fact> : null}
          {stated(skill.license) ? <Fact term="License">{skill.license}</Fact> : null}
          {skill.compatibility ? <Fact term="Compatibility">{skill.compatibility}</Fact> : null}
          {stated(skill.domain) ? <Fact term="Domain">{list(skill.domain)}</Fact> : null}
          {stated(skill.tags) ? <Fact term="Tags">{list(skill.tags)}</Fact> : null}
          <Fact term="Hash">
            <code title={skill.hash}>{skill.hash.slice(0, 16)}</code>
          </Fact>
        </dl>
      </section>

      {classified && c !== null ? (
        <section className="card" aria-labelledby="classification-title">
          <h2 id="classification-title">Classification</h2>
          <dl className="facts facts-grid">
            {c.role !== null ? <Fact term="Role">{c.role}</Fact> : null}
            {c.invocation !== null ? <Fact term="Invocation">{c.invocation}</Fact> : null}
            {/* A read_only effect is part of the Read-only fact above; the others say what a sidecar does. */}
            {c.effectMode !== null && c.effectMode !== 'read_only' ? <Fact term="Effect">{c.effectMode}</Fact> : null}
            {c.attachTargets.length > 0 ? <Fact term="Attaches to">{list(c.attachTargets)}</Fact> : null}
          </dl>
        </section>
      ) : null}

      {requires ? (
        <section className="card" aria-labelledby="requires-title">
          <h2 id="requires-title">Requirements</h2>
          <dl className="facts facts-grid">
            {skill.requires.bins.length > 0 ? <Fact term="Programs">{list(skill.requires.bins)}</Fact> : null}
            {skill.requires.env.length > 0 ? <Fact term="Environment">{list(skill.requires.env)}</Fact> : null}
          </dl>
        </section>
      ) : null}

      {skill.shadows.length > 0 ? (
        <section className="card" aria-labelledby="shadows-title">
          <h2 id="shadows-title">Hides</h2>
          <p className="muted">Skills of the same name in later roots, which this one takes precedence over:</p>
          <ul className="plain">
            {skill.shadows.map((s) => (
              <li key={s.dir}>
                {s.root.kind}: <PathText path={s.dir} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}

export function SkillPage({ name, view }: { name: string; view: SkillView }) {
  const described = useResource(`describe\n${name}`, (client) => client.describe({ skill: name }), (e) => e.type === 'skills.changed' && e.name === name);
  const skill = described.data;
  const main = useRef<HTMLDivElement>(null);
  const shownView = JSON.stringify(view);
  const firstView = useRef(shownView);
  // Choosing a section or file in the navigation moves focus to what it opened.
  useEffect(() => {
    if (shownView !== firstView.current) main.current?.focus();
  }, [shownView]);
  return (
    <div className="page">
      <nav className="breadcrumbs" aria-label="Breadcrumb">
        <a href="#/skills">Skills</a> <span aria-hidden="true">›</span>{' '}
        {view.kind === 'overview' ? (
          <span aria-current="page">{name}</span>
        ) : (
          <>
            <a href={skillHref(name)}>{name}</a> <span aria-hidden="true">›</span>{' '}
            <span aria-current="page">{view.kind === 'section' ? view.section : view.path}</span>
          </>
        )}
      </nav>
      {described.error ? <ErrorNote error={described.error} title={`Skill “${name}” could not be loaded`} /> : null}
      {skill ? (
        <>
          <header className="page-head skill-head">
            <h1>
              {skill.name} {skill.version ? <span className="version">v{skill.version}</span> : null}
            </h1>
            <div className="badges">
              {skill.state === 'error' ? <span className="badge badge-bad">broken</span> : skill.state === 'warnings' ? <span className="badge badge-warn">warnings</span> : <span className="badge badge-ok">ok</span>}
              <span className={`badge ${skill.trust === 'bundled' ? 'badge-info' : 'badge-neutral'}`}>{skill.trust}</span>
            </div>
            <p className="lede">{skill.description}</p>
            <p className="muted path-line">
              <PathText path={skill.dir} />
            </p>
          </header>
          <div className="skill-layout">
            <aside className="skill-nav" aria-label="Skill contents">
              <nav aria-labelledby="outline-title">
                <h2 id="outline-title" className="nav-title">
                  Outline
                </h2>
                <a className="tree-overview" href={skillHref(name)} aria-current={view.kind === 'overview' ? 'page' : undefined}>
                  Overview and tools
                </a>
                <OutlineTree skill={name} view={view} />
              </nav>
              <nav aria-labelledby="files-title">
                <h2 id="files-title" className="nav-title">
                  Files
                </h2>
                <SourcesTree skill={name} view={view} />
              </nav>
            </aside>
            <div className="skill-main" ref={main} tabIndex={-1}>
              {view.kind === 'overview' ? <Overview skill={skill} /> : view.kind === 'section' ? <SectionView skill={name} section={view.section} file={view.file} /> : <FileView skill={name} path={view.path} />}
            </div>
          </div>
        </>
      ) : described.error ? null : (
        <p className="muted">Loading…</p>
      )}
    </div>
  );
}
