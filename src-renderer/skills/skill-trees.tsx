/** The skill page's navigation: its outline (headings of every Markdown file) and its files. */
import type { SkillView } from '../app/route.js';
import { skillHref } from '../app/route.js';
import { ErrorNote } from '../app/error-note.js';
import { useResource } from '../app/use-resource.js';
import { outlineTree, sourceTree, type OutlineNode, type SourceNode } from './trees.js';

function isCurrent(view: SkillView, target: SkillView): boolean {
  if (view.kind === 'section' && target.kind === 'section') return view.section === target.section && view.file === target.file;
  if (view.kind === 'file' && target.kind === 'file') return view.path === target.path;
  return false;
}

function OutlineItems({ skill, nodes, view }: { skill: string; nodes: OutlineNode[]; view: SkillView }) {
  return (
    <ul className="tree">
      {nodes.map((node) => {
        const target: SkillView = { kind: 'section', section: node.heading.text, file: node.heading.file };
        return (
          <li key={`${node.heading.line}`}>
            <a href={skillHref(skill, target)} aria-current={isCurrent(view, target) ? 'page' : undefined} title={`${node.heading.file}:${node.heading.line}`}>
              {node.heading.text}
            </a>
            {node.children.length > 0 ? <OutlineItems skill={skill} nodes={node.children} view={view} /> : null}
          </li>
        );
      })}
    </ul>
  );
}

/** Headings per file as nested lists of links to their sections. */
export function OutlineTree({ skill, view }: { skill: string; view: SkillView }) {
  const outline = useResource(`outline\n${skill}`, (client) => client.outline({ skill }), (e) => e.type === 'skills.changed' && e.name === skill);
  if (outline.error) return <ErrorNote error={outline.error} title="No outline" />;
  if (!outline.data) return <p className="muted">Loading…</p>;
  const files = outlineTree(outline.data.headings);
  if (files.length === 0) return <p className="muted">No headings.</p>;
  return (
    <>
      {files.map(({ file, nodes }) => (
        <details key={file} className="tree-file" open={files.length === 1 || file === 'SKILL.md' || (view.kind === 'section' && view.file === file)}>
          <summary>{file}</summary>
          <OutlineItems skill={skill} nodes={nodes} view={view} />
        </details>
      ))}
    </>
  );
}

function SourceItems({ skill, nodes, view }: { skill: string; nodes: SourceNode[]; view: SkillView }) {
  return (
    <ul className="tree">
      {nodes.map(({ entry, children }) => {
        if (entry.type === 'dir') {
          return (
            <li key={entry.path} className="tree-dir">
              <span className="tree-dir-name">{entry.name}/</span>
              {entry.files !== undefined ? <span className="muted"> ({entry.files} files)</span> : null}
              {children.length > 0 ? <SourceItems skill={skill} nodes={children} view={view} /> : null}
            </li>
          );
        }
        const target: SkillView = { kind: 'file', path: entry.path };
        return (
          <li key={entry.path}>
            <a href={skillHref(skill, target)} aria-current={isCurrent(view, target) ? 'page' : undefined}>
              {entry.name}
            </a>
          </li>
        );
      })}
    </ul>
  );
}

/** The skill's files as a tree; each file opens in the page. */
export function SourcesTree({ skill, view }: { skill: string; view: SkillView }) {
  const sources = useResource(`sources\n${skill}`, (client) => client.sources({ skill }), (e) => e.type === 'skills.changed' && e.name === skill);
  if (sources.error) return <ErrorNote error={sources.error} title="No file list" />;
  if (!sources.data) return <p className="muted">Loading…</p>;
  return (
    <>
      <SourceItems skill={skill} nodes={sourceTree(sources.data.entries)} view={view} />
      {sources.data.more > 0 ? <p className="hint">{sources.data.more} more entries not listed.</p> : null}
    </>
  );
}
