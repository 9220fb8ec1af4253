/**
 * `arbor merge-file [-p] [--diff3|--zdiff3] [-L ours -L base -L theirs] OURS BASE THEIRS`:
 * a three-way file merge that behaves like `git merge-file` (argument order, result written over
 * OURS unless -p, exit status = number of conflicts capped at 127, 255 on error).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { mergeText } from '../../../shared/merge';
import type { MergeFavor, MergeStyle } from '../../../shared/merge';
import { type CliCommand, type CliContext, UsageError } from '../command';

const USAGE = `usage: arbor merge-file [options] <ours> <base> <theirs>

Merges the changes base→ours and base→theirs into <ours>, like git merge-file.

    -p, --stdout          send the result to standard output instead of overwriting <ours>
    --diff3               show the base in conflicts
    --zdiff3              like --diff3, with lines common to both sides moved out of conflicts
    --ours | --theirs | --union
                          resolve conflicts by taking ours, theirs, or both
    --marker-size <n>     length of conflict markers (default 7)
    -L <label>            label for ours, then base, then theirs (default: the file names)
    -q, --quiet           do not warn about conflicts

Exit status: the number of conflicts (0 when clean, at most 127); 255 on error.`;

/** git refuses to merge what looks binary: a NUL byte in the first 8000 bytes. */
const BINARY_SNIFF_BYTES = 8000;
const ERROR_STATUS = 255;
const MAX_CONFLICT_STATUS = 127;

interface MergeFileArgs {
  readonly toStdout: boolean;
  readonly quiet: boolean;
  readonly style: MergeStyle;
  readonly favor: MergeFavor | undefined;
  readonly markerSize: number | undefined;
  readonly labels: readonly string[];
  readonly paths: readonly [string, string, string];
}

function parseMarkerSize(value: string | undefined): number {
  const size = Number(value);
  if (value === undefined || !Number.isInteger(size)) throw new UsageError('--marker-size needs a whole number');
  return size;
}

export function parseMergeFileArgs(args: readonly string[]): MergeFileArgs {
  let toStdout = false;
  let quiet = false;
  let style: MergeStyle = 'merge';
  let favor: MergeFavor | undefined;
  let markerSize: number | undefined;
  const labels: string[] = [];
  const paths: string[] = [];
  const addLabel = (label: string | undefined): void => {
    if (label === undefined) throw new UsageError('-L needs a label');
    if (labels.length === 3) throw new UsageError('too many labels');
    labels.push(label);
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') {
      paths.push(...args.slice(i + 1));
      break;
    }
    if (arg === '-p' || arg === '--stdout') toStdout = true;
    else if (arg === '-q' || arg === '--quiet') quiet = true;
    else if (arg === '--diff3') style = 'diff3';
    else if (arg === '--zdiff3') style = 'zdiff3';
    else if (arg === '--ours') favor = 'ours';
    else if (arg === '--theirs') favor = 'theirs';
    else if (arg === '--union') favor = 'union';
    else if (arg === '--marker-size') markerSize = parseMarkerSize(args[++i]);
    else if (arg.startsWith('--marker-size=')) markerSize = parseMarkerSize(arg.slice('--marker-size='.length));
    else if (arg === '-L') addLabel(args[++i]);
    else if (arg.startsWith('-L')) addLabel(arg.slice(2));
    else if (arg.startsWith('-') && arg !== '-') throw new UsageError(`unknown option: ${arg}`);
    else paths.push(arg);
  }
  if (paths.length !== 3) throw new UsageError('expected three files: <ours> <base> <theirs>');
  return { toStdout, quiet, style, favor, markerSize, labels, paths: paths as unknown as [string, string, string] };
}

function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/** Labels arrive as UTF-8 text; the merge works on latin1 (one char per byte), so re-encode them. */
function asByteString(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}

async function run(args: readonly string[], context: CliContext): Promise<number> {
  const options = parseMergeFileArgs(args);
  const { io } = context;
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
      return fail(`Could not stat ${path}: ${error instanceof Error ? error.message : String(error)}`);
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
      return fail(`Could not write to ${oursPath}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return Math.min(result.conflicts, MAX_CONFLICT_STATUS);
}

export const mergeFileCommand: CliCommand = {
  name: 'merge-file',
  summary: 'Three-way merge of one file, like git merge-file',
  usage: USAGE,
  run,
};
