/**
 * Recording noise: lines Claude Code writes around a step that say little on their own (progress and hook
 * lines, empty assistant replies, command caveats, stop-hook summaries). The graph hides them by default
 * and counts them on the step they belong to. Told from the kind and the importer's label (the wire
 * already carries both), so no field is added for 100k-node sessions.
 */
import type { NodeKind } from '../model';

export const NOISE_NONE = 0;
export const NOISE_PROGRESS = 1;
export const NOISE_HOOK = 2;
export const NOISE_EMPTY_REPLY = 3;
export const NOISE_CAVEAT = 4;
export const NOISE_STOP_HOOK = 5;
export type NoiseKind =
  | typeof NOISE_NONE
  | typeof NOISE_PROGRESS
  | typeof NOISE_HOOK
  | typeof NOISE_EMPTY_REPLY
  | typeof NOISE_CAVEAT
  | typeof NOISE_STOP_HOOK;

/** What a hidden line is, in words, for the annotation's tooltip. */
export const NOISE_WORDS: Readonly<Record<Exclude<NoiseKind, typeof NOISE_NONE>, string>> = {
  [NOISE_PROGRESS]: 'progress',
  [NOISE_HOOK]: 'hook',
  [NOISE_EMPTY_REPLY]: 'empty reply',
  [NOISE_CAVEAT]: 'command caveat',
  [NOISE_STOP_HOOK]: 'stop-hook summary',
};

/** The labels electron/importers/claude-code gives these lines (entry-summary.ts, progressLabel). */
const HOOK_PROGRESS = /^(✗ )?Hook[ :]/;
const CAVEAT = 'Caveat: ';
const STOP_HOOKS = 'Stop hooks:';
const PROMPT_HOOK = '<user-prompt-submit-hook>';

export function noiseOf(kind: NodeKind, label: string): NoiseKind {
  switch (kind) {
    case 'progress':
      return HOOK_PROGRESS.test(label) || label.startsWith('Hook context') ? NOISE_HOOK : NOISE_PROGRESS;
    case 'assistant':
      return label === '(empty response)' ? NOISE_EMPTY_REPLY : NOISE_NONE;
    case 'system':
      if (label.startsWith(CAVEAT)) return NOISE_CAVEAT;
      if (label.startsWith(STOP_HOOKS)) return NOISE_STOP_HOOK;
      if (label.startsWith(PROMPT_HOOK)) return NOISE_HOOK;
      if (label === 'Empty user line') return NOISE_EMPTY_REPLY;
      return NOISE_NONE;
    default:
      return NOISE_NONE;
  }
}

/** NOISE_* per node, in one pass (a prefix test per progress or system line). */
export function classifyNoise(nodes: readonly { readonly kind: NodeKind; readonly label: string }[]): Uint8Array {
  const noise = new Uint8Array(nodes.length);
  for (let i = 0; i < nodes.length; i++) noise[i] = noiseOf(nodes[i]!.kind, nodes[i]!.label);
  return noise;
}
