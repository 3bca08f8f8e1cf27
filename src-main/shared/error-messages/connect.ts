/** The errors of connecting assistants (E85x, docs/errors.md), each a sentence naming the file or client it is about. */
import { SkilltrayError } from '../../shared/skilltray-error.js';

export const connectErrors = {
  /** The config file does not parse; nothing was changed. */
  invalidConfig: (file: string, line: number, column: number, reason: string) =>
    new SkilltrayError('E850', `${file} does not parse at line ${line}, column ${column}: ${reason}; it was left untouched`, {
      details: { file, line, column, reason },
    }),
  unknownClient: (client: string, known: readonly string[]) =>
    new SkilltrayError('E851', `no assistant '${client}'; the ones Skilltray connects: ${known.join(', ')}`, { details: { client, known } }),
  notFound: (name: string, looked: string[]) =>
    new SkilltrayError('E852', `${name} was not found on this machine (looked for ${looked.join(', ')})`, { details: { client: name, looked } }),
  unwritable: (file: string, cause: unknown) =>
    new SkilltrayError('E853', `cannot write ${file}: ${cause instanceof Error ? cause.message : String(cause)}`, { details: { file }, cause }),
  notWorking: (name: string, why: string) =>
    new SkilltrayError('E854', `the Skilltray bridge for ${name} does not answer an MCP handshake here (${why}); nothing was written`, {
      details: { client: name, why },
    }),
  transportNotAvailable: (message: string, details: Record<string, unknown>) => new SkilltrayError('E855', message, { details }),
  projectChanged: (path: string, why: string) =>
    new SkilltrayError('E856', `the skills of ${path} ${why}: look at them again and trust the folder again`, { details: { path } }),
  projectNotTrusted: (path: string) => new SkilltrayError('E857', `${path} is not a trusted project folder`, { details: { path } }),
};
