/**
 * What the graph's toolbar hides: lines of chosen kinds (prompts, replies, thinking, tool calls, errors,
 * system) and recording noise (shown on demand, per step or all at once). The answer is a mask the layout
 * takes (folds.ts buildVisibleGraph), so hidden lines never break the tree's shape.
 */
import type { NodeKind } from '../model';
import { NOISE_NONE } from './noise';

export const LINE_FILTERS = ['prompts', 'replies', 'thinking', 'tools', 'errors', 'system'] as const;
export type LineFilter = (typeof LINE_FILTERS)[number];

export const FILTER_KINDS: Readonly<Record<LineFilter, readonly NodeKind[]>> = {
  prompts: ['user'],
  replies: ['assistant'],
  thinking: ['thinking'],
  tools: ['tool_call', 'tool_result'],
  errors: ['error'],
  system: ['system', 'compaction', 'merge-summary', 'progress', 'unknown'],
};

export const FILTER_WORDS: Readonly<Record<LineFilter, string>> = {
  prompts: 'Prompts',
  replies: 'Replies',
  thinking: 'Thinking',
  tools: 'Tool calls',
  errors: 'Errors',
  system: 'System',
};

export interface LineFilters {
  /** Kinds the user turned off. */
  readonly hiddenKinds: ReadonlySet<LineFilter>;
  /** "Show all lines": noise drawn as ordinary nodes. */
  readonly showNoise: boolean;
  /** Node indices shown although they are noise (an annotation was opened). */
  readonly revealed: ReadonlySet<number>;
}

export const DEFAULT_FILTERS: LineFilters = { hiddenKinds: new Set(), showNoise: false, revealed: new Set() };

/** 1 per node to hide, or null when nothing is (so the layout takes its plain path). */
export function hideMask(kinds: readonly NodeKind[], noise: Uint8Array, filters: LineFilters): Uint8Array | null {
  const off = new Set<NodeKind>();
  for (const filter of filters.hiddenKinds) for (const kind of FILTER_KINDS[filter]) off.add(kind);
  if (off.size === 0 && filters.showNoise) return null;
  const mask = new Uint8Array(kinds.length);
  let any = false;
  // One pass of byte tests at open (no filter on, noise hidden): the kind and opened-line sets are asked only when they can answer.
  for (let i = 0; i < kinds.length; i++) {
    const hide = (!filters.showNoise && noise[i] !== NOISE_NONE) || (off.size > 0 && off.has(kinds[i]!));
    if (hide && !filters.revealed.has(i)) {
      mask[i] = 1;
      any = true;
    }
  }
  return any ? mask : null;
}
