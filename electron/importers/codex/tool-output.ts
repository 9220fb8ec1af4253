/**
 * What a Codex tool output says about its call: the text worth showing and whether it failed. Outputs are
 * plain strings (`exec_command`: "Chunk ID … Process exited with code N … Output:\n…"), content-item arrays,
 * or a JSON string with `output` and `metadata.exit_code` (older shell and apply_patch outputs).
 */
import { isObject, type JsonObject } from '../claude-code/json-shape';

export interface ToolOutput {
  readonly text: string;
  readonly isError: boolean;
  readonly exitCode: number | null;
  /** The command had not ended when Codex answered (unified exec: "Process running with session ID N"). */
  readonly running: boolean;
}

const EXITED = /Process exited with code (-?\d+)/;
/** Codex's unified exec answers a command still running after its wait with its session id instead of an exit code. */
const RUNNING = /^Process running with session ID \d+/m;
const EXIT_CODE_LINE = /^Exit code: (-?\d+)/m;
/** apply_patch refusals and harness failures that carry no exit code. */
const FAILURE_TEXT = /^(apply_patch verification failed|Failed to (apply|find|parse)|error:|patch rejected|write_stdin failed|execution error|aborted by user|Invalid patch)/i;

export function readToolOutput(output: unknown): ToolOutput {
  let text = outputText(output);
  let exitCode: number | null = null;
  const wrapped = parseWrapped(text);
  if (wrapped !== null) {
    text = wrapped.text;
    exitCode = wrapped.exitCode;
  }
  exitCode ??= exitCodeIn(text);
  const body = afterOutputMarker(text);
  const marker = text.indexOf('\nOutput:\n');
  // Only exec_command's header says it: the command's own output may print anything.
  const running = exitCode === null && text.startsWith('Chunk ID:') && RUNNING.test(marker === -1 ? text : text.slice(0, marker));
  const isError = exitCode !== null ? exitCode !== 0 : !running && FAILURE_TEXT.test(body.trimStart());
  return { text: body, isError, exitCode, running };
}

export function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) {
    return output
      .map((item) => (isObject(item) && typeof item.text === 'string' ? item.text : ''))
      .filter((part) => part.length > 0)
      .join('\n');
  }
  if (isObject(output)) {
    if (typeof output.content === 'string') return output.content;
    if (typeof output.output === 'string') return output.output;
  }
  return '';
}

function parseWrapped(text: string): { text: string; exitCode: number | null } | null {
  if (!text.startsWith('{')) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(value) || typeof value.output !== 'string') return null;
  const metadata = isObject(value.metadata) ? (value.metadata as JsonObject) : null;
  const code = metadata !== null && typeof metadata.exit_code === 'number' ? metadata.exit_code : null;
  return { text: value.output, exitCode: code };
}

function exitCodeIn(text: string): number | null {
  const match = EXITED.exec(text) ?? EXIT_CODE_LINE.exec(text);
  return match === null ? null : Number(match[1]);
}

/** exec_command's header lines (chunk id, wall time, token count) are noise beside the command's own output. */
function afterOutputMarker(text: string): string {
  const marker = text.indexOf('\nOutput:\n');
  if (marker !== -1 && text.startsWith('Chunk ID:')) return text.slice(marker + '\nOutput:\n'.length);
  return text;
}
