/** The errors of skills over MCP, served and taken (E86x, docs/errors.md): each names the source, skill or URI it is about. */
import { SkilltrayError } from '../../shared/skilltray-error.js';

export const servedErrors = {
  /** A source the person described wrongly: its name, or what reaches it. */
  invalidSource: (why: string, details: Record<string, unknown> = {}) => new SkilltrayError('E860', `invalid MCP source: ${why}`, { details }),
  sourceExists: (name: string) =>
    new SkilltrayError('E861', `an MCP source named '${name}' is already added; remove it first (skilltray sources remove-mcp ${name})`, {
      details: { source: name },
    }),
  sourceNotFound: (name: string, known: readonly string[]) =>
    new SkilltrayError('E862', `no MCP source named '${name}'${known.length === 0 ? '; none is added' : `; the sources: ${known.join(', ')}`}`, {
      details: { source: name, known },
    }),
  unreachable: (name: string, why: string) => new SkilltrayError('E863', `MCP source '${name}' did not answer: ${why}`, { details: { source: name, why } }),
  noExtension: (name: string, extension: string) =>
    new SkilltrayError('E864', `MCP source '${name}' does not declare the Skills extension (${extension}), so it serves no skills Skilltray can take`, {
      details: { source: name, extension },
    }),
  /** An entry that breaks the SEP's rules; nothing of it is written. */
  invalidEntry: (source: string, uri: string, why: string) =>
    new SkilltrayError('E865', `MCP source '${source}' serves ${JSON.stringify(uri)} against the Skills extension's rules: ${why}; it is refused`, {
      details: { source, uri, why },
    }),
  /** A file whose bytes are not what its entry promised: the server lied, or was tampered with on the way. */
  unverified: (source: string, uri: string, why: string) =>
    new SkilltrayError('E866', `MCP source '${source}' served ${JSON.stringify(uri)} that does not verify: ${why}; the skill is refused`, {
      details: { source, uri, why },
    }),
  changed: (skill: string, why: string) => new SkilltrayError('E867', `served skill '${skill}' ${why}`, { details: { skill, why } }),
  tooLarge: (what: string, limit: string, details: Record<string, unknown> = {}) =>
    new SkilltrayError('E868', `${what}: more than ${limit}; it is refused`, { details: { ...details, limit } }),
  notServed: (skill: string, why: string) => new SkilltrayError('E869', `served skill '${skill}' ${why}`, { details: { skill, why } }),
};
