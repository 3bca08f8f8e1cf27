/** Asking the person at the terminal to approve a run, and how the approval reads there. */
import { hostname, userInfo } from 'node:os';
import type { PendingApproval, Verdict } from '../shared/runs.js';
import type { Approver } from '../core/api.js';
import type { CliContext } from './command.js';
import { approvalSentence, boxLines, containment, shownArguments } from '../shared/approval-text.js';
import { describePin, identityWarnings } from '../shared/identity-text.js';
import { displayLines } from '../shared/display-text.js';
import { networkWords } from '../shared/network-reach.js';

/** Who answered, as recorded in history. */
export function actor(how: string): string {
  let user = 'unknown';
  try {
    user = userInfo().username;
  } catch {
    // no passwd entry (containers): keep 'unknown'
  }
  return `${user}@${hostname()} (${how})`;
}

/**
 * The approval as a person reads it: the sentence first, then the program and every argument on its
 * own line exactly as passed, the caller's values marked `<`, fixed hardening flags marked `·`.
 */
export function describePending(
  p: Pick<
    PendingApproval,
    'surface' | 'skill' | 'tool' | 'trust' | 'identity' | 'programPath' | 'argv' | 'supplied' | 'cwd' | 'timeoutMs' | 'env' | 'reason' | 'sandbox'
  >,
  home?: string,
): string {
  const args = shownArguments(p.argv, p.supplied);
  const lines = [
    approvalSentence(p, home),
    `  why       ${p.reason}`,
    `  skill     ${p.skill}/${p.tool}: ${describePin(p.identity)}`,
    ...identityWarnings(p.identity).map((warning) => `  warning   ${warning}`),
    `  sandbox   ${containment(p.sandbox)}${p.sandbox.contained ? ` (${p.sandbox.mechanism ?? ''})` : `: ${p.sandbox.why ?? ''}`}`,
    ...(p.sandbox.network && p.sandbox.contained ? [`  network   ${networkWords(p.sandbox)}`] : []),
    ...boxLines(p.sandbox, home).map((line) => `            ${line}`),
    `  program   ${p.programPath}`,
    ...args.map(
      (a) => `  arg ${String(a.index + 1).padEnd(5)} ${JSON.stringify(a.text)}${a.supplied ? '   < from the caller' : a.hardening ? '   · safety flag' : ''}`,
    ),
    `  cwd       ${p.cwd}`,
    `  timeout   ${p.timeoutMs / 1000} s`,
    `  env       ${p.env.length > 0 ? p.env.join(', ') : '(allow-list only)'}`,
  ];
  return displayLines(lines);
}

/** The terminal's question, offering only the Always answers the request takes. */
function question(pending: PendingApproval): string {
  const folder = pending.rememberScopes.includes('folder');
  const anywhere = pending.rememberScopes.includes('anywhere');
  const choices = [
    '[y] once',
    ...(folder ? ['[a] always in this folder (until revoked)', '[s] always in this folder for this session'] : []),
    ...(anywhere ? ['[any] always in any folder (until revoked)'] : []),
    '[N] deny',
  ];
  return `Run it? ${choices.join(', ')}: `;
}

/** Asks at the terminal; anything but an explicit yes or an offered always is a denial. */
export function terminalApproval(ctx: CliContext): Approver {
  return {
    kind: 'prompt',
    ask: async (pending): Promise<Verdict> => {
      ctx.io.err(describePending(pending, ctx.env.HOME));
      const answer = (await ctx.io.ask(question(pending))).trim().toLowerCase();
      const offers = (scope: 'folder' | 'anywhere'): boolean => pending.rememberScopes.includes(scope);
      if ((answer === 'a' || answer === 'always') && offers('folder'))
        return { verdict: 'always', actor: actor('terminal'), expires: 'revoke', scope: 'folder' };
      if ((answer === 's' || answer === 'session') && offers('folder'))
        return { verdict: 'always', actor: actor('terminal'), expires: 'session', scope: 'folder' };
      if (answer === 'any' && offers('anywhere')) return { verdict: 'always', actor: actor('terminal'), expires: 'revoke', scope: 'anywhere' };
      return { verdict: answer === 'y' || answer === 'yes' ? 'once' : 'deny', actor: actor('terminal') };
    },
  };
}
