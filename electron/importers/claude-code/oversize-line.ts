/**
 * Reads the envelope of a line too large to parse (only its first and last bytes were kept), so the node still
 * takes its place in the DAG. Claude Code writes the envelope at either end — `uuid`, `type` and `timestamp`
 * often come after a multi-MB `message` or `toolUseResult` — so both ends are scanned, and only at the top
 * level: nested objects (agent_progress messages, `message.type`) carry their own `uuid`/`type` keys.
 */

export interface OversizeEnvelope {
  readonly type: string | null;
  readonly uuid: string | null;
  readonly parentUuid: string | null;
  readonly logicalParentUuid: string | null;
  readonly sessionId: string | null;
  readonly timestamp: string | null;
  readonly agentId: string | null;
  readonly cwd: string | null;
  readonly gitBranch: string | null;
  readonly version: string | null;
  readonly isSidechain: boolean;
  /** Whether the kept bytes mention a tool_use / tool_result block (to pick a better kind). */
  readonly mentionsToolUse: boolean;
  readonly mentionsToolResult: boolean;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const ZERO = 0x30;
const OPENERS = new Set([0x7b, 0x5b]); // { [
const CLOSERS = new Set([0x7d, 0x5d]); // } ]

const FIELD = /"(type|uuid|parentUuid|logicalParentUuid|sessionId|timestamp|agentId|cwd|gitBranch|version|isSidechain)"\s*:\s*("(?:[^"\\]|\\.)*"|null|true|false)/g;

export function readOversizeEnvelope(head: Buffer, tail: Buffer): OversizeEnvelope {
  const fields = new Map<string, unknown>();
  collectFields(topLevelFromStart(head), fields);
  collectFields(topLevelFromEnd(tail), fields);
  const text = (key: string): string | null => {
    const value = fields.get(key);
    return typeof value === 'string' ? value : null;
  };
  return {
    type: text('type'),
    uuid: text('uuid'),
    parentUuid: text('parentUuid'),
    logicalParentUuid: text('logicalParentUuid'),
    sessionId: text('sessionId'),
    timestamp: text('timestamp'),
    agentId: text('agentId'),
    cwd: text('cwd'),
    gitBranch: text('gitBranch'),
    version: text('version'),
    isSidechain: fields.get('isSidechain') === true,
    mentionsToolUse: head.includes('"tool_use"') || tail.includes('"tool_use"'),
    mentionsToolResult: head.includes('"tool_result"') || tail.includes('"tool_result"'),
  };
}

function collectFields(topLevel: string, into: Map<string, unknown>): void {
  for (const match of topLevel.matchAll(FIELD)) {
    const key = match[1];
    const value = match[2];
    if (key === undefined || value === undefined || into.has(key)) continue;
    try {
      into.set(key, JSON.parse(value) as unknown);
    } catch {
      // A malformed escape in a cut line: leave the field unknown.
    }
  }
}

/** The bytes of the outermost object's own members from the line's start; nested values become `0`. */
export function topLevelFromStart(head: Buffer): string {
  const out = Buffer.allocUnsafe(head.length);
  let length = 0;
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (const byte of head) {
    if (inString) {
      if (depth === 1) out[length++] = byte;
      if (escaped) escaped = false;
      else if (byte === BACKSLASH) escaped = true;
      else if (byte === QUOTE) inString = false;
    } else if (OPENERS.has(byte)) {
      depth += 1;
      if (depth === 2) out[length++] = ZERO;
    } else if (CLOSERS.has(byte)) {
      depth -= 1;
    } else {
      if (byte === QUOTE) inString = true;
      if (depth === 1) out[length++] = byte;
    }
  }
  return out.toString('utf8', 0, length);
}

/**
 * The same, scanning backwards from the line's end. A quote ends (going backwards: starts) a string unless
 * an odd run of backslashes precedes it. What lies before the earliest top-level comma seen may be the cut
 * middle of a value, so it is dropped.
 */
export function topLevelFromEnd(tail: Buffer): string {
  const out = Buffer.allocUnsafe(tail.length);
  let length = 0; // `out` is filled back to front
  let depth = 0;
  let inString = false;
  let firstCommaAt = -1;
  for (let i = tail.length - 1; i >= 0; i -= 1) {
    const byte = tail[i] as number;
    if (inString) {
      if (depth === 1) out[tail.length - 1 - length++] = byte;
      if (byte === QUOTE && backslashesBefore(tail, i) % 2 === 0) inString = false;
    } else if (CLOSERS.has(byte)) {
      depth += 1;
      if (depth === 2) out[tail.length - 1 - length++] = ZERO;
    } else if (OPENERS.has(byte)) {
      depth -= 1;
      if (depth <= 0) break; // reached the line's opening brace
    } else {
      if (byte === QUOTE) inString = true;
      if (depth === 1) {
        out[tail.length - 1 - length++] = byte;
        if (byte === COMMA) firstCommaAt = length;
      }
    }
  }
  const start = tail.length - length;
  const reachedStart = depth <= 0;
  const keepFrom = reachedStart || firstCommaAt === -1 ? start : tail.length - firstCommaAt;
  return out.toString('utf8', keepFrom, tail.length);
}

function backslashesBefore(bytes: Buffer, index: number): number {
  let count = 0;
  for (let i = index - 1; i >= 0 && bytes[i] === BACKSLASH; i -= 1) count += 1;
  return count;
}
