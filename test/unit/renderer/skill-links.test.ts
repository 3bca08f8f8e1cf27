import { describe, expect, it } from 'vitest';
import { linkTarget, resolveSkillPath } from '../../../src-renderer/skills/skill-links.js';

describe('links inside skill Markdown', () => {
  it('resolves relative paths against the linking file and never leaves the skill', () => {
    expect(resolveSkillPath('SKILL.md', 'references/a.md')).toBe('references/a.md');
    expect(resolveSkillPath('references/a.md', './b.md#x')).toBe('references/b.md');
    expect(resolveSkillPath('references/a.md', '../SKILL.md')).toBe('SKILL.md');
    expect(resolveSkillPath('SKILL.md', '../other/SKILL.md')).toBeNull();
    expect(resolveSkillPath('SKILL.md', '/etc/passwd')).toBeNull();
    expect(resolveSkillPath('SKILL.md', 'docs/my%20file.md')).toBe('docs/my file.md');
  });

  it('turns links into routes, outside addresses or nothing', () => {
    expect(linkTarget('git', 'SKILL.md', 'references/a.md')).toEqual({ href: '#/skills/git?open=references%2Fa.md', external: false });
    expect(linkTarget('git', 'SKILL.md', '#getting-started')).toEqual({ href: '#/skills/git?section=getting+started&file=SKILL.md', external: false });
    expect(linkTarget('git', 'SKILL.md', 'https://example.com/x')).toEqual({ href: 'https://example.com/x', external: true });
    expect(linkTarget('git', 'SKILL.md', 'javascript:alert(1)')).toBeNull();
    expect(linkTarget('git', 'SKILL.md', 'file:///etc/passwd')).toBeNull();
    expect(linkTarget('git', 'SKILL.md', '#')).toBeNull();
  });
});
