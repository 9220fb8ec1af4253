/**
 * A node as an export holds it: plain data the three formats are written from, and the one shape redaction
 * walks, so a secret replaced here is gone from every format and every field at once. The transcript's raw
 * line and file paths of the store are never part of it.
 */
import type { ExportStep } from '../../shared/export-branch';
import type { ExportedBlock, ExportedFileEffect, ExportedNode, ExportedToolCall } from '../../shared/export';
import type { ContentBlock, NodeDetail, ToolCallDetail } from '../../shared/model';

export function exportedNode(step: ExportStep, detail: NodeDetail, shownCalls: ReadonlySet<string>): ExportedNode {
  const calls = new Set(detail.toolCalls.map((call) => call.id));
  const results = detail.blocks.filter((block) => block.type === 'tool_result');
  // A result whose call is on an earlier node: its text is that call's `result`, not written twice.
  const resultOf = results.length > 0 && results.every((block) => shownCalls.has(block.toolUseId)) ? results[0]!.toolUseId : null;
  const blocks: ExportedBlock[] = [];
  for (const block of detail.blocks) {
    if (resultOf !== null && block.type === 'tool_result') continue;
    const exported = exportedBlock(block, calls);
    if (exported !== null) blocks.push(exported);
  }
  return {
    id: step.node.id,
    parentId: step.node.parentId,
    kind: step.node.kind,
    timestamp: step.node.timestamp,
    model: step.node.model,
    agentRun: step.agentRun,
    branch: step.branch === null ? null : { index: step.branch.index, of: step.branch.of },
    resultOf,
    label: step.node.label,
    blocks,
    toolCalls: detail.toolCalls.map(exportedCall),
    fileEffects: detail.toolCalls.flatMap(fileEffectsOf),
  };
}

function exportedBlock(block: ContentBlock, calls: ReadonlySet<string>): ExportedBlock | null {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'thinking':
      return { type: 'thinking', text: block.text, redacted: block.redacted };
    case 'tool_use':
      // Drawn as the node's tool call; a block without its detail is kept as an opaque block.
      return calls.has(block.id) ? null : { type: 'other', blockType: `tool_use ${block.name}` };
    case 'tool_result':
      return { type: 'tool_result', toolUseId: block.toolUseId, text: block.text, isError: block.isError };
    case 'image':
      return { type: 'image', mediaType: block.mediaType, bytes: block.bytes };
    case 'other':
      return { type: 'other', blockType: block.blockType };
  }
}

function exportedCall(call: ToolCallDetail): ExportedToolCall {
  return {
    id: call.id,
    name: call.name,
    outcome: call.outcome,
    input: call.input,
    exitCode: call.exitCode ?? null,
    durationMs: call.durationMs,
    result: call.resultText,
  };
}

/** The files a call writes, as its input names them: Edit/MultiEdit/Write/NotebookEdit, or a patch's files. */
export function fileEffectsOf(call: ToolCallDetail): ExportedFileEffect[] {
  if (call.shape?.kind === 'patch') {
    return call.shape.files.map((file) => ({
      path: file.path,
      action: file.action,
      toolCallId: call.id,
      ...(file.movePath !== null ? { movePath: file.movePath } : {}),
    }));
  }
  const input = call.input as Record<string, unknown> | null;
  const path = typeof input?.file_path === 'string' ? input.file_path : typeof input?.notebook_path === 'string' ? input.notebook_path : null;
  if (path === null) return [];
  if (call.name === 'Edit' || call.name === 'MultiEdit' || call.name === 'NotebookEdit') return [{ path, action: 'edit', toolCallId: call.id }];
  if (call.name === 'Write') return [{ path, action: 'write', toolCallId: call.id }];
  return [];
}
