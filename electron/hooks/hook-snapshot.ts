/**
 * `arbor snapshot --hook`: Claude Code runs it after every file-changing tool call (PostToolUse). It captures
 * the session's cwd exactly and links the capture to the call's tool_use_id. It must never hold the agent up
 * or fail it: a hard time limit, nothing printed, and whatever goes wrong is logged (hook-log.ts), not thrown.
 */
import type { ArborApi } from '../../shared/contract';
import type { HandOver } from './hook-client';
import { appendHookLog } from './hook-log';
import type { HookRequest } from './hook-socket';
import { needsSnapshot, parsePostToolUse, readAll } from './post-tool-use';

/** Claude Code waits for the hook; past this the capture is abandoned (the next call's hook will try again). */
export const HOOK_TIME_LIMIT_MS = 20_000;

export interface HookSnapshotDeps {
  readonly stdin: NodeJS.ReadableStream;
  readonly dataDir: string;
  readonly signal: AbortSignal;
  readonly api: () => Promise<ArborApi>;
  /** Hands the capture to a running Arbor (hook-client.ts); without it, or when that fails, `api` captures. */
  readonly handOver?: (request: HookRequest, signal: AbortSignal) => Promise<HandOver>;
  readonly now?: () => Date;
  readonly timeLimitMs?: number;
}

export type HookSnapshotOutcome = 'captured' | 'skipped' | 'failed';

/** Resolves (never rejects) by the time limit at the latest. */
export async function runHookSnapshot(deps: HookSnapshotDeps): Promise<HookSnapshotOutcome> {
  const now = deps.now ?? (() => new Date());
  const limit = deps.timeLimitMs ?? HOOK_TIME_LIMIT_MS;
  const deadline = AbortSignal.any([deps.signal, AbortSignal.timeout(limit)]);
  const log = (message: string): Promise<void> => appendHookLog(deps.dataDir, now(), message);
  let context = '';
  const work = async (): Promise<HookSnapshotOutcome> => {
    // Run by hand in a terminal: there is no payload to wait for.
    if ((deps.stdin as { isTTY?: boolean }).isTTY === true) {
      await log('snapshot --hook: stdin is a terminal, not a hook payload; nothing captured');
      return 'failed';
    }
    const parsed = parsePostToolUse(await readAll(deps.stdin, { signal: deadline }));
    if (!parsed.ok) {
      await log(`snapshot --hook: ${parsed.reason}; nothing captured`);
      return 'failed';
    }
    const { input } = parsed;
    context = ` (session ${input.sessionId}, tool call ${input.toolUseId}, cwd ${input.cwd})`;
    if (!needsSnapshot(input)) return 'skipped';
    const request: HookRequest = {
      dir: input.cwd,
      hook: { sessionId: input.sessionId, toolUseId: input.toolUseId, ...(input.transcriptPath ? { transcriptPath: input.transcriptPath } : {}) },
    };
    if (deps.handOver) {
      const handed = await deps.handOver(request, deadline);
      if (handed.status === 'captured') return 'captured';
      if (handed.status === 'failed') await log(`snapshot --hook: the running Arbor did not capture (${handed.reason})${context}; capturing here`);
    }
    const api = await deps.api();
    await api['snapshots.capture'](request, { signal: deadline });
    return 'captured';
  };
  // The race keeps the promise to return by the deadline even if some step ignored the signal.
  const timedOut = new Promise<'timeout'>((resolve) => {
    if (deadline.aborted) resolve('timeout');
    else deadline.addEventListener('abort', () => resolve('timeout'), { once: true });
  });
  const job = work();
  job.catch(() => undefined); // a failure after the deadline has nobody left to tell
  try {
    const outcome = await Promise.race([job, timedOut]);
    if (outcome !== 'timeout') return outcome;
    await log(`snapshot --hook: stopped after ${deps.signal.aborted ? 'an interrupt' : `${limit} ms`}${context}; nothing captured`);
    return 'failed';
  } catch (error) {
    const reason = deadline.aborted && !deps.signal.aborted ? `stopped after ${limit} ms` : describe(error);
    await log(`snapshot --hook: ${reason}${context}; nothing captured`);
    return 'failed';
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return 'code' in error && typeof error.code === 'string' ? `${error.message} [${error.code}]` : error.message;
  return String(error);
}
