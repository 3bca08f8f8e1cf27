/** The sandbox this platform offers: bubblewrap on Linux, Seatbelt on macOS, none on Windows and elsewhere. */
import { bubblewrapSandbox } from './bubblewrap.js';
import { noSandbox, type Sandbox } from './sandbox.js';
import { seatbeltSandbox } from './seatbelt.js';

/** Picks the mechanism for `platform` (`netRelay`: the network relay bubblewrap runs first); availability is probed lazily, once, by the sandbox itself. */
export function platformSandbox(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, netRelay: string | null = null): Sandbox {
  if (platform === 'linux') return bubblewrapSandbox(env, netRelay);
  if (platform === 'darwin') return seatbeltSandbox();
  if (platform === 'win32') return noSandbox('Windows has no sandbox Skilltray can use, so runs there are not contained');
  return noSandbox(`${platform} has no sandbox Skilltray can use, so runs there are not contained`);
}
