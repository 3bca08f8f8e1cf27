/** Which skills are Kode prompt skills: a body that takes `$ARGUMENTS` as text, not one that only shows it in code. */
import type { Skill } from '../../shared/model.js';
import { lexBlocks } from '../markdown/blocks.js';

/** Inline code spans (`` `…` ``, any run of backticks): what they hold is shown, not substituted for a reader. */
const CODE_SPAN = /(`+)[\s\S]*?\1/g;

/** Whether the body takes `$ARGUMENTS` outside code blocks and code spans (a guide that explains it does not). */
export function isPromptSkill(skill: Pick<Skill, 'body'>): boolean {
  // Most bodies never mention it: skip the Markdown lexer for them.
  if (!skill.body.includes('$ARGUMENTS')) return false;
  return lexBlocks(skill.body).some((block) => block.token.type !== 'code' && block.token.raw.replace(CODE_SPAN, '').includes('$ARGUMENTS'));
}
