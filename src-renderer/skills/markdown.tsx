/**
 * Section Markdown through react-markdown + GFM, with raw HTML skipped. Links are made to fit the
 * hash router: a relative link opens that file of the skill, `#fragment` opens the section it
 * names, web links open outside; images are shown as links (the page may load nothing remote).
 */
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { linkTarget } from './skill-links.js';

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
