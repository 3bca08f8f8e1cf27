/**
 * Section Markdown through react-markdown + GFM, with raw HTML skipped. Links are made to fit the
 * hash router: a relative link opens that file of the skill, `#fragment` opens the section it
 * names, web links open outside; images are shown as links (the page may load nothing remote).
 */
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { skillHref } from '../app/route.js';

const EXTERNAL = /^(https?:|mailto:)/i;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** Resolves `target` against the directory of `file` (both skill-relative, `/`-separated); null if it leaves the skill. */
export function resolveSkillPath(file: string, target: string): string | null {
  const parts = file.split('/').slice(0, -1);
  for (const part of target.split(/[?#]/)[0]?.split('/') ?? []) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else {
      parts.push(decodeURIComponentSafe(part));
    }
  }
  return parts.length === 0 ? null : parts.join('/');
}

function decodeURIComponentSafe(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** Where a link in `file` of `skill` should go: a route, an outside address, or nowhere (null). */
export function linkTarget(skill: string, file: string, href: string): { href: string; external: boolean } | null {
  if (EXTERNAL.test(href)) return { href, external: true };
  if (SCHEME.test(href)) return null;
  if (href.startsWith('#')) {
    const section = decodeURIComponentSafe(href.slice(1)).replace(/-/g, ' ').trim();
    return section === '' ? null : { href: skillHref(skill, { kind: 'section', section, file }), external: false };
  }
  const path = resolveSkillPath(file, href);
  return path === null ? null : { href: skillHref(skill, { kind: 'file', path }), external: false };
}

export function SkillMarkdown({ skill, file, text }: { skill: string; file: string; text: string }) {
  const components: Components = {
    a: ({ href, children }) => {
      const target = href ? linkTarget(skill, file, href) : null;
      if (!target) return <span className="link-dead">{children}</span>;
      return target.external ? (
        <a href={target.href} target="_blank" rel="noreferrer noopener">
          {children}
        </a>
      ) : (
        <a href={target.href}>{children}</a>
      );
    },
    img: ({ src, alt }) => {
      const target = typeof src === 'string' ? linkTarget(skill, file, src) : null;
      const label = `image: ${alt || (typeof src === 'string' ? src : 'untitled')}`;
      return target && !target.external ? <a href={target.href}>[{label}]</a> : <span className="muted">[{label}]</span>;
    },
  };
  return (
    <div className="markdown">
      <Markdown remarkPlugins={[remarkGfm]} skipHtml components={components}>
        {text}
      </Markdown>
    </div>
  );
}
