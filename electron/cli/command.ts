/**
 * One CLI command per file in electron/cli/commands/, registered in electron/cli/commands/index.ts.
 * Exit status: 0 success, 1 failure (one-line reason on stderr), 2 bad usage (throw UsageError).
 */
import type { ArborService } from '../service/service-types';

export interface CliIO {
  /** Text is written as UTF-8; bytes pass through unchanged (merge-file -p of non-UTF-8 files). */
  readonly stdout: (output: string | Uint8Array) => void;
  readonly stderr: (text: string) => void;
  readonly stdin: NodeJS.ReadableStream;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** True when stderr is a terminal: progress lines are printed only then. */
  readonly interactive: boolean;
  /** True when stdout is a terminal: bytes (a file's content) are then shown escaped (inert-output.ts). */
  readonly stdoutIsTerminal?: boolean;
}

export interface CliContext {
  readonly io: CliIO;
  /** Opens the store on first use (commands like merge-file never touch it). */
  service(): Promise<ArborService>;
  readonly signal: AbortSignal;
  /** Arbor's data folder and the user's home as runCli resolved them (injected: tests never touch `~`). */
  readonly dataDir?: string;
  readonly homeDir?: string;
}

export interface CliCommand {
  readonly name: string;
  /** One line for `arbor --help`. */
  readonly summary: string;
  /** Full `arbor <name> --help` text. */
  readonly usage: string;
  /** It answers `-h` and `--help` among its arguments itself (merge-file: git's statuses, in both entries). */
  readonly handlesHelp?: true;
  /** `args` excludes the command name and the global options (--data-dir). */
  run(args: readonly string[], context: CliContext): Promise<number>;
}

/** Bad usage: the CLI prints the message and the command's usage, and exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
