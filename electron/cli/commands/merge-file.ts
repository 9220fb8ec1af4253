/**
 * `arbor merge-file [-p] [--diff3|--zdiff3] [-L ours -L base -L theirs] OURS BASE THEIRS`:
 * a three-way file merge that behaves like `git merge-file` (argument order, options read as git's
 * parse-options reads them, merge.conflictStyle inside a repository, result written over OURS
 * unless -p, exit status = number of conflicts capped at 127, 255 on a file error, 129 on bad
 * usage). It answers its own usage errors and -h, so the lean entry and the full CLI agree.
 */
import { statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { mergeText } from '../../../shared/merge';
import type { MergeFavor, MergeStyle } from '../../../shared/merge';
import { findGitDir } from '../../git/git-config';
import { repositoryConflictStyle } from '../git-conflict-style';
import type { CliCommand, CliContext, CliIO } from '../command';
import { gitInteger, type GitOption, parseGitOptions } from '../git-options';

const USAGE_LINE = 'usage: arbor merge-file [<options>] [-L <name1> [-L <orig> [-L <name2>]]] <file1> <orig-file> <file2>';

const USAGE = `${USAGE_LINE}

Merges the changes base→ours (<orig-file>→<file2>) into <file1>, like git merge-file.

    -p, --stdout          send the result to standard output instead of overwriting <file1>
    --diff3               show the base in conflicts
    --zdiff3              like --diff3, with lines common to both sides moved out of conflicts
    --ours | --theirs | --union
                          resolve conflicts by taking ours, theirs, or both
    --marker-size <n>     length of conflict markers (default 7)
    -q, --quiet           do not warn about conflicts
    -L <name>             label for <file1>, then <orig-file>, then <file2> (default: the file names)

Options are read as git reads them: -pq bundles short flags, any unambiguous start of a long option
works (--stdo, --zdiff), --no-<option> undoes one. Inside a git repository, merge.conflictStyle from
git's config (system, global, the repository's) is the style when no style option is given.

Exit status: the number of conflicts (0 when clean, at most 127); 255 when a file cannot be read or
written or is binary; 129 for bad usage (one line on stderr) and for -h; 128 when merge.conflictStyle
has a value git does not know. --help prints this text and exits 0.`;

/** git refuses to merge what looks binary: a NUL byte in the first 8000 bytes. */
const BINARY_SNIFF_BYTES = 8000;
const ERROR_STATUS = 255;
const MAX_CONFLICT_STATUS = 127;
/** git's status for a line parse-options refuses (and for -h), above any conflict count. */
export const USAGE_STATUS = 129;
/** git's status when it dies (here: a merge.conflictStyle it does not know). */
const FATAL_STATUS = 128;

interface MergeFileArgs {
  readonly toStdout: boolean;
  readonly quiet: boolean;
  readonly style: MergeStyle;
  readonly favor: MergeFavor | undefined;
  readonly markerSize: number | undefined;
  readonly labels: readonly string[];
  readonly paths: readonly [string, string, string];
}

export type MergeFileLine =
  | { readonly kind: 'merge'; readonly args: MergeFileArgs }
  | { readonly kind: 'help' }
  | { readonly kind: 'manual' }
  | { readonly kind: 'usage'; readonly message: string };

/**
 * The command line as git merge-file's parse-options reads it. `style` is where the style starts
 * (merge.conflictStyle), before the options change it.
 */
export function parseMergeFileArgs(args: readonly string[], style: MergeStyle = 'merge'): MergeFileLine {
  let toStdout = false;
  let quiet = false;
  let favor: MergeFavor | undefined;
  let markerSize: number | undefined;
  const labels: string[] = [];
  // git's OPT_SET_INT: the option sets its value, --no-<option> puts back 0 (merge, no favor).
  const setStyle = (to: MergeStyle) => (_: string | undefined, negated: boolean) => void (style = negated ? 'merge' : to);
  const setFavor = (to: MergeFavor) => (_: string | undefined, negated: boolean) => void (favor = negated ? undefined : to);
  const options: GitOption[] = [
    { short: 'p', long: 'stdout', set: (_, negated) => void (toStdout = !negated) },
    { long: 'diff3', set: setStyle('diff3') },
    { long: 'zdiff3', set: setStyle('zdiff3') },
    { long: 'ours', set: setFavor('ours') },
    { long: 'theirs', set: setFavor('theirs') },
    { long: 'union', set: setFavor('union') },
    {
      long: 'marker-size',
      value: true,
      set: (value, negated) => {
        if (negated || value === undefined) {
          markerSize = undefined;
          return undefined;
        }
        const size = gitInteger(value);
        if (size === undefined) return "option `marker-size' expects a numerical value";
        // git writes markers of the default size for 0 and below.
        markerSize = size > 0 ? size : undefined;
        return undefined;
      },
    },
    { short: 'q', long: 'quiet', set: (_, negated) => void (quiet = !negated) },
    {
      short: 'L',
      value: true,
      negatable: false,
      set: (value) => {
        if (labels.length === 3) return 'too many labels on the command line';
        labels.push(value as string);
        return undefined;
      },
    },
  ];
  const parsed = parseGitOptions(args, options);
  switch (parsed.kind) {
    case 'help':
    case 'manual':
      return parsed;
    case 'error':
      return { kind: 'usage', message: `error: ${parsed.message}` };
    case 'parsed':
      if (parsed.positionals.length !== 3) return { kind: 'usage', message: USAGE_LINE };
      return {
        kind: 'merge',
        args: { toStdout, quiet, style, favor, markerSize, labels, paths: parsed.positionals as unknown as [string, string, string] },
      };
  }
}

function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/** Labels arrive as UTF-8 text; the merge works on latin1 (one char per byte), so re-encode them. */
function asByteString(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}

/** git's strerror text for the errors a file read or write meets. */
function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'No such file or directory';
    case 'EACCES':
      return 'Permission denied';
    case 'EISDIR':
      return 'Is a directory';
    case 'ENOTDIR':
      return 'Not a directory';
    case 'ELOOP':
      return 'Too many levels of symbolic links';
    case 'ENAMETOOLONG':
      return 'File name too long';
    case 'EROFS':
      return 'Read-only file system';
    case 'ENOSPC':
      return 'No space left on device';
    default:
      return error instanceof Error ? error.message : String(error);
  }
}

/** merge.conflictStyle, read as git merge-file does: only inside a repository, and as git reads it. */
function startingStyle(io: CliIO): { readonly style: MergeStyle } | { readonly fatal: string } {
  const gitDir = findGitDir(io.cwd, io.env);
  if (gitDir === undefined) return { style: 'merge' };
  return repositoryConflictStyle(io.cwd, io.env, gitDir);
}

async function run(args: readonly string[], context: CliContext): Promise<number> {
  const { io } = context;
  // git reads its config before it parses the line, so a bad merge.conflictStyle stops even -h.
  const start = startingStyle(io);
  if ('fatal' in start) {
    io.stderr(`fatal: ${start.fatal}\n`);
    return FATAL_STATUS;
  }
  const line = parseMergeFileArgs(args, start.style);
  switch (line.kind) {
    case 'help':
      io.stdout(`${USAGE}\n`);
      return USAGE_STATUS;
    case 'manual':
      io.stdout(`${USAGE}\n`);
      return 0;
    case 'usage':
      io.stderr(`${line.message}\n`);
      return USAGE_STATUS;
    case 'merge':
      return merge(line.args, io);
  }
}

async function merge(options: MergeFileArgs, io: CliIO): Promise<number> {
  const fail = (message: string): number => {
    // Like git, -q silences stderr altogether.
    if (!options.quiet) io.stderr(`error: ${message}\n`);
    return ERROR_STATUS;
  };
  const absolute = (path: string): string => (isAbsolute(path) ? path : resolve(io.cwd, path));

  // Bytes decoded as latin1 round-trip exactly, whatever the encoding (git merges bytes too).
  const contents: string[] = [];
  for (const path of options.paths) {
    let bytes: Buffer;
    try {
      bytes = await readFile(absolute(path));
    } catch (error) {
      // git stats the file before it opens it: say which of the two failed, as git does.
      try {
        statSync(absolute(path));
      } catch (statError) {
        return fail(`Could not stat ${path}: ${reason(statError)}`);
      }
      return fail(`Could not open ${path}: ${reason(error)}`);
    }
    if (looksBinary(bytes)) return fail(`Cannot merge binary files: ${path}`);
    contents.push(bytes.toString('latin1'));
  }
  const [ours, base, theirs] = contents as [string, string, string];
  const [oursPath, basePath, theirsPath] = options.paths;
  const label = (index: number, path: string): string => asByteString(options.labels[index] ?? path);
  const result = mergeText(base, ours, theirs, {
    style: options.style,
    favor: options.favor,
    markerSize: options.markerSize,
    labels: { ours: label(0, oursPath), base: label(1, basePath), theirs: label(2, theirsPath) },
  });

  if (options.toStdout) {
    io.stdout(Buffer.from(result.text, 'latin1'));
  } else {
    try {
      await writeFile(absolute(oursPath), result.text, 'latin1');
    } catch (error) {
      return fail(`Could not open ${oursPath} for writing: ${reason(error)}`);
    }
  }
  return Math.min(result.conflicts, MAX_CONFLICT_STATUS);
}

export const mergeFileCommand: CliCommand = {
  name: 'merge-file',
  summary: 'Three-way merge of one file, like git merge-file',
  usage: USAGE,
  handlesHelp: true,
  run,
};
