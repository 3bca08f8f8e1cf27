/**
 * Who a caller is — the person, or an assistant — from the credential it presented and the surface
 * it came through, decided here for every surface; and whether it may call an operation (the
 * contract's AUTHORITY table). Surfaces only say what arrived; they never decide this themselves.
 *
 * A caller's authority is the lower of its credential's and its surface's: the person's token, the
 * app's own window and a terminal are the person's; an assistant token is that assistant's; the MCP
 * surface (`/mcp`, and `skilltray mcp`, which forwards labelled `mcp`) is an assistant's whatever
 * credential came with it. A label can lower a caller, never raise one. docs/security.md#who-holds-what.
 */
import { AUTHORITY, type Caller, type OperationName } from '../shared/contract.js';
import { gatewayErrors } from '../shared/error-messages/gateway.js';
import type { Surface } from '../shared/runs.js';
import type { SkilltrayError } from '../shared/skilltray-error.js';
import { assistantOf } from './credentials/assistant-tokens.js';
import { readToken, tokenMatches } from './credentials/person-token.js';

export { assistantsIssued } from './credentials/assistant-tokens.js';
export { ensureToken, identityProof, isNonce, newNonce, proofMatches, readToken, rotateToken, tokenPath } from './credentials/person-token.js';

/** What a caller presented. */
export type Credential =
  /** The app's own window over IPC (electron/ipc-handlers.ts checked that the sender is the app's own page). */
  | { kind: 'window' }
  /** A bearer token sent to the loopback API or /mcp (null: none was sent). */
  | { kind: 'bearer'; token: string | null }
  /** `skilltray mcp` answering in its own process, with no owner of runs to forward to. */
  | { kind: 'bridge' };

/**
 * The name the stdio bridge acts under. Every `skilltray mcp` runs as the person's own process and
 * can read the person's token, so telling one client's bridge from another's would be a label, not a
 * boundary: they share one name, and so each sees the runs of every stdio bridge.
 */
export const BRIDGE_ASSISTANT = 'mcp';

/** Surfaces only assistants come through. */
const ASSISTANT_SURFACES: ReadonlySet<Surface> = new Set(['mcp']);

/** What the credential alone is worth, or null when it is none of this home's. */
function holderOf(home: string, credential: Credential): Caller | null {
  switch (credential.kind) {
    case 'window':
      return { kind: 'person' };
    case 'bridge':
      return { kind: 'assistant', name: BRIDGE_ASSISTANT };
    case 'bearer': {
      if (credential.token === null) return null;
      const person = readToken(home);
      if (person !== null && tokenMatches(person, credential.token)) return { kind: 'person' };
      const name = assistantOf(home, credential.token);
      return name === null ? null : { kind: 'assistant', name };
    }
  }
}

/** Who calls with `credential` through `surface`, or null when a bearer token is not one of this home's (E802). */
export function callerOf(home: string, credential: Exclude<Credential, { kind: 'bearer' }>, surface: Surface): Caller;
export function callerOf(home: string, credential: Credential, surface: Surface): Caller | null;
export function callerOf(home: string, credential: Credential, surface: Surface): Caller | null {
  const holder = holderOf(home, credential);
  if (holder?.kind === 'person' && ASSISTANT_SURFACES.has(surface)) return { kind: 'assistant', name: BRIDGE_ASSISTANT };
  return holder;
}

/** Why `caller` may not call `operation` (E814: it is the person's, and an assistant asks), or null; `operation` may be the route `events`. */
export function refusal(caller: Caller, operation: OperationName | 'events'): SkilltrayError | null {
  const authority = operation === 'events' ? 'person' : AUTHORITY[operation];
  return authority === 'person' && caller.kind !== 'person' ? gatewayErrors.personOnly(operation, caller.name) : null;
}
