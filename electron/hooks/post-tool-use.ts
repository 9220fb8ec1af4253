/**
 * What `arbor snapshot --hook` reads: Claude Code's PostToolUse JSON on stdin (FORMATS.md §1.9). Only the
 * fields Arbor uses are checked; a payload it cannot use is an expected outcome (a reason), not a throw.
 */
import { isAbsolute } from 'node:path';
import { CancelledError } from '../../shared/errors';
import { isReadOnlyCommand } from '../snapshots/reconstruct';

export interface PostToolUse {
  readonly sessionId: string;
  readonly toolUseId: string;
  readonly toolName: string;
  readonly cwd: string;
  readonly transcriptPath?: string;
  /** Bash's command, when the tool is Bash. */
  readonly command?: string;
}

export type PostToolUseParse = { readonly ok: true; readonly input: PostToolUse } | { readonly ok: false; readonly reason: string };

/** Big enough for any tool_response Claude Code sends (whole file contents); beyond it the payload is refused. */
export const MAX_PAYLOAD_BYTES = 64 * 1024 * 1024;

export function parsePostToolUse(text: string): PostToolUseParse {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: `stdin is not JSON (${text.length} characters)` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, reason: 'stdin is not a JSON object' };
  const payload = value as Record<string, unknown>;
  const text_ = (key: string): string | undefined => {
    const field = payload[key];
    return typeof field === 'string' && field.length > 0 && field.length <= 4096 ? field : undefined;
  };
  const sessionId = text_('session_id');
  const toolUseId = text_('tool_use_id');
  const cwd = text_('cwd');
  if (sessionId === undefined || toolUseId === undefined) return { ok: false, reason: 'the payload has no session_id or tool_use_id' };
  if (cwd === undefined || !isAbsolute(cwd)) return { ok: false, reason: 'the payload has no absolute cwd' };
  const transcriptPath = text_('transcript_path');
  const toolInput = payload.tool_input;
  const command = typeof toolInput === 'object' && toolInput !== null ? (toolInput as Record<string, unknown>).command : undefined;
  return {
    ok: true,
    input: {
      sessionId,
      toolUseId,
      toolName: text_('tool_name') ?? '',
      cwd,
      ...(transcriptPath !== undefined && isAbsolute(transcriptPath) ? { transcriptPath } : {}),
      ...(typeof command === 'string' ? { command } : {}),
    },
  };
}

/** A shell command that cannot have changed a file needs no snapshot: the state is the previous one. */
export function needsSnapshot(input: PostToolUse): boolean {
  return !(input.toolName === 'Bash' && input.command !== undefined && isReadOnlyCommand(input.command));
}

/** Reads all of stdin as UTF-8, up to `maxBytes`; the signal ends the wait (Claude Code closes stdin after writing). */
export function readAll(stream: NodeJS.ReadableStream, options: { readonly signal: AbortSignal; readonly maxBytes?: number }): Promise<string> {
  const maxBytes = options.maxBytes ?? MAX_PAYLOAD_BYTES;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (error: Error | null): void => {
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      options.signal.removeEventListener('abort', onAbort);
      stream.pause();
      if (error) reject(error);
      else resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onData = (chunk: Buffer | string): void => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (size > maxBytes) finish(new Error(`stdin is larger than ${maxBytes} bytes`));
      else chunks.push(bytes);
    };
    const onEnd = (): void => finish(null);
    const onError = (error: Error): void => finish(error);
    const onAbort = (): void => finish(new CancelledError('Timed out reading stdin'));
    if (options.signal.aborted) return onAbort();
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
    options.signal.addEventListener('abort', onAbort, { once: true });
    stream.resume();
  });
}
