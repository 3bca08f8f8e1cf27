/**
 * Who executes an MCP call. In this process, a core of the same home answers with nobody to ask:
 * reading works, and a run that needs the person's approval fails with E601 — never a silent run.
 */
import type { SkilltrayCore } from '../core/api.js';
import { callOperation } from '../core/operations.js';
import type { OperationCall } from './mcp.js';

export interface LocalExecutorOptions {
  /** Where the assistant launched the bridge: gateway calls resolve paths and log from here. */
  cwd: string;
  version: string;
  /** Receives each new logging warning of the gateway (stdout is the protocol, so they go to stderr). */
  onWarning(warning: string): void;
}

/** Executes operations with `core`, in this process, where no person can be asked. */
export function localExecutor(core: SkilltrayCore, options: LocalExecutorOptions): OperationCall {
  let warned = 0;
  return async (operation, input, signal) => {
    const envelope = await callOperation(core, operation, input, {
      surface: 'mcp',
      cwd: options.cwd,
      approval: { kind: 'none' },
      // Read by `health` only, which is not an MCP tool; the bridge is never the owner of runs.
      owner: 'serve',
      version: options.version,
      signal,
    });
    const warnings = core.gateway.warnings;
    for (; warned < warnings.length; warned++) options.onWarning(warnings[warned] as string);
    return envelope;
  };
}
