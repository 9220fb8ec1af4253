/** Previews, outcomes and forks for the time-travel dialog tests. */
import type { AppliedOperation, ForkCreated, ForkSummary, RewindPreview } from '../../../../shared/operations';

export function rewindPreview(over: Partial<RewindPreview> = {}): RewindPreview {
  return {
    nodeId: 'n1',
    workspace: '/work/demo/workspace',
    known: 'reconstructed',
    written: ['package.json', 'src/index.ts'],
    created: ['src/old.ts'],
    deleted: ['src/json.ts'],
    skipped: [{ path: 'notes.txt', reason: 'unknown-content' }],
    unverified: [],
    sideEffects: [{ nodeId: 'n9', toolUseId: 'tu9', tool: 'Bash', kind: 'publish', summary: 'npm publish' }],
    token: 'token-abc',
    ...over,
  };
}

export function applied(over: Partial<AppliedOperation> = {}): AppliedOperation {
  return {
    status: 'applied',
    operation: 'op-1',
    kind: 'rewind',
    workspace: '/work/demo/workspace',
    written: ['package.json', 'src/index.ts'],
    created: ['src/old.ts'],
    deleted: ['src/json.ts'],
    sideEffects: [],
    ...over,
  };
}

export function forkCreated(over: Partial<ForkCreated> = {}): ForkCreated {
  return {
    fork: 'fork-1',
    branch: 'branch-1',
    dir: '/tmp/forks/tally fork',
    resume: 'claude --resume 1234',
    resumeSessionId: '1234',
    transcript: '/home/u/.claude/projects/x/1234.jsonl',
    files: 7,
    ...over,
  };
}

export function forkSummary(over: Partial<ForkSummary> = {}): ForkSummary {
  return {
    fork: 'fork-1',
    nodeId: 'n1',
    sessionId: 's1',
    branch: 'branch-1',
    dir: '/tmp/forks/one',
    resume: 'claude --resume 1234',
    resumeSessionId: '1234',
    transcript: null,
    createdAt: '2025-01-01T10:00:00.000Z',
    bytes: 5 * 1024 * 1024,
    ...over,
  };
}
