/** A root of skills of every kind a parse tells apart, for tests that hold two ways of reading skills to the same answer. */
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { SkillRoot } from '../../src-main/shared/model.js';
import { skillMd, tempDir, writeSkill } from './temp.js';

const TOOL = `# Tools\n\n### fetch_page\n\nFetch a page.\n\n#### Parameters\n\n| Name | Type | Required | Description |\n|---|---|---|---|\n| url | string | yes | The page |\n\n#### Command\n\n\`\`\`bash\ncurl -s -- <<url>>\n\`\`\`\n`;

/**
 * `copies` of each kind under `root`: tools with a support file, dates and `.inf` in YAML (W415;
 * not JSON), broken YAML, a name that differs from its folder (E407), a link out of the skill
 * (W412) beside Chinese prose; and one folder without a SKILL.md. Returns the folders in order.
 */
export function writeVariedSkills(root: string, copies: number): { dirs: string[]; root: SkillRoot } {
  const outside = tempDir();
  const dirs: string[] = [];
  for (let i = 0; i < copies; i++) {
    dirs.push(
      writeSkill(root, `tools-${i}`, skillMd({ name: `tools-${i}`, description: 'Fetches pages.' }, TOOL), {
        'references/guide.md': `# Guide ${i}\n\nRead me.\n`,
      }),
    );
    dirs.push(writeSkill(root, `dates-${i}`, skillMd(`name: dates-${i}\ndescription: Dated.\nmetadata:\n  updated: 2026-03-05\n  weight: .inf`, '# Dated\n')));
    dirs.push(writeSkill(root, `broken-${i}`, skillMd('name: [unclosed\ndescription: x', '# Broken\n')));
    dirs.push(writeSkill(root, `folder-${i}`, skillMd({ name: `other-name-${i}`, description: 'Misnamed.' }, '# Misnamed\n')));
    const linked = writeSkill(root, `linked-${i}`, skillMd({ name: `linked-${i}`, description: 'Links out.' }, '# 适用场景\n\n本技能适用于中文文本。\n'));
    symlinkSync(outside, join(linked, 'escape'));
    dirs.push(linked);
  }
  mkdirSync(join(root, 'empty-folder'));
  dirs.push(join(root, 'empty-folder'));
  return { dirs, root: { path: root, kind: 'env', trust: 'user', syntax: 'angle' } };
}
