/**
 * Options parsed as git's parse-options parses them, for a command that stands in for a git command
 * (`arbor merge-file`), so a line that works with git works here: short flags bundled (`-pq`, `-pLname`),
 * a long option shortened to any unambiguous prefix (`--stdo`, `--zdiff`), `--no-<name>` (also
 * shortened), values as `--name=v`, `--name v`, `-Lv` or `-L v` (the next argument whatever it
 * looks like), options and files in any order, `--` ending the options. Messages are git's (2.39).
 */

export interface GitOption {
  readonly long?: string;
  readonly short?: string;
  /** Takes a value. */
  readonly value?: boolean;
  /** `--no-<long>` undoes it (every long option in git unless marked otherwise). */
  readonly negatable?: boolean;
  /**
   * Applies one occurrence: `value` is undefined for a flag and for `--no-…`. Returns an error
   * message (git's wording, without "error: ") when the value is wrong.
   */
  readonly set: (value: string | undefined, negated: boolean) => string | undefined;
}

export type GitOptionsResult =
  | { readonly kind: 'parsed'; readonly positionals: readonly string[] }
  /** `-h` (or `--help-all`): git prints the usage on stdout and exits 129. */
  | { readonly kind: 'help' }
  /** `--help`: git shows the command's manual page. */
  | { readonly kind: 'manual' }
  /** A line git refuses: one line, exit 129. */
  | { readonly kind: 'error'; readonly message: string };

class OptionError extends Error {}

function optionName(option: GitOption, how: 'short' | 'long' | 'negated'): string {
  if (how === 'short') return `switch \`${option.short}'`;
  return `option \`${how === 'negated' ? 'no-' : ''}${option.long}'`;
}

interface Found {
  readonly option: GitOption;
  readonly negated: boolean;
}

/** git's parse_long_opt: an exact name wins; else one option the (negated) prefix fits, or an ambiguity. */
function findLong(arg: string, options: readonly GitOption[]): Found | undefined {
  const equals = arg.indexOf('=');
  const name = equals === -1 ? arg : arg.slice(0, equals);
  const candidates: Found[] = [];
  for (const option of options) {
    const long = option.long;
    if (long === undefined) continue;
    if (name === long) return { option, negated: false };
    const negatable = option.negatable !== false;
    if (negatable && name === `no-${long}`) return { option, negated: true };
    if (long.startsWith(name)) candidates.push({ option, negated: false });
    // "--no" and "--no-" on their own, or "--no-" and the start of a name.
    else if (negatable && ('no-'.startsWith(arg) || (name.startsWith('no-') && long.startsWith(name.slice(3))))) candidates.push({ option, negated: true });
  }
  if (candidates.length > 1) {
    const spell = (found: Found): string => `--${found.negated ? 'no-' : ''}${found.option.long}`;
    throw new OptionError(`ambiguous option: ${arg} (could be ${spell(candidates[candidates.length - 2] as Found)} or ${spell(candidates[candidates.length - 1] as Found)})`);
  }
  return candidates[0];
}

function check(message: string | undefined): void {
  if (message !== undefined) throw new OptionError(message);
}

export function parseGitOptions(args: readonly string[], options: readonly GitOption[]): GitOptionsResult {
  const positionals: string[] = [];
  try {
    for (let i = 0; i < args.length; i++) {
      const arg = args[i] as string;
      if (arg === '--') {
        positionals.push(...args.slice(i + 1));
        break;
      }
      if (arg === '--help') return { kind: 'manual' };
      if (arg === '--help-all') return { kind: 'help' };
      if (arg.startsWith('--')) {
        const text = arg.slice(2);
        const found = findLong(text, options);
        if (found === undefined) throw new OptionError(`unknown option \`${text}'`);
        const { option, negated } = found;
        const equals = text.indexOf('=');
        const inline = equals === -1 ? undefined : text.slice(equals + 1);
        const how = negated ? 'negated' : 'long';
        if (inline !== undefined && (negated || option.value !== true)) throw new OptionError(`${optionName(option, how)} takes no value`);
        if (negated || option.value !== true) {
          check(option.set(undefined, negated));
          continue;
        }
        let value = inline;
        if (value === undefined) {
          if (i + 1 >= args.length) throw new OptionError(`${optionName(option, how)} requires a value`);
          value = args[++i] as string;
        }
        check(option.set(value, false));
        continue;
      }
      if (arg.startsWith('-') && arg.length > 1) {
        for (let c = 1; c < arg.length; c++) {
          const letter = arg[c] as string;
          const option = options.find((o) => o.short === letter);
          if (option === undefined) {
            if (letter === 'h') return { kind: 'help' };
            throw new OptionError(`unknown switch \`${letter}'`);
          }
          if (option.value !== true) {
            check(option.set(undefined, false));
            continue;
          }
          // The rest of the cluster is the value (`-Lname`), else the next argument.
          let value = arg.slice(c + 1);
          if (value === '') {
            if (i + 1 >= args.length) throw new OptionError(`${optionName(option, 'short')} requires a value`);
            value = args[++i] as string;
          }
          check(option.set(value, false));
          break;
        }
        continue;
      }
      positionals.push(arg);
    }
  } catch (error) {
    if (error instanceof OptionError) return { kind: 'error', message: error.message };
    throw error;
  }
  return { kind: 'parsed', positionals };
}

/** OPT_INTEGER's reading of a number: C's strtol over the whole value (spaces and a sign allowed), as an int. */
export function gitInteger(value: string): number | undefined {
  const match = /^[ \t\n\v\f\r]*([+-]?)(\d+)$/.exec(value);
  if (match === null) return undefined;
  const magnitude = BigInt(match[2] as string);
  const long = match[1] === '-' ? -magnitude : magnitude;
  // strtol saturates at the long's range; git then keeps the low 32 bits in an int.
  const saturated = long > 0x7fffffffffffffffn ? 0x7fffffffffffffffn : long < -0x8000000000000000n ? -0x8000000000000000n : long;
  return Number(BigInt.asIntN(32, saturated));
}
