/** The errors of the agent gateway and its transports (E80x–E81x, docs/errors.md): HTTP, MCP, IPC and the owner of runs. */
import type { Health } from '../contract.js';
import { SkilltrayError } from '../skilltray-error.js';

export const gatewayErrors = {
  /** ADR-001's AttachValidationError: `reason` is its structured kind. */
  attachValidation: (reason: string, message: string, details: Record<string, unknown>) =>
    new SkilltrayError('E801', message, { details: { reason, ...details } }),
  /** `tokenFile` is where the caller finds the token. */
  unauthorized: (tokenFile: string) =>
    new SkilltrayError('E802', `missing or wrong bearer token: send 'Authorization: Bearer <token>' with the token in ${tokenFile}`),
  noValidToken: (tokenFile: string) => new SkilltrayError('E802', `this server has no valid token in ${tokenFile}`),
  /** DNS rebinding: a Host that is not this server's own loopback name and port. */
  foreignHost: (port: number, host: string | null) =>
    new SkilltrayError('E803', `this server answers only as 127.0.0.1:${port} or localhost:${port}, not as '${host ?? ''}'`, { details: { host } }),
  crossOrigin: (origin: string) => new SkilltrayError('E803', `cross-origin requests are refused (Origin ${origin})`, { details: { origin } }),
  foreignIpcSender: () => new SkilltrayError('E803', 'IPC is only answered for the Skilltray UI'),
  bodyTooLarge: (limit: number) => new SkilltrayError('E804', `the request body is larger than ${limit} bytes`, { details: { limit } }),
  mcpLineTooLarge: (limit: number) =>
    new SkilltrayError('E804', `the message is larger than ${limit} bytes, the MCP bridge's limit for one line; it was skipped`, { details: { limit } }),
  /** The operation's input schema refused it: `why` is the first issue (`path: message`). */
  invalidInput: (operation: string, why: string, issues: readonly unknown[]) =>
    new SkilltrayError('E805', `invalid input for '${operation}': ${why}`, { details: { operation, issues } }),
  /** IPC, where the schema's issues stay in the main process. */
  invalidIpcInput: (operation: string) => new SkilltrayError('E805', `invalid input for '${operation}'`),
  inputTooDeep: (operation: string, limit: number) =>
    new SkilltrayError('E805', `invalid input for '${operation}': it nests deeper than ${limit} levels`, { details: { operation, limit } }),
  bodyNotJsonType: (contentType: string | null) =>
    new SkilltrayError('E805', `the request body must be JSON, sent as 'Content-Type: application/json'`, { details: { contentType } }),
  bodyNotJson: (why: string) => new SkilltrayError('E805', `the request body is not valid JSON: ${why}`),
  invalidTarget: () => new SkilltrayError('E805', 'the request target is not a valid path'),
  invalidNonce: () => new SkilltrayError('E805', 'identify needs exactly one ?nonce= of 32 lowercase hex digits'),
  invalidIdempotencyKey: (header: string) =>
    new SkilltrayError('E805', 'Idempotency-Key must be one value of 1 to 255 visible ASCII characters (a UUID, say)', { details: { header } }),
  /** `name` is the part of an MCP resource URI that did not parse (`skill`, `path`). */
  invalidResourceUri: (name: string, raw: string) => new SkilltrayError('E805', `invalid ${name} in resource URI: '${raw}'`, { details: { [name]: raw } }),
  promptNotFound: (prompt: string) =>
    new SkilltrayError('E805', `no prompt '${prompt}': prompts are the prompt skills offered in this mode (their body takes $ARGUMENTS)`, {
      details: { prompt },
    }),
  operationNotFound: (operation: string) => new SkilltrayError('E806', `no operation '${operation}'`, { details: { operation } }),
  routeNotFound: (method: string | undefined, path: string) => new SkilltrayError('E806', `no route ${method} ${path}`, { details: { path } }),
  /** An MCP tool call by a name the server does not list; `didYouMean` holds the near ones. */
  mcpToolNotFound: (tool: string, tools: readonly string[], didYouMean: readonly string[]) =>
    new SkilltrayError('E806', `no tool '${tool}'; tools: ${tools.join(', ')}`, { details: { tool, did_you_mean: didYouMean.map((name) => ({ name })) } }),
  appNotReachable: (url: string, reason: string) => new SkilltrayError('E807', `the Skilltray app is not reachable at ${url}: ${reason}`, { details: { url } }),
  noOwner: (home: string) => new SkilltrayError('E807', `nothing owns runs for ${home}: start the Skilltray app or skilltray serve`, { details: { home } }),
  /** `use` names the methods the route takes. */
  methodNotAllowed: (method: string | undefined, path: string, use: string) => new SkilltrayError('E808', `${method} is not allowed on ${path}; use ${use}`),
  /** `owner` is who answers at `url`: the app or `serve`. */
  ownerAlreadyRunning: (home: string, url: string, owner: Health['owner']) =>
    new SkilltrayError(
      'E809',
      `${owner === 'app' ? 'the Skilltray app' : "'skilltray serve'"} already owns runs for ${home} at ${url}; use it, or stop it before starting another`,
      {
        details: { home, url, owner },
      },
    ),
  ownerStarting: (home: string, ownerFile: string) =>
    new SkilltrayError('E809', `another owner is starting for ${home} right now (${ownerFile} appeared); use it once it answers`, { details: { home } }),
  listenFailed: (port: number, reason: string, errno: string | null, cause: unknown) =>
    new SkilltrayError('E810', `cannot listen on 127.0.0.1:${port}: ${reason}`, { details: { port, cause: errno }, cause }),
  tooManyStreams: (open: number, limit: number, retryAfterSeconds: number) =>
    new SkilltrayError('E811', `this token already holds ${open} open event streams (at most ${limit}); close one, or try again in ${retryAfterSeconds} s`, {
      details: { open, limit, retryAfterSeconds },
    }),
  serverBusy: (waiting: number, limit: number, retryAfterSeconds: number) =>
    new SkilltrayError('E812', `the server is busy: ${waiting} requests are waiting; try again in ${retryAfterSeconds} s`, {
      details: { waiting, limit, retryAfterSeconds },
    }),
  /** The API is shutting down: `owner` says whose. */
  serverStopping: (owner: Health['owner'], retryAfterSeconds: number) =>
    new SkilltrayError('E812', `the ${owner === 'app' ? 'Skilltray app' : 'skilltray serve'} API is stopping; try again once it runs`, {
      details: { retryAfterSeconds },
    }),
  idempotencyKeyReused: (key: string) =>
    new SkilltrayError('E813', `Idempotency-Key '${key}' was already used with a different request; use a new key for a new request`, { details: { key } }),
  /** An assistant's credential asked for what only the person does: answering approvals, rules, the sandbox, settings, packs… */
  personOnly: (operation: string, assistant: string) =>
    new SkilltrayError(
      'E814',
      `'${operation}' is the person's to do, and this call came with the assistant credential '${assistant}': ` +
        'an assistant lists, reads, searches, discovers, asks for runs and sees its own; the person answers in the Skilltray app, its browser UI or the skilltray command at a terminal',
      { details: { operation, assistant } },
    ),
};
