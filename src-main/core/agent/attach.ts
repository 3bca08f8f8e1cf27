/**
 * ADR-001 attach: apply a skill to a live target (a task, a run, an output, a transcript, an
 * artifact). Validation comes before anything runs: the skill exists and loads, its invocation is
 * attach or both, the target type is one of its attach_targets, and the tool to run is known.
 * The target reaches the tool through parameters named `target_type` and `target_ref`, when the
 * tool declares them; the run itself goes through the same render → policy → approval path.
 */
import type { AttachTarget, Skill, Tool } from '../../shared/model.js';
import type { SkilltrayError } from '../../shared/skilltray-error.js';
import { gatewayErrors } from '../../shared/error-messages/gateway.js';

export type AttachFailure = 'skill_not_found' | 'skill_not_loadable' | 'not_attachable' | 'target_not_allowed' | 'tool_required' | 'tool_not_found';

/** ADR-001's AttachValidationError: E801 with a structured reason. */
export function attachValidationError(reason: AttachFailure, message: string, details: Record<string, unknown>): SkilltrayError {
  return gatewayErrors.attachValidation(reason, message, details);
}

export interface AttachRequest {
  skillId: string;
  targetType: AttachTarget;
  targetRef: string;
  tool?: string;
  inputs: Record<string, unknown>;
}

/** Checks an attach request against the skill and returns the tool and arguments to run. */
export function planAttach(skill: Skill | undefined, request: AttachRequest): { tool: Tool; args: Record<string, unknown> } {
  const { skillId, targetType } = request;
  if (!skill) throw attachValidationError('skill_not_found', `skill '${skillId}' not found`, { skill_id: skillId });
  if (skill.state === 'error') {
    throw attachValidationError(
      'skill_not_loadable',
      `skill '${skillId}' does not load: ${skill.diagnostics.find((d) => d.severity === 'error')?.message ?? 'it has errors'}`,
      {
        skill_id: skillId,
      },
    );
  }
  const invocation = skill.classification?.invocation ?? 'direct';
  if (invocation !== 'attach' && invocation !== 'both') {
    throw attachValidationError('not_attachable', `skill '${skillId}' cannot be attached: its invocation is ${invocation}`, { skill_id: skillId, invocation });
  }
  const allowed = skill.classification?.attachTargets ?? [];
  if (!allowed.includes(targetType)) {
    throw attachValidationError('target_not_allowed', `skill '${skillId}' attaches to ${allowed.join(', ')}, not to a ${targetType}`, {
      skill_id: skillId,
      target_type: targetType,
      attach_targets: allowed,
    });
  }
  let tool: Tool | undefined;
  if (request.tool !== undefined) {
    tool = skill.tools.find((t) => t.name === request.tool);
    if (!tool) throw attachValidationError('tool_not_found', `skill '${skillId}' has no tool '${request.tool}'`, { skill_id: skillId, tool: request.tool });
  } else if (skill.tools.length === 1) {
    tool = skill.tools[0];
  }
  if (!tool) {
    throw attachValidationError('tool_required', `skill '${skillId}' has ${skill.tools.length} tools; say which one to attach`, {
      skill_id: skillId,
      tools: skill.tools.map((t) => t.name),
    });
  }
  const args = { ...request.inputs };
  const declares = (name: string) => tool.params.some((p) => p.name === name);
  if (declares('target_type') && args.target_type === undefined) args.target_type = request.targetType;
  if (declares('target_ref') && args.target_ref === undefined) args.target_ref = request.targetRef;
  return { tool, args };
}
