/** Tiny synthetic sessions for reconstruction tests: nodes, their raw lines and attached checkpoint lines. */
import { reconstructSession, type AttachedLine, type FileHistorySource, type ReconstructOptions } from '../../../../electron/snapshots/reconstruct';
import { structuredPatch } from '../../../../electron/demo/structured-patch';
import type { ExtraEdge, NodeKind, NodeSummary, ToolCallRef } from '../../../../shared/model';

export const SESSION_ID = '0b7e7f4e-3c1a-4d2b-9a55-6f1e2d3c4b5a';
export const CWD = '/w';

/** A tiny session: nodes with their raw lines, built step by step. */
export class Session {
  readonly nodes: NodeSummary[] = [];
  readonly raws = new Map<string, string>();
  /** file-history-snapshot lines attached to a node, as store.getRecords gives them. */
  readonly records = new Map<string, AttachedLine[]>();
  private calls = 0;

  private add(id: string, parentId: string | null, kind: NodeKind, raw: object, toolCalls: ToolCallRef[] = [], extraEdges: ExtraEdge[] = []): string {
    this.nodes.push({
      id, sessionId: 's', sourceId: id, parentSourceId: parentId, parentId, extraEdges, kind, timestamp: null, label: id,
      toolCalls, sidechain: false, agentId: null, model: null,
    });
    this.raws.set(id, JSON.stringify({ uuid: id, parentUuid: parentId, sessionId: SESSION_ID, cwd: CWD, ...raw }));
    return id;
  }

  prompt(id: string, parent: string | null, extraEdges: ExtraEdge[] = []): string {
    return this.add(id, parent, 'user', { type: 'user', message: { role: 'user', content: 'do it' } }, [], extraEdges);
  }

  /** A tool call and its result; returns the result's id. `result` undefined = outcome never recorded. */
  tool(id: string, parent: string, name: string, input: object, result?: { value: unknown; isError?: boolean }): string {
    const toolUseId = this.call(id, parent, name, input, result === undefined ? 'missing' : result.isError ? 'error' : 'ok');
    if (result === undefined) return id;
    return this.result(`${id}.r`, id, toolUseId, result.value, result.isError);
  }

  /** An assistant line carrying one tool_use; returns its tool_use id. */
  call(id: string, parent: string, name: string, input: object, outcome: 'ok' | 'error' | 'missing' = 'ok'): string {
    const toolUseId = `toolu_${++this.calls}`;
    this.add(id, parent, 'tool_call', { type: 'assistant', message: { content: [{ type: 'tool_use', id: toolUseId, name, input }] } }, [{ id: toolUseId, name, outcome }]);
    return toolUseId;
  }

  /** The user line carrying a tool_result (parented on the call's line, as Claude Code writes it). */
  result(id: string, parent: string, toolUseId: string, value: unknown, isError = false): string {
    return this.add(id, parent, isError ? 'error' : 'tool_result', {
      type: 'user',
      message: { content: [{ type: 'tool_result', tool_use_id: toolUseId, content: 'ok', ...(isError ? { is_error: true } : {}) }] },
      toolUseResult: value,
    });
  }

  /** A hook progress line: a side line that never continues the conversation. */
  progress(id: string, parent: string): string {
    return this.add(id, parent, 'progress', { type: 'progress', data: { type: 'hook_progress', hookEvent: 'PostToolUse' } });
  }

  /** A root without a parent in the middle of the transcript: a prompt, or a compact_boundary. */
  root(id: string, kind: 'user' | 'compaction', sessionId = SESSION_ID): string {
    return kind === 'user'
      ? this.add(id, null, 'user', { type: 'user', sessionId, message: { role: 'user', content: 'implement the plan' } })
      : this.add(id, null, 'compaction', { type: 'system', sessionId, subtype: 'compact_boundary', logicalParentUuid: 'not-imported' });
  }

  /** An Edit result's toolUseResult, with hunks made from the real change (or given, for display-only hunks). */
  static editResult(path: string, before: string, after: string, oldString: string, newString: string, patch = structuredPatch(before, after)) {
    return { filePath: path, oldString, newString, originalFile: before, structuredPatch: patch, userModified: false, replaceAll: false };
  }

  edit(id: string, parent: string, path: string, before: string, after: string, oldString: string, newString: string, withOriginal = true): string {
    return this.tool(id, parent, 'Edit', { file_path: path, old_string: oldString, new_string: newString }, {
      value: { filePath: path, oldString, newString, ...(withOriginal ? { originalFile: before } : {}), structuredPatch: structuredPatch(before, after), userModified: false, replaceAll: false },
    });
  }

  write(id: string, parent: string, path: string, before: string | null, content: string, withOriginal = true): string {
    return this.tool(id, parent, 'Write', { file_path: path, content }, {
      value: {
        type: before === null ? 'create' : 'update', filePath: path, content,
        structuredPatch: before === null ? [] : structuredPatch(before, content),
        ...(withOriginal ? { originalFile: before } : {}),
      },
    });
  }

  bash(id: string, parent: string, command: string): string {
    return this.tool(id, parent, 'Bash', { command }, { value: { stdout: '', stderr: '', interrupted: false } });
  }

  /**
   * A `file-history-snapshot` line attached to `nodeId`: the initial snapshot of a prompt (its own id), or an
   * update of `checkpointId`'s snapshot. Keys relative to the cwd, as Claude Code writes them.
   */
  checkpoint(nodeId: string, backups: Readonly<Record<string, string | null>>, update?: { readonly checkpointId: string }): void {
    const trackedFileBackups = Object.fromEntries(
      Object.entries(backups).map(([key, name], i) => [key, { backupFileName: name, version: Number(name?.split('@v')[1] ?? 1), backupTime: `2026-01-01T00:00:0${i}.000Z` }]),
    );
    const raw = JSON.stringify({
      type: 'file-history-snapshot',
      messageId: nodeId,
      snapshot: { messageId: update?.checkpointId ?? nodeId, trackedFileBackups, timestamp: '2026-01-01T00:00:00.000Z' },
      isSnapshotUpdate: update !== undefined,
    });
    const lines = this.records.get(nodeId) ?? [];
    lines.push({ type: 'file-history-snapshot', raw, file: `/home/u/.claude/projects/-w/${SESSION_ID}.jsonl` });
    this.records.set(nodeId, lines);
  }

  /**
   * A `file-history-delta` line (Claude Code 2026) attached to `nodeId`: the backup of one file taken before
   * that node's edit. `trackingPath` relative to the cwd (or `realParentDir`), or absolute.
   */
  delta(nodeId: string, trackingPath: string, backupFileName: string | null, version: number, realParentDir?: string): void {
    const backup = { backupFileName, version, backupTime: '2026-01-01T00:00:09.000Z', ...(realParentDir === undefined ? {} : { realParentDir }) };
    const raw = JSON.stringify({ type: 'file-history-delta', messageId: nodeId, trackingPath, backup, sessionId: SESSION_ID });
    const lines = this.records.get(nodeId) ?? [];
    lines.push({ type: 'file-history-delta', raw, file: `/home/u/.claude/projects/-w/${SESSION_ID}.jsonl` });
    this.records.set(nodeId, lines);
  }

  /** A file-history source over this session's checkpoint lines and the given backups (name → content). */
  fileHistory(readBackup: (sessionId: string, name: string) => Promise<Buffer | null>, folderAt?: (id: string) => string | null): FileHistorySource {
    return { recordsOf: (id) => this.records.get(id) ?? [], readBackup, ...(folderAt === undefined ? {} : { folderAt }) };
  }

  reconstruct(options: ReconstructOptions = {}) {
    return reconstructSession(this.nodes, (id) => this.raws.get(id) ?? null, options);
  }
}

