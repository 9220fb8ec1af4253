/**
 * The `arbor` command line. `runCli` is the whole program with its world injected (argv, output, env,
 * service factory), so tests run it in-process; `main` wires it to the real process.
 * Exit status: 0 success, 1 failure (one line `arbor: reason` on stderr), 2 bad usage, 130 interrupted.
 */
import { homedir } from 'node:os';
import { ArborError } from '../../shared/errors';
import type { ArborService, ArborServiceOptions } from '../service/service-types';
import { resolveDataDir } from '../service/data-dir';
import { parseGlobalOptions } from './args';
import { UsageError, type CliCommand, type CliContext, type CliIO } from './command';
import { COMMANDS, findCommand } from './commands/index';
import { inertIO } from './inert-output';
import { processIO } from './process-io';
import { version as ARBOR_VERSION } from '../../package.json';

export interface CliOptions {
  /** Defaults to the real service, loaded only when a command needs the store (keeps `--help` fast). */
  readonly createService?: (options: ArborServiceOptions) => Promise<ArborService>;
  /** Aborted by Ctrl-C in the real process. */
  readonly signal?: AbortSignal;
  readonly homeDir?: string;
  readonly platform?: NodeJS.Platform;
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
export const EXIT_INTERRUPTED = 130;

export function globalUsage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const commands = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n');
  return `Usage: arbor [--data-dir DIR] <command> [options]

Browse AI coding-agent sessions as a tree.

Commands:
${commands}

Global options:
  --data-dir DIR  Arbor's data folder (else $ARBOR_DATA_DIR, else the desktop app's folder)
  -h, --help      Show help; \`arbor <command> --help\` shows a command's options
  -V, --version   Print Arbor's version`;
}

export async function runCli(argv: readonly string[], rawIO: CliIO, options: CliOptions = {}): Promise<number> {
  // Every command prints through this: transcript text never drives the terminal (inert-output.ts).
  const io = inertIO(rawIO);
  let command: CliCommand | undefined;
  let service: Promise<ArborService> | undefined;
  const signal = options.signal ?? new AbortController().signal;
  try {
    const global = parseGlobalOptions(argv);
    if (global.command === undefined) {
      if (global.version) {
        io.stdout(`${ARBOR_VERSION}\n`);
        return EXIT_OK;
      }
      if (global.help) {
        io.stdout(`${globalUsage()}\n`);
        return EXIT_OK;
      }
      io.stderr(`${globalUsage()}\n`);
      return EXIT_USAGE;
    }
    command = findCommand(global.command);
    if (command === undefined) {
      io.stderr(`arbor: unknown command "${global.command}"\n\n${globalUsage()}\n`);
      return EXIT_USAGE;
    }
    if (global.help || (command.handlesHelp !== true && wantsHelp(global.args))) {
      io.stdout(`${command.usage}\n`);
      return EXIT_OK;
    }
    const dataDir = resolveDataDir({
      flag: global.dataDir,
      env: io.env,
      platform: options.platform ?? process.platform,
      homeDir: options.homeDir ?? homedir(),
      cwd: io.cwd,
    });
    const serviceOptions: ArborServiceOptions = {
      dataDir,
      // `arbor serve` answers the browser UI, which asks app.info which host it runs in.
      host: command.name === 'serve' ? 'web' : 'cli',
      version: ARBOR_VERSION,
      homeDir: options.homeDir ?? homedir(),
      env: io.env,
      name: `arbor ${command.name}`,
      onWaitForWriter: (message) => io.stderr(`arbor: ${message}\n`),
    };
    const create = options.createService ?? loadRealService;
    const context: CliContext = {
      io,
      signal,
      service: () => (service ??= create(serviceOptions)),
      dataDir,
      homeDir: serviceOptions.homeDir,
    };
    return await command.run(global.args, context);
  } catch (error) {
    return reportFailure(error, io, command, signal);
  } finally {
    if (service !== undefined) await closeQuietly(service);
  }
}

function wantsHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

function reportFailure(error: unknown, io: CliIO, command: CliCommand | undefined, signal: AbortSignal): number {
  if (error instanceof UsageError) {
    io.stderr(`arbor${command === undefined ? '' : ` ${command.name}`}: ${error.message}\n\n${command?.usage ?? globalUsage()}\n`);
    return EXIT_USAGE;
  }
  if (signal.aborted || (error instanceof ArborError && error.code === 'CANCELLED')) {
    io.stderr('arbor: interrupted\n');
    return EXIT_INTERRUPTED;
  }
  if (error instanceof ArborError) {
    io.stderr(`arbor: ${firstLine(error.message)} [${error.code}]\n`);
    return EXIT_FAILURE;
  }
  io.stderr(`arbor: ${firstLine(error instanceof Error ? error.message : String(error))}\n`);
  return EXIT_FAILURE;
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? text;
}

async function closeQuietly(service: Promise<ArborService>): Promise<void> {
  try {
    await (await service).close();
  } catch {
    // Opening failed (already reported) or closing failed after the work was done: nothing useful to add.
  }
}

async function loadRealService(options: ArborServiceOptions): Promise<ArborService> {
  const { createArborService } = await import('../service/arbor-service');
  return createArborService(options);
}

/** The service the CLI opens on `dataDir`: for the lean hook entry (hook-main.ts), which leaves the store to this bundle. */
export function openService(dataDir: string): Promise<ArborService> {
  return loadRealService({ dataDir, host: 'cli', version: ARBOR_VERSION, homeDir: homedir(), env: process.env });
}

/**
 * After Ctrl-C or SIGTERM, how long the command may take to stop (an import links what it committed) before
 * the process exits anyway: nothing it waits for (a read that never returns) may keep it running.
 */
export const STOP_GRACE_MS = 5_000;

/** The real process: stdio, environment, and Ctrl-C / SIGTERM as an abort. */
export async function main(argv: readonly string[]): Promise<number> {
  const controller = new AbortController();
  let interrupts = 0;
  const onSignal = (): void => {
    interrupts++;
    // A second Ctrl-C means "now": do not wait for cleanup.
    if (interrupts > 1) process.exit(EXIT_INTERRUPTED);
    controller.abort();
    // Unref'd: a command that stops in time exits at once; only one held up by pending I/O meets it.
    setTimeout(() => {
      process.stderr.write('arbor: interrupted (did not stop in time)\n');
      process.exit(EXIT_INTERRUPTED);
    }, STOP_GRACE_MS).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // `arbor ls | head` closes the pipe early; that is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(EXIT_OK);
  });
  const io = processIO();
  let code: number;
  try {
    code = await runCli(argv, io, { signal: controller.signal });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  // An interrupted command may leave a read pending in the thread pool (a file that blocks): it must not keep
  // the process alive. What was written is flushed first.
  if (code === EXIT_INTERRUPTED) {
    await Promise.all([process.stdout, process.stderr].map((stream) => new Promise((done) => stream.write('', done))));
    process.exit(code);
  }
  return code;
}
