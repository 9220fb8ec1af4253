/** Argument parsing for the CLI: global options anywhere on the line, then per-command options via util.parseArgs. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './command';

export interface GlobalOptions {
  readonly dataDir?: string;
  readonly help: boolean;
  readonly version: boolean;
  /** The command name, when one was given. */
  readonly command?: string;
  /** Everything after the command name except the global options. */
  readonly args: readonly string[];
}

/**
 * Splits the line into global options and the command. `--data-dir` may come before or after the command
 * name (`arbor ls --data-dir D` and `arbor --data-dir D ls` both work); `--help` is left for the command
 * when a command was named. Anything after `--` is passed through untouched.
 */
export function parseGlobalOptions(argv: readonly string[]): GlobalOptions {
  let dataDir: string | undefined;
  let help = false;
  let version = false;
  let command: string | undefined;
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      args.push(...argv.slice(i));
      break;
    }
    if (arg === '--data-dir') {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith('-')) throw new UsageError('--data-dir needs a folder');
      dataDir = value;
      i++;
      continue;
    }
    if (arg.startsWith('--data-dir=')) {
      dataDir = arg.slice('--data-dir='.length);
      if (dataDir === '') throw new UsageError('--data-dir needs a folder');
      continue;
    }
    if (command === undefined) {
      if (arg === '--help' || arg === '-h') help = true;
      else if (arg === '--version' || arg === '-V') version = true;
      else if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg}`);
      else command = arg;
      continue;
    }
    args.push(arg);
  }
  return { ...(dataDir === undefined ? {} : { dataDir }), help, version, ...(command === undefined ? {} : { command }), args };
}

type OptionSpec = Readonly<Record<string, { readonly type: 'boolean' | 'string'; readonly short?: string }>>;

export interface ParsedCommandArgs<S extends OptionSpec> {
  readonly values: { readonly [K in keyof S]?: S[K]['type'] extends 'boolean' ? boolean : string };
  readonly positionals: readonly string[];
}

/** Strict parsing: an unknown option or a wrong number of arguments is bad usage (exit 2). */
export function parseCommandArgs<S extends OptionSpec>(
  args: readonly string[],
  options: S,
  positionals: { readonly min: number; readonly max: number },
): ParsedCommandArgs<S> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...args], options: options as ParseArgsConfig['options'], allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(describeParseError(error));
  }
  const count = parsed.positionals.length;
  if (count < positionals.min) throw new UsageError(positionals.min === 1 ? 'missing argument' : `expected at least ${positionals.min} arguments`);
  if (count > positionals.max) throw new UsageError(`unexpected argument ${JSON.stringify(parsed.positionals[positionals.max])}`);
  return { values: parsed.values as ParsedCommandArgs<S>['values'], positionals: parsed.positionals };
}

/** A whole non-negative number option, e.g. `--port 8080`, `--limit 20`. */
export function integerOption(name: string, value: string | undefined, range: { min: number; max: number }): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} needs a whole number`);
  const n = Number(value);
  if (n < range.min || n > range.max) throw new UsageError(`--${name} must be between ${range.min} and ${range.max}`);
  return n;
}

/** util.parseArgs explains at length; one short line is enough on a terminal. */
function describeParseError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const unknown = /Unknown option '([^']+)'/.exec(message);
  if (unknown !== null) return `unknown option ${unknown[1]}`;
  const missing = /Option '(?:-\w, )?(--[\w-]+) <value>' argument missing/.exec(message);
  if (missing !== null) return `${missing[1]} needs a value`;
  return message.split('\n')[0] ?? 'bad arguments';
}
