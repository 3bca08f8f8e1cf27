/**
 * Where an MCP client's runs start when it names no cwd: the first of the client's roots
 * (`roots/list`, asked once and again after `notifications/roots/list_changed`) when it offers
 * roots and the first is a local folder. Otherwise none: the run gets an empty folder of its own
 * (never the folder the bridge happened to start in, often `/` or the home folder).
 */
import { fileURLToPath } from 'node:url';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

/** The operations whose input takes a cwd the bridge fills in. */
const TAKES_CWD: ReadonlySet<string> = new Set(['run', 'attach']);

/** The local path of a `file://` root, or null for any other URI. */
export function rootPath(uri: string): string | null {
  try {
    return uri.startsWith('file:') ? fileURLToPath(uri) : null;
  } catch {
    return null; // a file URI for another host, or malformed
  }
}

/** Fills the default cwd into run and attach inputs that name none, from the client's roots when it has a local one. */
export function rootsCwd(server: Server): (operation: string, input: unknown) => Promise<unknown> {
  let first: Promise<string | null> | null = null;
  server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
    first = null;
  });
  const ask = async (): Promise<string | null> => {
    if (server.getClientCapabilities()?.roots === undefined) return null;
    try {
      const { roots } = await server.listRoots();
      return roots[0] === undefined ? null : rootPath(roots[0].uri);
    } catch {
      return null; // the client said it has roots but could not list them
    }
  };
  return async (operation, input) => {
    if (!TAKES_CWD.has(operation) || typeof input !== 'object' || input === null || Array.isArray(input) || 'cwd' in input) return input;
    first ??= ask();
    const cwd = await first;
    return cwd === null ? input : { ...input, cwd };
  };
}
