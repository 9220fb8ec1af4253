/**
 * A layout worker started ahead of need also runs its code once, on a small made-up session, before any
 * real one arrives: a new worker's first open ran the structure and layout cold, in V8's interpreter, and
 * that was most of the worker's part of opening a 10k-node session (26–57 ms against 7 ms warm). The warm-up
 * takes a few ms on a worker nobody is waiting for, and keeps nothing.
 */
import type { PackedGraphNodes } from '../../../shared/graph/packed-nodes';
import type { NodeKind } from '../../../shared/model';
import { openColumns } from './layout-compute';
import { buildTurnOverview } from '../../../shared/graph/turn-overview';

/** Enough nodes for V8 to compile the hot loops, few enough to cost a few ms. */
export const WARMUP_NODES = 3000;

const KINDS: readonly NodeKind[] = ['user', 'thinking', 'tool_call', 'progress', 'tool_result', 'assistant', 'error'];
/** One turn: a prompt, thinking, three calls (one failed) with their hook lines and results, a reply. */
const TURN: readonly NodeKind[] = ['user', 'thinking', 'tool_call', 'progress', 'tool_result', 'tool_call', 'progress', 'error', 'thinking', 'tool_call', 'tool_result', 'assistant'];

/**
 * Turns of prompt → thinking → calls with results and hook lines → reply, a rewound prompt now and then
 * (branch points), as the synthetic sessions of the bench are shaped.
 */
export function warmupSession(count = WARMUP_NODES): PackedGraphNodes {
  const parents = new Int32Array(count);
  const kinds = new Uint8Array(count);
  const sidechain = new Uint8Array(count);
  const ids: string[] = [];
  const timestamps: string[] = [];
  // Extra edges as real sessions have them, so the compiled code sees the same shapes: a subagent run per
  // ten turns (its root points at the spawning call) and a compaction's logical parent.
  const edges: (number | string)[] = [];
  const edgeTargets: number[] = [];
  const start = Date.UTC(2026, 0, 5, 9);
  let last = -1;
  let previousPrompt = -1;
  for (let i = 0; i < count; i++) {
    const kind = TURN[i % TURN.length]!;
    let parent = last;
    if (kind === 'user') {
      // Every seventh prompt is a rewind: a second branch from where the previous prompt hung.
      if (i % (TURN.length * 7) === 0 && previousPrompt > 0) parent = parents[previousPrompt]!;
      previousPrompt = i;
    }
    const turn = Math.floor(i / TURN.length);
    const subagent = kind === 'thinking' && i % TURN.length === 8 && turn % 10 === 5;
    if (subagent) {
      // The subagent's first line: a root of its own, linked to the call before it.
      parent = -1;
      sidechain[i] = 1;
      edges.push(i, 'subagent', `warmup-${i - 1}`);
      edgeTargets.push(i - 1);
    } else if (kind === 'user' && turn === 40) {
      parent = -1;
      edges.push(i, 'logical', `warmup-${last}`);
      edgeTargets.push(last);
    }
    parents[i] = parent;
    kinds[i] = KINDS.indexOf(kind);
    // A hook line hangs off its call, and a subagent's root off on its own: neither continues the chain.
    if (kind !== 'progress' && !subagent) last = i;
    ids.push(`warmup-${i}`);
    timestamps.push(new Date(start + i * 1000).toISOString());
  }
  return {
    count,
    ids: ids.join('\n'),
    timestamps: timestamps.join('\n'),
    parents,
    outsideParents: [],
    kindTable: KINDS,
    kinds,
    sidechain,
    edges,
    edgeTargets: Int32Array.from(edgeTargets),
  };
}

/** Runs an open and its turn overview on the made-up session; what it answers is the session's visible count (for tests). */
export function warmLayoutCode(count = WARMUP_NODES): number {
  const opened = openColumns(warmupSession(count), [], [], null);
  buildTurnOverview(opened.arrays);
  return opened.layout.visible.count;
}
