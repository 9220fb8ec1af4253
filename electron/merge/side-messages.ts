/**
 * What each side did since the fork point, shown beside the files: the prompts, the assistant's words, and
 * the tool calls with the files they touched, so the user knows why a side changed a file.
 */
import { isAbsolute } from 'node:path';
import type { SessionStore } from '../db/session-store';
import { readNodeContent } from '../importers/claude-code/node-content';
import { snapshotLabel } from '../service/workspace-state';
import type { MergeSideMessage } from '../../shared/operations';
import type { NodeGraph } from './node-graph';
import { workspacePath } from './merge-trees';

/** The newest steps are kept when a side has more (a long run); the merge view lists them, it is no transcript. */
export const MAX_SIDE_MESSAGES = 200;
const MAX_TEXT = 400;
const MESSAGE_KINDS = new Set(['user', 'assistant', 'tool_call']);
const PATH_FIELDS = ['file_path', 'path', 'notebook_path'];

/** `nodes`: the side's steps after the common ancestor, oldest first. `root`: the workspace paths are relative to. */
export function sideMessages(store: SessionStore, graph: NodeGraph, nodes: readonly string[], root: string | null): MergeSideMessage[] {
  const shown = nodes.filter((id) => {
    const node = graph.node(id);
    return node !== null && (node.snapshot !== undefined || (node.summary !== undefined && MESSAGE_KINDS.has(node.summary.kind) && !node.summary.sidechain));
  });
  return shown.slice(-MAX_SIDE_MESSAGES).map((id) => {
    const node = graph.node(id)!;
    if (node.snapshot !== undefined) {
      const { snapshot } = node;
      return { nodeId: id, kind: 'system', timestamp: snapshot.createdAt, text: snapshotLabel(snapshot.dir, snapshot.files, snapshot.kind), files: [] };
    }
    const summary = node.summary!;
    const stored = store.getNode(id);
    const content = stored === null ? null : readNodeContent(stored.raw.toString('utf8'));
    const texts: string[] = [];
    const files = new Set<string>();
    for (const block of content?.blocks ?? []) {
      if (block.type === 'text') texts.push(block.text);
      if (block.type !== 'tool_use') continue;
      const target = touchedPath(block.input);
      const relative = target === null ? null : !isAbsolute(target) ? target : root === null ? null : workspacePath(root, target);
      if (relative !== null) files.add(relative);
      texts.push(target === null ? block.name : `${block.name} ${relative ?? target}`);
    }
    const text = texts.length > 0 ? texts.join('\n') : summary.label;
    return { nodeId: id, kind: summary.kind, timestamp: summary.timestamp, text: shorten(text), files: [...files] };
  });
}

function touchedPath(input: unknown): string | null {
  if (typeof input !== 'object' || input === null) return null;
  for (const field of PATH_FIELDS) {
    const value = (input as Record<string, unknown>)[field];
    if (typeof value === 'string' && value !== '') return value;
  }
  return null;
}

function shorten(text: string): string {
  const trimmed = text.trim();
  return trimmed.length <= MAX_TEXT ? trimmed : `${trimmed.slice(0, MAX_TEXT - 1)}…`;
}
