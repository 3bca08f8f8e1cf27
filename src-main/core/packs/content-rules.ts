/**
 * What the scan looks for in a pack's text, line by line: fetching something and running it
 * (`curl … | sh`, `wget -O- … | bash`, `iwr … | iex`, `bash <(curl …)`, download then run),
 * decoding something and running it (`base64 -d | sh`, `eval "$(…)"`, `exec(b64decode(…))`), and,
 * in Markdown an assistant reads as instructions, either of those told as a step to take.
 */
import type { ScanFinding } from '../../shared/packs.js';
import { finding } from './findings.js';

const DOWNLOADER = String.raw`(?:curl|wget|fetch|iwr|invoke-webrequest|irm|invoke-restmethod|http(?:ie)?|aria2c)`;
const INTERPRETER = String.raw`(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+)?(?:(?:ba|z|da|k|fi|c|tc)?sh|python[0-9.]*|perl|ruby|node|php|iex|invoke-expression|pwsh|powershell)\b`;

/** Fetch-and-run shapes; each matches within one line. */
const DOWNLOAD_AND_EXECUTE: RegExp[] = [
  // curl … | sh, wget -O- … | bash, iwr … | iex
  new RegExp(String.raw`\b${DOWNLOADER}\b[^\n]*\|\s*${INTERPRETER}`, 'i'),
  // bash <(curl …), sh -c "$(curl …)", source <(wget …)
  new RegExp(String.raw`(?:\b(?:ba|z|da|k)?sh\b|\bsource\b|(?:^|\s)\.)\s+(?:-c\s+)?["']?(?:<\(|\$\(|\x60)\s*${DOWNLOADER}\b`, 'i'),
  // iex (iwr …), iex (New-Object Net.WebClient).DownloadString(…)
  /\b(?:iex|invoke-expression)\b[^\n]*(?:\b(?:iwr|irm|invoke-webrequest|invoke-restmethod)\b|downloadstring|net\.webclient)/i,
  // curl -o x … && sh x, wget … ; chmod +x x && ./x
  new RegExp(String.raw`\b${DOWNLOADER}\b[^\n]*(?:&&|;)\s*(?:${INTERPRETER}|chmod\s+[+0-7]*x|\./)`, 'i'),
];

/** Decode-and-run shapes. */
const DECODE_AND_EXECUTE: RegExp[] = [
  new RegExp(String.raw`\bbase(?:64|32)\s+(?:-d|--decode|-D)\b[^\n]*\|\s*${INTERPRETER}`, 'i'),
  new RegExp(String.raw`\b(?:xxd\s+-r|openssl\s+(?:enc\s+)?-d|gunzip|zcat|rev)\b[^\n]*\|\s*${INTERPRETER}`, 'i'),
  /\beval\b\s*["'(]?\s*(?:\$\(|`|\$\{)/,
  /\beval\b[^\n]*\b(?:base64|b64decode|atob|fromcharcode|decode)\b/i,
  /\b(?:exec|eval)\s*\(\s*(?:__import__\(\s*["']base64|base64\.b64decode|b64decode|codecs\.decode|bytes\.fromhex|compile\()/i,
  /\b(?:eval|Function)\s*\(\s*(?:atob|Buffer\.from)\s*\(/,
  /-(?:e|enc|encodedcommand)\s+[A-Za-z0-9+/=]{40,}/i,
];

/** A bare `eval`: not always malicious, always worth a look. */
const BARE_EVAL = /(?:^|[\s;&|(])eval\b/;

/** What a line of text is to whoever reads it: run as a script, or read as instructions. */
export type TextRole = 'script' | 'command' | 'prompt';

/** Findings for one text file (or one SKILL.md), each with its line. */
export function scanText(file: string, text: string, role: (line: number) => TextRole): ScanFinding[] {
  const findings: ScanFinding[] = [];
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    const lineNo = index + 1;
    const excerpt = line.trim();
    const as = role(lineNo);
    const download = DOWNLOAD_AND_EXECUTE.some((re) => re.test(line));
    const decode = !download && DECODE_AND_EXECUTE.some((re) => re.test(line));
    if (as === 'prompt' && (download || decode)) {
      const what = download ? 'fetch something from the network and run it' : 'decode something and run it';
      findings.push(finding('S310', file, `instructions telling an assistant to ${what}`, { line: lineNo, excerpt }));
    } else if (download) {
      findings.push(finding('S301', file, `${as === 'command' ? 'a tool runs' : 'a script runs'} something it downloads, unseen`, { line: lineNo, excerpt }));
    } else if (decode) {
      findings.push(finding('S302', file, `${as === 'command' ? 'a tool runs' : 'a script runs'} something it decodes, unseen`, { line: lineNo, excerpt }));
    } else if (as !== 'prompt' && BARE_EVAL.test(line)) {
      findings.push(finding('S302', file, 'evaluates text as code (eval): check what it evaluates', { line: lineNo, excerpt, severity: 'medium' }));
    }
  });
  return findings;
}
