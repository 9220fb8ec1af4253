/** The real process as the CLI sees it (every entry uses it: main.ts, merge-file-main.ts, hook-main.ts). */
import type { CliIO } from './command';

export function processIO(): CliIO {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    stdin: process.stdin,
    cwd: process.cwd(),
    env: process.env,
    interactive: process.stderr.isTTY === true,
    stdoutIsTerminal: process.stdout.isTTY === true,
  };
}
