/**
 * `fork.create`: a new branch from any node. Order matters for the user's files and for failure:
 *   1. the target is checked (new or empty folder, not inside the source workspace) and the resumable
 *      transcript is planned — every line it copies is read now, so an unreadable line stops the fork
 *      before anything is written;
 *   2. the folder is written (exact snapshot, or source copy + reconstructed files), then captured exactly;
 *   3. the transcript is written (with the source sessions' file-history backups linked under its id, so
 *      `/rewind` works in the resumed fork; for a Codex session a new rollout, codex/codex-fork.ts), and the
 *      fork and its branch node (a `fork` snapshot whose parent is the fork point) are recorded in one transaction.
 * A failure at any step removes what the earlier steps wrote. The source workspace is only ever read.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ForkRecord, ForkRecords } from '../db/fork-records';
import type { SessionStore, SnapshotRecord } from '../db/session-store';
import { captureDirectory } from '../git/capture';
import { snapshotRefName } from '../git/object-store';
import { StatCache } from '../git/stat-cache';
import { foldersOfNode } from '../service/session-folders';
import type { WorkspaceContext } from '../service/workspace-context';
import { ArborError } from '../../shared/errors';
import type { ForkCreated, SkippedPath } from '../../shared/operations';
import { codexResumeCommand, planCodexFork, writeCodexFork, type CodexForkOutcome } from './codex/codex-fork';
import { writeClaudeForkTranscript } from './claude-fork-transcript';
import { storedRolloutReader } from './codex/stored-rollout';
import { checkForkTarget, discardForkFolder, isInside, resolvedPath, writeExactFork, writeReconstructedFork, type ForkPhase } from './fork-workspace';
import { planResumableTranscript, type ResumablePlanOutcome } from './resumable-plan';
import { storeTranscriptSource } from './transcript-source';

export interface ForkRequest {
  readonly nodeId: string;
  readonly dir?: string;
}

export async function createFork(workspace: WorkspaceContext, records: ForkRecords, request: ForkRequest, signal: AbortSignal): Promise<ForkCreated> {
  const { store } = workspace;
  const forkId = randomUUID();
  const progress = (phase: ForkPhase, done: number, total: number): void =>
    workspace.events.emit('operation.progress', { operation: forkId, phase, done, total });

  const snapshot = store.getSnapshotByNode(request.nodeId);
  const stored = snapshot === null ? store.getNode(request.nodeId) : null;
  if (snapshot === null && stored === null) throw new ArborError('NOT_FOUND', `No node ${request.nodeId}`, { nodeId: request.nodeId });
  const sessionId = snapshot?.sessionId ?? stored!.summary.sessionId;
  // The folder in force at the node: a session that moved or entered a worktree forks from where it then was.
  const folders = snapshot === null ? foldersOfNode(store, request.nodeId) : { folder: null, movedFrom: [] };
  const source = snapshot?.dir ?? folders.folder ?? store.getSession(sessionId)?.project ?? null;
  const target = resolve(request.dir ?? join(workspace.dataDir, 'forks', `${stamp(workspace.now())}-${forkId.slice(0, 8)}`));
  // Through a symlink too: a fork inside the source would write into the user's workspace.
  if (source !== null && (isInside(target, source) || isInside(await resolvedPath(target), await resolvedPath(source)))) {
    throw new ArborError('BAD_REQUEST', `${target} is inside the source workspace ${source}: a fork goes into a folder of its own`, { path: target });
  }

  return workspace.writes.run(async () => {
    const { exists } = await checkForkTarget(target);
    const conversation = snapshot === null ? request.nodeId : nearestTranscriptNode(store, snapshot.parentId);
    // Each format writes its own resumable copy: a Codex session a rollout (codex/), every other a Claude Code transcript.
    const conversationNode = conversation === null ? null : store.getNode(conversation)!;
    const planned: ResumablePlanOutcome | CodexForkOutcome =
      conversationNode === null
        ? { resumable: false, reason: 'the snapshot has no transcript step before it' }
        : store.getSession(conversationNode.summary.sessionId)?.source === 'codex'
          ? await planCodexFork({ node: conversationNode, fromDir: source, toDir: target, homeDir: workspace.homeDir, env: workspace.env, now: workspace.now(), signal, stored: storedRolloutReader(store) })
          : await planResumableTranscript(storeTranscriptSource(store, conversationNode.summary.sessionId, signal), conversationNode.summary.id);

    const objects = workspace.objects();
    const warnings: string[] = [];
    let skipped: readonly SkippedPath[] = [];
    let transcript: string | null = null;
    let history: string | null = null;
    let captured = false;
    try {
      if (snapshot !== null) {
        await writeExactFork(objects, snapshot.treeOid, target, { signal, onProgress: progress });
      } else if (source === null) {
        throw new ArborError('NOT_FOUND', `The session of ${request.nodeId} has no known workspace to fork from`, { nodeId: request.nodeId });
      } else {
        const state = await workspace.states.stateOf(request.nodeId, signal);
        const written = await writeReconstructedFork(objects, source, state, target, { signal, onProgress: progress, git: workspace.git, formerDirs: folders.movedFrom });
        skipped = written.skipped;
        if (state.known === 'unknown') {
          warnings.push('A step before the node may have changed files in ways the transcript does not record: those files are as the source has them now');
        }
        if (!written.sourceCopied) warnings.push(`${source} was not found: the fork holds only the files the session touched`);
        if (skipped.length > 0) warnings.push(`${skipped.length} of the node's files could not be set (their content there is unknown or outside the workspace): they are as the source has them now`);
        if (written.unverified.length > 0) {
          const paths = written.unverified.map((file) => file.path).join(', ');
          warnings.push(`${written.unverified.length} of the node's files were set to the transcript's replay, which a step it cannot replay may have changed (not verified): ${paths}`);
        }
      }

      progress('capture', 0, 1);
      const statCache = await StatCache.forDirectory(objects, target);
      const capture = await captureDirectory(objects, target, { signal, statCache, git: workspace.git, commit: { message: `Fork of ${request.nodeId} into ${target}`, snapshotId: forkId } });
      captured = true;
      progress('capture', 1, 1);

      let resumeSessionId: string | null = null;
      let resume: string | null = null;
      if (planned.resumable && 'threadId' in planned) {
        progress('transcript', 0, 1);
        await writeCodexFork(planned);
        transcript = planned.path;
        resumeSessionId = planned.threadId;
        resume = codexResumeCommand(planned.threadId);
        warnings.push(...planned.warnings);
        progress('transcript', 1, 1);
      } else if (planned.resumable) {
        progress('transcript', 0, 1);
        const written = await writeClaudeForkTranscript(
          workspace,
          { plan: planned.plan, sessionId: store.getNode(conversation!)!.summary.sessionId, fromDir: source, toDir: target },
          signal,
        );
        ({ resumeSessionId, resume, transcript, history } = written);
        warnings.push(...written.warnings);
        progress('transcript', 1, 1);
      } else {
        warnings.push(`No resumable transcript: ${planned.reason}`);
      }

      const createdAt = workspace.now().toISOString();
      const branch: SnapshotRecord = {
        id: forkId,
        nodeId: `snapshot-${forkId}`,
        sessionId,
        parentId: request.nodeId,
        dir: target,
        treeOid: capture.treeOid,
        commitOid: capture.commitOid ?? null,
        files: capture.files,
        createdAt,
        kind: 'fork',
      };
      const fork: ForkRecord = {
        id: forkId,
        nodeId: request.nodeId,
        sessionId,
        branchNodeId: branch.nodeId,
        dir: target,
        dirCreated: !exists,
        resumeSessionId,
        transcript,
        createdAt,
      };
      records.add(fork, branch);
      workspace.events.emit('sessions.changed', { sessionIds: [sessionId] });
      return {
        fork: forkId,
        branch: branch.nodeId,
        dir: target,
        resume,
        resumeSessionId,
        transcript,
        files: capture.files,
        skipped,
        warnings,
      };
    } catch (error) {
      await discardForkFolder(target, exists);
      if (transcript !== null) await rm(transcript, { force: true });
      if (history !== null) await rm(history, { recursive: true, force: true });
      if (captured) await objects.deleteRef(snapshotRefName(forkId)).catch(() => undefined);
      throw error;
    }
  });
}

/** The transcript step a snapshot hangs below (through other snapshots), or null when there is none. */
export function nearestTranscriptNode(store: SessionStore, parentId: string | null): string | null {
  const seen = new Set<string>();
  for (let id = parentId; id !== null && !seen.has(id); ) {
    seen.add(id);
    if (store.getNode(id) !== null) return id;
    id = store.getSnapshotByNode(id)?.parentId ?? null;
  }
  return null;
}

function stamp(date: Date): string {
  return date.toISOString().replace(/\.\d+Z$/, '').replace(/[-:]/g, '').replace('T', '-');
}
