/**
 * The hostile set the cold-scale rows load beside the generated skills: what a careless or hostile
 * author leaves in a root — YAML depth and alias bombs, an oversized and a binary SKILL.md, a FIFO,
 * a directory and a dangling link named SKILL.md, a folder whose name is not UTF-8, symlink loops,
 * a FIFO inside a skill and a skill of 2,000 files.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const frontmatter = (name: string, extra = '') => `---\nname: ${name}\ndescription: Hostile ${name}.\n${extra}---\n# ${name}\n`;

/** Writes the hostile set under `root`; returns how many folders it holds. */
export function writeHostileSet(root: string): number {
  const skill = (name: string, text: string | Buffer) => {
    mkdirSync(join(root, name), { recursive: true });
    writeFileSync(join(root, name, 'SKILL.md'), text);
  };
  skill('depth-bomb', frontmatter('depth-bomb', `x: ${'['.repeat(400_000)}${']'.repeat(400_000)}\n`));
  skill(
    'alias-bomb',
    frontmatter(
      'alias-bomb',
      `a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n`,
    ),
  );
  skill('oversized', frontmatter('oversized') + 'x'.repeat(1536 * 1024));
  skill('binary', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3]));
  mkdirSync(join(root, 'fifo'));
  execFileSync('mkfifo', [join(root, 'fifo', 'SKILL.md')]);
  mkdirSync(join(root, 'folder', 'SKILL.md'), { recursive: true });
  mkdirSync(join(root, 'dangling'));
  symlinkSync('nowhere.md', join(root, 'dangling', 'SKILL.md'));
  const latin1 = Buffer.concat([Buffer.from(`${root}/caf`), Buffer.from([0xe9])]);
  mkdirSync(latin1);
  writeFileSync(Buffer.concat([latin1, Buffer.from('/SKILL.md')]), frontmatter('cafe'));
  skill('loops', frontmatter('loops'));
  symlinkSync('..', join(root, 'loops', 'up'));
  symlinkSync('.', join(root, 'loops', 'self'));
  skill('pipes', frontmatter('pipes'));
  execFileSync('mkfifo', [join(root, 'pipes', 'queue')]);
  skill('many-files', frontmatter('many-files'));
  mkdirSync(join(root, 'many-files', 'notes'));
  for (let i = 0; i < 2000; i++) writeFileSync(join(root, 'many-files', 'notes', `note-${i}.md`), `# Note ${i}\n\nSome words.\n`);
  return 12;
}
