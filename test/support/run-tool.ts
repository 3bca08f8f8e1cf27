/** Runs one tool of a skill for real, the way an approved run goes: render, resolve, filter the env, run bounded. */
import { resolveProgram } from '../../src-main/core/process/resolve-program.js';
import { DEFAULT_OUTPUT_CAP, runProcess } from '../../src-main/core/process/run-process.js';
import { buildToolEnv } from '../../src-main/core/process/tool-env.js';
import { SkilltrayError } from '../../src-main/shared/skilltray-error.js';
import { renderCommand } from '../../src-main/core/template/render-command.js';
import type { RenderedCommand, RunResult, Skill } from '../../src-main/shared/model.js';

/** Renders `tool` of `skill` with `args` and runs it in `cwd`; argument errors throw before any process starts. */
export async function runTool(skill: Skill, tool: string, args: unknown, cwd: string): Promise<{ rendered: RenderedCommand; result: RunResult }> {
  const rendered = renderCommand(skill, tool, args, { cwd });
  const env = buildToolEnv(process.env, skill.requires.env);
  // A program written with a path (`scripts/disk-usage`) is the skill's own file, as prepare-run.ts resolves it.
  const program = resolveProgram(rendered.program, env, rendered.program.includes('/') ? skill.dir : cwd);
  if (program === null) {
    throw new SkilltrayError('E701', `'${skill.name}/${tool}' cannot run: '${rendered.program}' was not found on the tool's PATH`, {
      details: { skill: skill.name, tool, program: rendered.program },
    });
  }
  const result = await runProcess({
    program,
    args: rendered.args,
    cwd,
    env,
    timeoutMs: rendered.timeoutMs,
    maxOutputBytes: DEFAULT_OUTPUT_CAP,
  });
  return { rendered, result };
}
