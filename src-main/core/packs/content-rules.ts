/**
 * What the scan looks for in a pack's text, line by line, each line read as the plain words a
 * shell would run (shell-text.ts), so quote-splitting and escapes hide nothing:
 * - S301: a download run as it arrives (piped into any shell or interpreter, `bash -c "$(curl …)"`,
 *   `source <(wget …)`, `iex (iwr …)`, a language HTTP client whose result is exec'd or eval'd), or
 *   saved to a file that this or another text of the pack runs, sources or makes executable;
 * - S302: decoding or assembling code and running it (base64, xxd, openssl into a shell; eval of
 *   built strings; printf of hex or octal into a command; a command spelled to hide its name);
 * - S310: Markdown telling an assistant to do either; S314: a tool Command that hands an
 *   interpreter inline code; S315 (medium): a download only saved; S316 (medium): credential paths.
 * It is a tripwire for droppers as they are written, not a proof: see docs/packs.md.
 */
import type { ScanFinding } from '../../shared/packs.js';
import { commandOf, isDownloader, isInterpreter, runNames, runsStdin, savedNames, shellWords } from './command-words.js';
import { finding } from './findings.js';
import { proseDropperWhy } from './prose-rules.js';
import { joinedLines, plainLine, readerText, statements } from './shell-text.js';

/** What a line of text is to whoever reads it: run as a script, run as a tool's Command, or read as instructions. */
export type TextRole = 'script' | 'command' | 'prompt';

/** A file a download is saved to, or a file a line runs: by base name, with where. */
export interface PathUse {
  name: string;
  file: string;
  line: number;
  excerpt: string;
}

/** What one text holds: its findings, and the downloads it saves and files it runs (linked pack-wide by `linkDownloads`). */
export interface TextScan {
  findings: ScanFinding[];
  saves: PathUse[];
  runs: PathUse[];
}

const DOWNLOAD_COMMAND = String.raw`(?:sudo\s+(?:-\S+\s+)*)?(?:busybox\s+)?(?:[\w.-]*/)*(?:curl|wget|fetch|aria2c|http|https|xh|iwr|invoke-webrequest|irm|invoke-restmethod)(?:\.exe)?(?![\w:/.-])`;
/** Running a download it never saves: `bash <(curl …)`, `sh -c "$(wget -O- …)"`, `eval "$(curl …)"`, `python3 <(curl …)`. */
const SUBSTITUTED_DOWNLOAD = new RegExp(
  String.raw`(?:^|[\s;&|(])(?:source|\.|eval|(?:[\w.-]*/)*(?:(?:ba|z|da|k|a)?sh|python[0-9.]*|perl|ruby|node|php))(?:\s+-\S+)*\s+(?:<\(|\$\(|\x60)\s*${DOWNLOAD_COMMAND}`,
  'i',
);
/** PowerShell's own: `iex (iwr …)`, `iex (New-Object Net.WebClient).DownloadString(…)`. */
const POWERSHELL_DOWNLOAD = /\b(?:iex|invoke-expression)\b[^\n]*(?:\b(?:iwr|irm|invoke-webrequest|invoke-restmethod)\b|downloadstring|net\.webclient)/i;
/** A language's HTTP client. */
const LANGUAGE_FETCH =
  /\b(?:urlopen|require\(\s*(?:node:)?https?\s*\)|urlretrieve|requests\.(?:get|post)|httpx\.(?:get|post|stream)|http\.client|https?\.(?:get|request)\s*\(|fetch\s*\(|axios(?:\.get)?\s*\(|XMLHttpRequest|Net::HTTP|open-uri|URI\.open|DownloadString|DownloadData|WebClient|HttpClient|curl_exec|file_get_contents\s*\(\s*https?:)|LWP::(?:Simple|UserAgent)|HTTP::Tiny/i;
/** A language running a string as code (not `regex.exec`, not a shell's `exec`). */
const CODE_EVAL =
  /(?:^|[^\w.$])(?:eval|exec)\s*\(|(?:^|[^\w.$])eval\s+(?!["'$]?\()\S|\bnew\s+Function\s*\(|\bvm\.runIn\w+|\binstance_eval\b|\bInvoke-Expression\b|\biex\b/i;

/** Decoding something into code: each matches within one plain line. */
const DECODE_AND_EXECUTE: RegExp[] = [
  /\beval\b\s*(?:\$\(|`|\$\{)/,
  /\beval\b[^\n]*\b(?:base64|b64decode|atob|fromcharcode|decode)\b/i,
  /\b(?:exec|eval)\s*\(\s*(?:__import__\(\s*base64|base64\.b64decode|b64decode|codecs\.decode|bytes\.fromhex|compile\()/i,
  /\b(?:eval|Function)\s*\(\s*(?:atob|Buffer\.from)\s*\(/,
  /(?:^|\s)-(?:e|ec|enc|encodedcommand)\s+[A-Za-z0-9+/=]{40,}/i,
];
/** `eval "$a$b"`: code assembled from pieces, then run. */
const EVAL_BUILT = /\beval\s+\S*\$\{?\w+\}?\S*\$\{?\w+/;
/** A command name made of expansions glued together or to letters (`$a$b`, `c${x}rl`), not one variable (`$PYTHON`) or a path. */
function builtName(word: string): boolean {
  // Letters, digits, `_` and `-` between the expansions: `$x.Count`, `[int]$n`, `$n++` are a language's own syntax, no command name.
  if (!/^(?:[\w-]|\$\{\w+\}|\$[A-Za-z_]\w*|\$\d)+$/.test(word)) return false;
  const pieces = word.match(/\$\{\w+\}|\$[A-Za-z_]\w*|\$\d|[^$]+/g) ?? [];
  const expansions = pieces.filter((p) => p.startsWith('$')).length;
  return expansions >= 2 || (expansions >= 1 && pieces.length > expansions);
}
/** Two hex or octal escapes: how printf spells a command. */
const ESCAPED = /(?:\\x[0-9a-fA-F]{2}|\\0?[0-7]{3})[^\s]*?(?:\\x[0-9a-fA-F]{2}|\\0?[0-7]{3})/;
/** Words worth hiding; one that appears only once the line is read plainly was spelled to hide. */
const TELLING_WORDS =
  /\b(?:curl|wget|bash|sh|dash|zsh|python[0-9.]*|perl|ruby|node|eval|exec|base64|xxd|openssl|nc|ncat|socat|chmod|iex|powershell|pwsh|rm)\b/g;
/** Programs that turn data back into text. */
const DECODERS = /^(?:base64|base32|basenc|xxd|openssl|gunzip|gzip|zcat|bzcat|xzcat|unxz|rev|tr|uudecode)$/;

/** Paths holding credentials: keys, cloud and registry tokens, shell histories, browser profiles. */
const CREDENTIALS =
  /(?:^|[\s/\\(,=:~])\.(?:ssh|aws|azure|gnupg|kube|netrc|git-credentials|npmrc|pypirc|pgpass|password-store|bash_history|zsh_history|python_history|psql_history|mysql_history|node_repl_history|docker[/\\]config\.json|config[/\\](?:gcloud|gh[/\\]hosts|google-chrome|chromium|BraveSoftware|microsoft-edge)|mozilla[/\\]firefox)\b|Library[/\\]Application Support[/\\](?:Google[/\\]Chrome|Firefox|BraveSoftware|Microsoft Edge)|AppData[/\\](?:Local|Roaming)[/\\](?:Google[/\\]Chrome|Mozilla|Microsoft[/\\]Edge)|Library[/\\]Keychains|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|Login Data|\bkey[34]\.db\b|\blogins\.json\b|\bcookies\.sqlite\b/i;

/** A bare `eval`: not always malicious, always worth a look. */
const BARE_EVAL = /(?:^|[\s;&|(])eval\b/;

const matchAll = (text: string): Set<string> => new Set([...text.matchAll(TELLING_WORDS)].map((m) => m[0]));

/** A shell handed to the network by a language: a socket, then its descriptors given to a shell or a process. */
const LANGUAGE_SHELL =
  /(?:socket\.socket|\bsocket\(|fsockopen|TCPSocket|TCPClient|net\.connect|new\s+net\.Socket|IO::Socket|use\s+Socket)[^\n]*(?:dup2|pty\.spawn|subprocess|\/bin\/(?:ba)?sh\b|cmd\.exe|\bexec\s*\(|\bspawn\s*\(|proc_open|shell_exec|popen|\bsystem\s*\()/i;
const NETCAT = /^(?:nc|ncat|netcat|nc\.\w+|telnet|socat)$/;
/** A segment that talks to the network: netcat and its kin, or openssl as a TLS client or server. */
const talksToNetwork = (words: readonly string[]): boolean =>
  NETCAT.test(commandOf(words)?.name ?? '') || (commandOf(words)?.name === 'openssl' && words.some((w) => /^s_(?:client|server)$/.test(w)));

/** How a line hands a shell to the network (a reverse or bind shell), in words, or null. */
function networkShellOf(plain: string, pipelines: string[][][]): string | null {
  if (/\/dev\/(?:tcp|udp)\/[^/\s]+\/\w+/.test(plain)) return "opens a /dev/tcp connection, the shell's own socket";
  // Most lines name no network program and no socket: they need no closer look.
  if (!/\b(?:nc|ncat|netcat|telnet|socat|s_client|s_server)\b|socket|tcpclient|net\.connect/i.test(plain)) return null;
  for (const pipeline of pipelines) {
    const net = pipeline.find(talksToNetwork);
    if (net === undefined) continue;
    if (/^n/.test(commandOf(net)?.name ?? '') && net.some((w) => /^(?:-[A-Za-z]*[ec]|--exec|--sh-exec|--lua-exec)$/.test(w)))
      return `hands a program to ${commandOf(net)?.name} to run for the network`;
    if (pipeline.some((words) => words !== net && runsStdin(words) && /sh$/.test(commandOf(words)?.name ?? '')))
      return `pipes a shell to and from ${commandOf(net)?.name}`;
  }
  if (/\bsocat\b[^\n]*\b(?:exec|system):/i.test(plain)) return "runs a program for socat's connection";
  if (LANGUAGE_SHELL.test(plain)) return 'gives a socket to a shell or a process';
  return null;
}

/** A line's pipelines as the shell runs them, `sh -c "…"` opened up. */
function pipelinesOf(plain: string): string[][][] {
  return statements(plain).map((pipeline) => pipeline.map((words) => [...shellWords(words)]));
}

/**
 * What a line does that is high-severity, in words, with the code; null when nothing. In
 * instructions (`loose`) a downloader anywhere in a segment counts: a sentence leads up to it; and
 * how a word is spelled is no shell's concern there (`$schema`, `$8000-$8FFF` are no commands).
 */
function highOf(raw: string, plain: string, pipelines: string[][][], loose: boolean): { code: 'S301' | 'S302'; what: string } | null {
  for (const pipeline of pipelines) {
    const source = pipeline.findIndex((words) => {
      const command = commandOf(words);
      return loose ? words.some((w) => isDownloader(w.toLowerCase())) : command !== null && isDownloader(command.name);
    });
    const sink = pipeline.findIndex((words, i) => i > 0 && runsStdin(words));
    if (source !== -1 && sink > source) return { code: 'S301', what: `pipes a download into ${commandOf(pipeline[sink] as string[])?.name}` };
    const decoder = pipeline.findIndex(
      (words) => DECODERS.test(commandOf(words)?.name ?? '') || (/^(?:printf|echo)$/.test(commandOf(words)?.name ?? '') && ESCAPED.test(raw)),
    );
    if (decoder !== -1 && sink > decoder)
      return { code: 'S302', what: `pipes what ${commandOf(pipeline[decoder] as string[])?.name} decodes into ${commandOf(pipeline[sink] as string[])?.name}` };
  }
  if (SUBSTITUTED_DOWNLOAD.test(plain) || POWERSHELL_DOWNLOAD.test(plain)) return { code: 'S301', what: 'runs a download it never saves' };
  if (LANGUAGE_FETCH.test(plain) && CODE_EVAL.test(plain)) return { code: 'S301', what: 'evaluates code it downloads' };
  if (DECODE_AND_EXECUTE.some((re) => re.test(plain))) return { code: 'S302', what: 'runs something it decodes' };
  if (EVAL_BUILT.test(plain)) return { code: 'S302', what: 'evaluates a string it assembles from pieces' };
  if (/(?:\$\(|`)\s*(?:printf|echo\s+-\w*e)\s/.test(raw) && ESCAPED.test(raw)) return { code: 'S302', what: 'prints hex or octal escapes into a command' };
  if (loose) return null;
  for (const pipeline of pipelines) {
    for (const words of pipeline) {
      const command = commandOf(words);
      if (command !== null && builtName(words[command.at] as string))
        return { code: 'S302', what: `runs a command whose name is built from variables (${words[command.at]})` };
    }
  }
  const rawWords = matchAll(raw);
  const hidden = [...matchAll(plain)].filter((w) => !rawWords.has(w));
  if (hidden.length > 0) return { code: 'S302', what: `spells ${hidden.join(', ')} to hide ${hidden.length === 1 ? 'it' : 'them'}` };
  return null;
}

/** The saves and runs of a line's pipelines. */
function pathUses(pipelines: string[][][], file: string, line: number, excerpt: string): { saves: PathUse[]; runs: PathUse[] } {
  const use = (name: string): PathUse => ({ name, file, line, excerpt });
  const saves = pipelines.flatMap((pipeline) => savedNames(pipeline).map(use));
  const runs = pipelines.flatMap((pipeline) =>
    pipeline
      .filter((words) => !isDownloader(commandOf(words)?.name ?? ''))
      .flatMap((words) =>
        runNames(words)
          .filter((n) => n !== '')
          .map(use),
      ),
  );
  return { saves, runs };
}

/** A line of instructions as an assistant reads it: lookalikes folded, invisible characters gone, Markdown's code-span backticks no shell's. */
const readAsProse = (raw: string): string => readerText(raw).replace(/`/g, ' ');

/** What a line of instructions tells an assistant to do that is a dropper, or null. */
function proseWhy(line: string, plain: string, pipelines: string[][][], uses: { saves: PathUse[]; runs: PathUse[] }): string | null {
  const high = highOf(line, plain, pipelines, true);
  if (high !== null) return high.code === 'S301' ? 'fetch something from the network and run it' : 'decode something and run it';
  if (uses.runs.some((r) => uses.saves.some((s) => s.name === r.name && s.name !== ''))) return 'fetch something from the network and run it';
  const shell = networkShellOf(plain, pipelines);
  if (shell !== null) return `connect a shell to the network (it ${shell})`;
  return proseDropperWhy(line, pipelines);
}

/** The files a line of instructions runs as a command would (to an interpreter, sourced, made executable, by path: `./x`); a sentence's first word is none. */
function proseRuns(pipelines: string[][][]): string[] {
  return pipelines.flatMap((pipeline) =>
    pipeline
      .filter((words) => {
        const command = commandOf(words);
        return (
          command !== null && (isInterpreter(command.name) || ['.', 'source', 'chmod'].includes(command.name) || /[/\\]/.test(words[command.at] as string))
        );
      })
      .flatMap(runNames),
  );
}

/** Findings for one text file (or one SKILL.md), each with its line, and what it downloads and runs. */
export function scanText(file: string, text: string, role: (line: number) => TextRole): TextScan {
  const out: TextScan = { findings: [], saves: [], runs: [] };
  const lines = joinedLines(text);
  // A script that fetches with a language's HTTP client anywhere, and evaluates code anywhere, runs what it fetches.
  const fetches = lines.some((line, index) => role(index + 1) === 'script' && LANGUAGE_FETCH.test(plainLine(line)));
  // Instructions that save a download on one line and run it on another (a code fence of two lines) tell the same as one line.
  const proseSaves: PathUse[] = [];
  lines.forEach((written, index) => {
    const lineNo = index + 1;
    const excerpt = written.trim();
    if (excerpt === '') return;
    const as = role(lineNo);
    const raw = as === 'prompt' ? readAsProse(written) : written;
    const plain = plainLine(raw);
    const pipelines = pipelinesOf(plain);
    const uses = pathUses(pipelines, file, lineNo, excerpt);
    const who = as === 'command' ? 'a tool' : 'a script';
    if (as === 'prompt') {
      const why =
        proseWhy(raw, plain, pipelines, uses) ??
        (proseSaves.length > 0 && proseRuns(pipelines).some((name) => proseSaves.some((s) => s.name === name))
          ? 'fetch something from the network and run it'
          : null);
      if (why !== null) out.findings.push(finding('S310', file, `instructions telling an assistant to ${why}`, { line: lineNo, excerpt }));
      // Only a downloader's own words naming a URL: a sentence's other words are no file names.
      const fetching = pipelines.filter((p) => p.some((words) => isDownloader(commandOf(words)?.name ?? '') && words.some((w) => w.includes('://'))));
      proseSaves.push(...pathUses(fetching, file, lineNo, excerpt).saves.filter((s) => s.name !== ''));
      return;
    }
    const shell = networkShellOf(plain, pipelines);
    const high = highOf(raw, plain, pipelines, false);
    // A download this very line pipes into an interpreter is run already: what it also keeps is no mere save.
    if (high?.code !== 'S301') out.saves.push(...uses.saves);
    out.runs.push(...uses.runs);
    if (shell !== null) out.findings.push(finding('S319', file, `${who} ${shell}: a shell anyone on the network can drive`, { line: lineNo, excerpt }));
    if (high !== null) {
      const message =
        high.code === 'S301' && high.what.startsWith('pipes a download')
          ? `${who} runs something it downloads, unseen (${high.what})`
          : high.code === 'S302' && high.what.startsWith('runs something it decodes')
            ? `${who} runs something it decodes, unseen`
            : `${who} ${high.what}`;
      out.findings.push(finding(high.code, file, message, { line: lineNo, excerpt }));
    } else if (as === 'script' && fetches && CODE_EVAL.test(plain)) {
      out.findings.push(
        finding('S301', file, `${who} evaluates code, and fetches from the network: what it runs may be what it downloads`, { line: lineNo, excerpt }),
      );
    } else if (CREDENTIALS.test(plain)) {
      out.findings.push(
        finding('S316', file, `${who} reads a path where credentials live (keys, tokens, histories, browser profiles)`, { line: lineNo, excerpt }),
      );
    } else if (BARE_EVAL.test(raw)) {
      out.findings.push(finding('S302', file, 'evaluates text as code (eval): check what it evaluates', { line: lineNo, excerpt, severity: 'medium' }));
    }
  });
  return out;
}

/**
 * The pack-wide link between downloads and runs: a file one text saves a download to and any text
 * runs, sources or makes executable is S301 where it runs; a download nothing runs is S315.
 */
export function linkDownloads(scans: readonly TextScan[]): ScanFinding[] {
  const saves = scans.flatMap((s) => s.saves);
  const runs = scans.flatMap((s) => s.runs);
  const findings: ScanFinding[] = [];
  for (const run of runs) {
    const saved = saves.find((s) => s.name !== '' && s.name === run.name);
    if (saved !== undefined)
      findings.push(
        finding('S301', run.file, `runs ${run.name}, which ${saved.file}:${saved.line} downloads: code nobody has read`, {
          line: run.line,
          excerpt: run.excerpt,
        }),
      );
  }
  for (const save of saves) {
    if (runs.some((r) => r.name === save.name && save.name !== '')) continue;
    findings.push(
      finding('S315', save.file, `downloads ${save.name === '' ? 'a file' : save.name} and keeps it: check what reads it`, {
        line: save.line,
        excerpt: save.excerpt,
      }),
    );
  }
  return findings;
}

/** Whether a text downloads anything (a downloader program, a language HTTP client). */
export function downloads(text: string): boolean {
  return text.split('\n').some((line) => {
    const plain = plainLine(line);
    return LANGUAGE_FETCH.test(plain) || pipelinesOf(plain).some((p) => p.some((words) => isDownloader(commandOf(words)?.name ?? '')));
  });
}
