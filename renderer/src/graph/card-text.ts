/**
 * What a card says, per kind: a title line (the tool, the call a result answers, the fork's folder) and up
 * to two lines of text (the tool's main argument, a result's first output line or "(no output)", the first
 * words of a prompt or reply). Derived from what NodeSummary already carries (kind, label, toolCalls) and
 * the parent chain, so the wire stays as it is.
 */
import type { NodeKind, NodeSummary } from '../../../shared/model';
import type { WorkspaceNodeInfo, WorkspaceNodeKind } from '../../../shared/operations';

export interface CardText {
  readonly title: string;
  readonly text: string;
  /** The call failed (its own card), or this result is a failure. */
  readonly failed: boolean;
  /** A call whose result the transcript never recorded. */
  readonly outcomeMissing: boolean;
}

export const KIND_TITLE: Readonly<Record<NodeKind, string>> = {
  user: 'Prompt',
  assistant: 'Reply',
  thinking: 'Thinking',
  tool_call: 'Tool call',
  tool_result: 'Result',
  error: 'Error',
  compaction: 'Compaction',
  'merge-summary': 'Merge summary',
  system: 'System',
  progress: 'Progress',
  unknown: 'Unknown record',
};

const WORKSPACE_TITLE: Readonly<Record<WorkspaceNodeKind, string>> = {
  snapshot: 'Snapshot',
  'hook-snapshot': 'Hook snapshot',
  fork: 'Fork',
  merge: 'Merge',
};

export const NO_OUTPUT = '(no output)';

/** The importer's result label: `✓ Bash — 3 passed`, `✗ Edit (+1) — String not found`, `✓ Read`. */
const RESULT_LABEL = /^([✓✗]) (tool result|tool error|\S+)(?: \(\+\d+\))?(?: — ([\s\S]*))?$/;

/** How far up a result looks for the call it answers (parallel calls put a few lines between them). */
const CALL_SEARCH_DEPTH = 12;

/** Labels are the transcript's words; markdown emphasis markers are noise on a card. */
export function plainText(label: string): string {
  return label.replace(/\*\*/g, '');
}

/** "Bash: git status" → "git status"; "Edit src/a.ts" → "src/a.ts"; a bare "Read" → "". */
export function mainArgument(toolName: string, label: string): string {
  if (!label.startsWith(toolName)) return label;
  const rest = label.slice(toolName.length);
  // "Task (general): …" keeps its type; the name alone says nothing more.
  return rest.replace(/^(?: \(\+\d+\))?(?::\s*|\s+)/, '').trim();
}

export interface CardSource {
  readonly nodes: readonly NodeSummary[];
  /** The tree's parent index per node (SessionStructure.tree.parent). */
  readonly parent: Int32Array;
}

/** The call node a result answers: the nearest ancestor call that made a call of this tool. */
function callOf(source: CardSource, index: number, toolName: string | null): NodeSummary | null {
  let at = source.parent[index]!;
  for (let depth = 0; at >= 0 && depth < CALL_SEARCH_DEPTH; depth++, at = source.parent[at]!) {
    const node = source.nodes[at]!;
    if (node.kind === 'user') return null; // a new prompt: the call is not in this turn
    if (node.toolCalls.length > 0 && (toolName === null || node.toolCalls.some((call) => call.name === toolName))) return node;
  }
  return null;
}

function callTitle(call: NodeSummary): string {
  const first = call.toolCalls[0]!;
  return call.toolCalls.length > 1 ? `${first.name} +${call.toolCalls.length - 1}` : first.name;
}

function resultText(source: CardSource, index: number, node: NodeSummary, match: RegExpExecArray): CardText {
  const name = match[2]!;
  const known = name === 'tool result' || name === 'tool error' ? null : name;
  const call = callOf(source, index, known);
  const answered = call === null ? (known ?? 'tool') : plainText(call.label);
  const detail = (match[3] ?? '').trim();
  return { title: `← ${answered}`, text: detail.length > 0 ? plainText(detail) : NO_OUTPUT, failed: match[1] === '✗' || node.kind === 'error', outcomeMissing: false };
}

/** A fork or merge reads by its folder's name and a short id, so two forks never look the same. */
function workspaceText(node: NodeSummary, info: WorkspaceNodeInfo): CardText {
  const folder = info.dir.replace(/[\\/]+$/, '').split(/[\\/]/).pop() || info.dir;
  const id = node.id.replace(/^(snapshot|fork|merge|hook)-/, '').slice(0, 7);
  const files = /\((\d+ files?)\)$/.exec(node.label)?.[1];
  // The id leads: fork folders are named by date first, so their names part only at the end.
  return { title: `${WORKSPACE_TITLE[info.kind]} ${id}`, text: files ? `${folder} · ${files}` : folder, failed: false, outcomeMissing: false };
}

export function cardText(source: CardSource, index: number, workspace: WorkspaceNodeInfo | null = null): CardText {
  const node = source.nodes[index]!;
  if (workspace !== null) return workspaceText(node, workspace);
  const label = plainText(node.label);
  switch (node.kind) {
    case 'tool_call': {
      const first = node.toolCalls[0];
      if (first === undefined) return { title: KIND_TITLE.tool_call, text: label, failed: false, outcomeMissing: false };
      return {
        title: callTitle(node),
        text: mainArgument(first.name, label),
        failed: node.toolCalls.some((call) => call.outcome === 'error'),
        outcomeMissing: node.toolCalls.some((call) => call.outcome === 'missing'),
      };
    }
    case 'tool_result':
    case 'error': {
      const match = RESULT_LABEL.exec(node.label);
      if (match) return resultText(source, index, node, match);
      return { title: KIND_TITLE[node.kind], text: label.replace(/^✗ /, ''), failed: node.kind === 'error', outcomeMissing: false };
    }
    case 'thinking':
      return { title: KIND_TITLE.thinking, text: label.replace(/^Thinking: /, ''), failed: false, outcomeMissing: false };
    case 'progress': {
      // "Hook PostToolUse:Edit" (shown with Show all lines): the hook is what the line is.
      const hook = /^(✗ )?Hook:? (.*)$/.exec(label);
      if (hook) return { title: hook[1] ? 'Hook failed' : 'Hook', text: hook[2]!, failed: hook[1] !== undefined, outcomeMissing: false };
      return { title: KIND_TITLE.progress, text: label, failed: false, outcomeMissing: false };
    }
    default:
      return { title: KIND_TITLE[node.kind], text: label, failed: false, outcomeMissing: false };
  }
}
