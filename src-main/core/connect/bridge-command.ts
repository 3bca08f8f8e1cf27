/**
 * The command a client is told to start for `skilltray mcp`, in one of three forms: the packaged
 * app's own executable run as Node, `skilltray` on PATH, or Node with this installation's
 * bin/skilltray.js — always with SKILLTRAY_HOME and SKILLTRAY_SKILLS_PATH set to this process's, so
 * the bridge and the app share one home and one set of roots whatever the client's environment says.
 */
import { delimiter } from 'node:path';
import type { BridgeCommand, LaunchForm } from '../../shared/connect.js';
import type { CoreConfig } from '../config.js';
import { resolveProgram } from '../process/resolve-program.js';

/** The form `connect` writes unless told otherwise: the app's executable in a package, else Node (an absolute path, which a GUI client's PATH cannot miss). */
export function defaultForm(config: CoreConfig): LaunchForm {
  return config.installation.packaged ? 'app' : 'node';
}

/** The environment every form carries. */
function bridgeEnv(config: CoreConfig): Record<string, string> {
  // Absolute, as the app resolved them: the client starts the bridge in a folder of its own choosing.
  const skillsPath = config.roots.filter((root) => root.kind === 'env').map((root) => root.path);
  return { SKILLTRAY_HOME: config.home, SKILLTRAY_SKILLS_PATH: skillsPath.join(delimiter) };
}

/** Node, to run bin/skilltray.js with: this process when it is Node, else the first `node` on PATH. */
function nodeProgram(config: CoreConfig): string | null {
  const { installation } = config;
  if (!installation.packaged && process.versions.electron === undefined) return installation.runtime;
  return resolveProgram('node', config.env, config.home);
}

/** The bridge command of `form`, or why this installation cannot start one that way. */
export function bridgeCommand(config: CoreConfig, form: LaunchForm): BridgeCommand | { unavailable: string } {
  const env = bridgeEnv(config);
  const { installation } = config;
  if (form === 'app') {
    if (!installation.packaged) return { unavailable: 'this is not the packaged Skilltray app' };
    return { form, command: installation.runtime, args: [installation.script, 'mcp'], env: { ...env, ELECTRON_RUN_AS_NODE: '1' } };
  }
  if (form === 'path') {
    if (resolveProgram('skilltray', config.env, config.home) === null)
      return { unavailable: "no 'skilltray' on PATH (npm link or npm install -g puts one there)" };
    return { form, command: 'skilltray', args: ['mcp'], env };
  }
  const node = nodeProgram(config);
  if (node === null) return { unavailable: "no 'node' on PATH to run bin/skilltray.js with" };
  return { form, command: node, args: [installation.script, 'mcp'], env };
}
