/**
 * Terminal output is inert: transcript text (prompts, replies, tool output, titles, file names) reaches
 * `arbor`'s stdout and stderr, and a terminal obeys what it reads — OSC 52 writes the clipboard, OSC 0/2 set
 * the window title, OSC 8 plants links, CSI moves the cursor, C1 bytes do the same in 8 bits, bidi overrides
 * reorder what is shown. runCli wraps every command's CliIO in `inertIO`, so no command can forget.
 *
 * Escaping is visible, never silent: C0 controls (all but newline and tab) become their Control Pictures
 * (ESC → ␛, BEL → ␇, CR → ␍), which JSON output never holds raw (JSON.stringify writes \u001b); DEL, C1
 * and bidi controls become the six characters `\u0085`, which is also exactly how JSON spells them, so
 * `--json` output stays valid and decodes to the same strings.
 */
import type { CliIO } from './command';

// One pass over the text; a string without any of these (nearly all output) is returned as it is.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const HAS_UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const CONTROL_PICTURES = 0x2400;

/** `text` with every control character but `\n` and `\t` shown instead of obeyed. */
export function inertText(text: string): string {
  if (!HAS_UNSAFE.test(text)) return text;
  return text.replace(UNSAFE, (char) => {
    const code = char.charCodeAt(0);
    if (code < 0x20) return String.fromCharCode(CONTROL_PICTURES + code);
    return `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/**
 * Arbor's own progress line (`\r`, erase line, text) on an interactive stderr: the prefix is ours and kept,
 * the text after it (a file name, a session title) is escaped like any other.
 */
const PROGRESS_PREFIX = '\r\x1b[K';

/**
 * The same CliIO with inert output. Bytes (`arbor cat`, `merge-file -p`: a file's exact content) pass
 * through unchanged into a pipe or a file, where they are data; on a terminal they are shown as text, escaped.
 */
export function inertIO(io: CliIO): CliIO {
  return {
    ...io,
    stdout: (output) => {
      if (typeof output === 'string') io.stdout(inertText(output));
      else if (io.stdoutIsTerminal === true) io.stdout(inertText(Buffer.from(output).toString('utf8')));
      else io.stdout(output);
    },
    stderr: (text) => {
      if (io.interactive && text.startsWith(PROGRESS_PREFIX)) io.stderr(PROGRESS_PREFIX + inertText(text.slice(PROGRESS_PREFIX.length)));
      else io.stderr(inertText(text));
    },
  };
}
