/**
 * "Continue from the merge" (`merge.continue`, `arbor continue-merge`): Arbor merged the files; the
 * conversation has no merge base, so the agent merges it. The agent is resumed in the merged folder on ours'
 * path — written exactly as a fork from ours' node is (the fork's transcript writer), paths moved into the
 * merged folder — followed by ONE merge-summary block of theirs since the fork point: its prompts, the
 * assistant's conclusions, the files it changed, and how the merge settled each file.
 *
 * The continuation is recorded as a fork whose branch node hangs below the merge node (so its steps are drawn
 * below the merge, which has ours as parent and theirs as second parent), and the transcript is imported at
 * once, so the summary node is in the graph before the agent runs.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ForkRecord, ForkRecords } from '../db/fork-records';
import type { MergeRecord, MergeRecords } from '../db/merge-records';
import type { SnapshotRecord, StoredNode } from '../db/session-store';
import { writeClaudeForkTranscript } from '../forks/claude-fork-transcript';
import { storedRolloutReader } from '../forks/codex/stored-rollout';
import { codexResumeCommand, planCodexFork, writeCodexFork } from '../forks/codex/codex-fork';
import { checkRollout } from '../forks/codex/rollout-rules';
import { nearestTranscriptNode } from '../forks/create-fork';
import { planResumableTranscript } from '../forks/resumable-plan';
import { memberText } from '../forks/transcript-line';
import { storeTranscriptSource } from '../forks/transcript-source';
import { foldersOfNode } from '../service/session-folders';
import type { WorkspaceContext } from '../service/workspace-context';
import { snapshotNode } from '../service/workspace-state';
import { ArborError } from '../../shared/errors';
import { renderMergeSummary } from '../../shared/merge-summary';
import type { MergeContinued } from '../../shared/operations';
import { ancestry, NodeGraph, pathBelow } from './node-graph';
import { claudeSummaryLine, codexSummaryLine } from './summary-lines';
import { theirsTurns } from './theirs-history';

export interface ContinueMergeParts {
  readonly merges: MergeRecords;
  readonly forks: ForkRecords;
  /** Imports the written transcript (the service's import), so its summary node joins the graph now. */
  readonly importFiles: (paths: readonly string[]) => Promise<unknown>;
}

interface Written {
  readonly resumeSessionId: string;
  readonly resume: string;
  readonly transcript: string;
  readonly history: string | null;
  readonly summaryNode: string | null;
  readonly warnings: readonly string[];
}

export async function continueFromMerge(workspace: WorkspaceContext, parts: ContinueMergeParts, operation: string, signal: AbortSignal): Promise<MergeContinued> {
  const { store } = workspace;
  const record = parts.merges.get(operation);
  if (record === null) throw new ArborError('NOT_FOUND', `No merge ${operation} (merges applied before this version of Arbor cannot be continued)`, { operation });
  const journaled = workspace.operations.list({ workspace: record.dir, limit: 10_000 }).find((entry) => entry.operation === operation);
  if (journaled !== undefined && journaled.status !== 'applied') {
    throw new ArborError('BAD_REQUEST', `The merge ${operation} was ${journaled.status}: the folder no longer holds it`, { operation });
  }
  const merged = store.getSnapshotByNode(record.mergeNode);
  if (merged === null) throw new ArborError('NOT_FOUND', `The merge node ${record.mergeNode} is gone`, { nodeId: record.mergeNode });
  // Ours' conversation: its own step, or the step its snapshot (a fork's branch, a capture) hangs below.
  const oursStep = store.getNode(record.oursNode) !== null ? record.oursNode : nearestTranscriptNode(store, store.getSnapshotByNode(record.oursNode)?.parentId ?? null);
  const conversation = oursStep === null ? null : store.getNode(oursStep);
  if (conversation === null) throw new ArborError('BAD_REQUEST', 'Ours has no transcript step before it: there is no conversation to continue', { nodeId: record.oursNode });
  const fromDir = foldersOfNode(store, conversation.summary.id).folder ?? store.getSession(conversation.summary.sessionId)?.project ?? null;
  const text = summaryText(workspace, record);
  const progress = (phase: 'transcript' | 'import', done: number): void => workspace.events.emit('operation.progress', { operation, phase, done, total: 1 });

  const continued = await workspace.writes.run(async (): Promise<MergeContinued> => {
    progress('transcript', 0);
    const codex = store.getSession(conversation.summary.sessionId)?.source === 'codex';
    const written = codex
      ? await writeCodex(workspace, conversation, fromDir, record, text, signal)
      : await writeClaude(workspace, conversation, fromDir, record, text, signal);
    const forkId = randomUUID();
    const createdAt = workspace.now().toISOString();
    const branch: SnapshotRecord = {
      id: forkId,
      nodeId: `snapshot-${forkId}`,
      sessionId: record.sessionId,
      parentId: record.mergeNode,
      dir: record.dir,
      // The folder as the merge left it: the merge node's capture, not a second one.
      treeOid: merged.treeOid,
      commitOid: merged.commitOid,
      files: merged.files,
      createdAt,
      kind: 'fork',
    };
    const fork: ForkRecord = {
      id: forkId,
      nodeId: conversation.summary.id,
      sessionId: record.sessionId,
      branchNodeId: branch.nodeId,
      dir: record.dir,
      // The merged folder is the user's: removing this branch never deletes it.
      dirCreated: false,
      resumeSessionId: written.resumeSessionId,
      transcript: written.transcript,
      createdAt,
    };
    try {
      parts.forks.add(fork, branch);
    } catch (error) {
      await rm(written.transcript, { force: true });
      if (written.history !== null) await rm(written.history, { recursive: true, force: true });
      throw error;
    }
    workspace.events.emit('sessions.changed', { sessionIds: [record.sessionId] });
    progress('transcript', 1);
    return {
      operation,
      mergeNode: record.mergeNode,
      branch: branch.nodeId,
      fork: forkId,
      dir: record.dir,
      resume: written.resume,
      resumeSessionId: written.resumeSessionId,
      transcript: written.transcript,
      summaryNode: written.summaryNode,
      warnings: written.warnings,
    };
  });
  // Outside the write queue: the import takes the store's writer turn itself.
  progress('import', 0);
  await parts.importFiles([continued.transcript]);
  progress('import', 1);
  const summaryNode = continued.summaryNode ?? findSummaryNode(workspace, continued.transcript);
  return { ...continued, summaryNode: summaryNode !== null && store.getNode(summaryNode) !== null ? summaryNode : null };
}

/** The block's text: theirs' turns below the merge base, and the merge's files as it settled them. */
function summaryText(workspace: WorkspaceContext, record: MergeRecord): string {
  const { store } = workspace;
  const graph = new NodeGraph(store);
  const theirs = graph.node(record.theirsNode);
  const labelOf = (id: string): string => {
    const node = graph.node(id);
    if (node?.snapshot !== undefined) return snapshotNode(node.snapshot).label;
    return node?.summary?.label ?? id;
  };
  const { turns, turnsLeftOut } = theirsTurns(store, graph, pathBelow(ancestry(graph, record.theirsNode), record.baseNode));
  return renderMergeSummary({
    theirsTitle: theirs === null ? null : (store.getSession(theirs.sessionId)?.title ?? null),
    theirsLabel: labelOf(record.theirsNode),
    baseLabel: record.baseNode === null ? null : labelOf(record.baseNode),
    dir: record.dir,
    turns,
    turnsLeftOut,
    files: record.files,
  });
}

async function writeClaude(workspace: WorkspaceContext, conversation: StoredNode, fromDir: string | null, record: MergeRecord, text: string, signal: AbortSignal): Promise<Written> {
  const planned = await planResumableTranscript(storeTranscriptSource(workspace.store, conversation.summary.sessionId, signal), conversation.summary.id);
  if (!planned.resumable) throw new ArborError('BAD_REQUEST', `No resumable transcript: ${planned.reason}`, { nodeId: conversation.summary.id });
  const summaryNode = randomUUID();
  const last = planned.plan.lines.at(-1)?.entry.text;
  const version = last === undefined ? undefined : memberText(last, 'version');
  const written = await writeClaudeForkTranscript(
    workspace,
    {
      plan: planned.plan,
      sessionId: conversation.summary.sessionId,
      fromDir,
      toDir: record.dir,
      append: (sessionId, lastUuid) => [
        claudeSummaryLine(text, {
          uuid: summaryNode,
          sessionId,
          parentUuid: lastUuid,
          cwd: record.dir,
          timestamp: workspace.now(),
          version: version === undefined ? null : (JSON.parse(version) as unknown as string),
          operation: record.operation,
          mergeNode: record.mergeNode,
          theirsNode: record.theirsNode,
        }),
      ],
    },
    signal,
  );
  return { ...written, summaryNode };
}

async function writeCodex(workspace: WorkspaceContext, conversation: StoredNode, fromDir: string | null, record: MergeRecord, text: string, signal: AbortSignal): Promise<Written> {
  const now = workspace.now();
  const planned = await planCodexFork({ node: conversation, fromDir, toDir: record.dir, homeDir: workspace.homeDir, env: workspace.env, now, signal, stored: storedRolloutReader(workspace.store) });
  if (!planned.resumable) throw new ArborError('BAD_REQUEST', `No resumable rollout: ${planned.reason}`, { nodeId: conversation.summary.id });
  const withSummary = { ...planned, text: `${planned.text}${codexSummaryLine(text, now)}\n` };
  // The block must not cost the copy its resumability: the rules are checked again with it.
  const errors = checkRollout(withSummary.text, { fileName: basename(planned.path) }).findings.filter((finding) => finding.severity === 'error');
  if (errors.length > 0) throw new ArborError('BAD_REQUEST', `The rollout with the merge summary would break Codex's rules (${errors.map((e) => e.reason).join('; ')})`, { nodeId: conversation.summary.id });
  await writeCodexFork(withSummary);
  return { resumeSessionId: planned.threadId, resume: codexResumeCommand(planned.threadId), transcript: planned.path, history: null, summaryNode: null, warnings: planned.warnings };
}

/** A Codex summary's node id is the importer's (file and line): the file's last node once imported. */
function findSummaryNode(workspace: WorkspaceContext, transcript: string): string | null {
  const ids = workspace.store.getNodeIdsOfFile(transcript);
  for (let index = ids.length - 1; index >= 0; index--) {
    const node = workspace.store.getNode(ids[index]!);
    if (node?.summary.kind === 'merge-summary') return node.summary.id;
  }
  return null;
}
