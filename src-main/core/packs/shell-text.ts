/**
 * How the scan reads a line of shell-like text the way a shell would see its words, so spelling
 * cannot hide a command: quote-splitting (`c""url`, `'cu'rl`), backslashes (`c\url`), ANSI-C
 * strings (`$'\x63url'`), hex and octal escapes, and `$(printf curl)` all read as `curl`. Then a
 * line splits into statements (`;`, `&&`, `||`, subshells), pipelines (`|`) and words.
 */

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', f: '\f', v: '\v' };

/** `\xHH`, `\NNN` (octal, optionally `\0NNN`), `\uHHHH` — and, inside `$'…'`, the one-letter escapes — decoded. */
function decodeEscapes(text: string, letters: boolean): string {
  return text.replace(
    letters ? /\\(x[0-9a-fA-F]{1,2}|0?[0-7]{3}|u[0-9a-fA-F]{4}|[ntrabefv])/g : /\\(x[0-9a-fA-F]{1,2}|0?[0-7]{3}|u[0-9a-fA-F]{4})/g,
    (_, code: string) => {
      if (code.startsWith('x') || code.startsWith('u')) return String.fromCharCode(Number.parseInt(code.slice(1), 16));
      if (/^[0-7]/.test(code)) return String.fromCharCode(Number.parseInt(code, 8) & 0xff);
      return ESCAPES[code] ?? code;
    },
  );
}

/**
 * The line as the words a shell would run: escapes decoded, quotes gone, backslashes inside a bare
 * word gone (`c\url`; not in `.\a.ps1` or `$env:TEMP\a.ps1`, Windows paths), `$(printf word)`
 * replaced by the word.
 */
export function plainLine(line: string): string {
  // `$IFS` (and `${IFS}`, `${IFS%?}`, `$IFS$9`) is how a shell spells a space without one.
  let text = line.replace(/\$\{IFS[^}]*\}|\$IFS(?:\$\d)?/g, ' ');
  text = text.replace(/\$'((?:[^'\\]|\\.)*)'/g, (_, body: string) => decodeEscapes(body, true));
  // printf and echo -e decode these too, which is how they spell a command.
  text = decodeEscapes(text, false).replace(/["']/g, '');
  text = text.replace(/(^|[\s;&|(){}=<>`])([\w-]*\\[\w\\-]*)/g, (_, before: string, word: string) => before + word.replace(/\\/g, ''));
  // What printf or echo prints in a command substitution is the word the shell runs.
  return text.replace(/(?:\$\(|`)\s*(?:printf|echo(?:\s+-[neE]+)*)\s+([\w./-]+)\s*(?:\)|`)/g, '$1');
}

/**
 * The lines of a text with each backslash-newline continuation joined onto the line it continues
 * (as a shell reads them); a joined line keeps its first line's number and the lines it absorbed
 * are left empty, so every line keeps its number.
 */
export function joinedLines(text: string): string[] {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length - 1; i++) {
    let at = i;
    while (at < lines.length - 1 && /(?:^|[^\\])(?:\\\\)*\\$/.test(lines[i] as string)) {
      at++;
      lines[i] = `${(lines[i] as string).slice(0, -1)} ${lines[at] as string}`;
      lines[at] = '';
    }
    i = at;
  }
  return lines;
}

/** Letters of other scripts that read as Latin ones (Cyrillic, Greek, Armenian), as a reader would read them. */
const LOOKALIKES = new Map(
  [...'аaеeёeіiјjоoрpсcѕsуyхxԁdԛqԝwһhӏlιiνvοoρpϲcϳjօoսuհhɡgАAВBЕEКKМMНHОOРPСCТTХXΑAΒBΕEΗHΙIΚKΜMΝNΟOΡPΤTΧXΥY'.matchAll(/(.)(.)/gu)].map((m) => [
    m[1] as string,
    m[2] as string,
  ]),
);

/**
 * Text as a reader (an assistant) reads it: compatibility forms folded (fullwidth `ｃｕｒｌ ｜ ｓｈ`,
 * mathematical letters), invisible format characters (zero-width spaces and joiners, bidi marks)
 * dropped, and lookalike letters of other scripts read as the Latin ones they look like.
 */
export function readerText(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/\p{Cf}/gu, '')
    .replace(/[^ -~\t]/g, (ch) => LOOKALIKES.get(ch) ?? ch);
}

/** A statement's pipelines split into words, for the plain text of one line. */
export function statements(plain: string): string[][][] {
  return plain
    .replace(/\$\(|[`(){}]|<\(/g, ';')
    .split(/;|&&|\|\||(?<!\S)(?:then|do|else)(?!\S)/)
    .map((statement) =>
      statement.split('|').map((segment) =>
        segment
          .trim()
          .split(/\s+/)
          .filter((w) => w !== ''),
      ),
    )
    .filter((pipeline) => pipeline.some((words) => words.length > 0));
}

/** The last path segment of a word (`$HOME/.cache/x.sh` → `x.sh`, `.\a.ps1` → `a.ps1`). */
export function baseName(word: string): string {
  return (
    word
      .split(/[/\\]/)
      .filter((s) => s !== '')
      .at(-1) ?? ''
  );
}
