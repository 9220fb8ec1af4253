/**
 * Preparing a merge of two nodes: each side's files (a live folder captured now, an exact snapshot, or a
 * reconstruction), the base at their lowest common ancestor, the automatic tree merge, each side's messages
 * since the ancestor, and what the target folder holds now (so apply can tell it changed since).
 */
import { resolve } from 'node:path';
import type { SnapshotRecord } from '../db/session-store';
import { readNodeContent } from '../importers/claude-code/node-content';
import { readWorkspaceFile, type FileVersion } from '../git/workspace-files';
import type { WorkspaceContext } from '../service/workspace-context';
import { snapshotNode } from '../service/workspace-state';
import { ArborError } from '../../shared/errors';
import { mergeTrees, type TreeMergeResult } from '../../shared/merge';
import type { MergeSide } from '../../shared/operations';
import {
  captureLiveTree,
  combineTrees,
  EMPTY_TREE,
  isLiveSnapshot,
  MergeBlobs,
  reconstructedTree,
  snapshotTree,
  type TreeView,
} from './merge-trees';
import { ancestry, lowestCommonAncestor, NodeGraph, pathBelow, type GraphNode } from './node-graph';
import { sideMessages } from './side-messages';

/** Everything `merge.file` and `merge.apply` need, kept server-side under the preview's token. */
export interface PreparedMerge {
  readonly oursNode: string;
  readonly theirsNode: string;
  /** The session the merge node joins: ours'. */
  readonly sessionId: string;
  readonly base: string | null;
  /** What the merge view calls the base: its node's label. */
  readonly baseLabel: string | null;
  readonly ours: MergeSide;
  readonly theirs: MergeSide;
  readonly into: string;
  readonly merge: TreeMergeResult;
  readonly blobs: MergeBlobs;
  /** What the target held at each merged path when previewed (null: nothing). */
  readonly expected: ReadonlyMap<string, FileVersion | null>;
}

interface ResolvedSide {
  readonly node: GraphNode;
  readonly view: TreeView;
  /** The folder the side's paths are relative to. */
  readonly root: string | null;
  readonly live: string | null;
}

export async function prepareMerge(
  workspace: WorkspaceContext,
  request: { readonly nodeIdA: string; readonly nodeIdB: string; readonly into?: string },
  signal: AbortSignal,
): Promise<PreparedMerge> {
  const { store } = workspace;
  const graph = new NodeGraph(store);
  const nodeOf = (id: string): GraphNode => {
    const node = graph.node(id);
    if (node === null) throw new ArborError('NOT_FOUND', `No node ${id}`, { nodeId: id });
    return node;
  };
  const oursNode = nodeOf(request.nodeIdA);
  const theirsNode = nodeOf(request.nodeIdB);
  const walkOurs = ancestry(graph, oursNode.id);
  const walkTheirs = ancestry(graph, theirsNode.id);
  const base = lowestCommonAncestor(walkOurs, walkTheirs);
  const objects = workspace.objects();
  const blobs = new MergeBlobs(objects);

  // Live folders are captured under the write queue: no workspace operation runs while they are read.
  const [ours, theirs] = await workspace.writes.run(async () => [
    await resolveSide(workspace, oursNode, blobs, signal),
    await resolveSide(workspace, theirsNode, blobs, signal),
  ]);
  const baseView = base === null ? EMPTY_TREE : await stateTree(workspace, nodeOf(base), blobs, signal);
  // A reconstructed base knows only the files the session touched. For the rest, the best base is what the
  // forks started from: a fork's tree as materialized at its fork point (the fork right below the ancestor on
  // ours' path, else on theirs'). Without one, unknown base paths count as absent (differing sides conflict).
  const exactBase = base === null || nodeOf(base).snapshot !== undefined;
  const fallback = exactBase ? null : (forkTreeBelow(workspace, graph, walkOurs, base) ?? forkTreeBelow(workspace, graph, walkTheirs, base));
  const trees = combineTrees(baseView, fallback, ours.view, theirs.view);
  const merge = await mergeTrees({ ...trees, load: blobs.load, signal });

  const into = targetFolder(workspace, ours, request.into);
  const expected = new Map<string, FileVersion | null>();
  for (const file of merge.files) {
    const found = await readWorkspaceFile(into, file.entry.path);
    expected.set(file.entry.path, found === null ? null : { oid: found.oid, mode: found.mode });
  }
  const side = (resolved: ResolvedSide, walk: ReturnType<typeof ancestry>): MergeSide => ({
    nodeId: resolved.node.id,
    label: labelOf(resolved.node),
    sessionTitle: store.getSession(resolved.node.sessionId)?.title ?? null,
    dir: resolved.live,
    messages: sideMessages(store, graph, pathBelow(walk, base), resolved.root),
  });
  return {
    oursNode: oursNode.id,
    theirsNode: theirsNode.id,
    sessionId: oursNode.sessionId,
    base,
    baseLabel: base === null ? null : labelOf(nodeOf(base)),
    ours: side(ours, walkOurs),
    theirs: side(theirs, walkTheirs),
    into,
    merge,
    blobs,
    expected,
  };
}

async function resolveSide(workspace: WorkspaceContext, node: GraphNode, blobs: MergeBlobs, signal: AbortSignal): Promise<ResolvedSide> {
  const { snapshot } = node;
  if (snapshot !== undefined && isLiveSnapshot(workspace.store, snapshot)) {
    const { view } = await captureLiveTree(workspace.objects(), snapshot.dir, signal, workspace.git);
    return { node, view, root: snapshot.dir, live: snapshot.dir };
  }
  return { node, view: await stateTree(workspace, node, blobs, signal), root: rootOf(workspace, node), live: null };
}

/** A node's recorded state as a tree: its exact snapshot, or its session's reconstruction. */
async function stateTree(workspace: WorkspaceContext, node: GraphNode, blobs: MergeBlobs, signal: AbortSignal): Promise<TreeView> {
  if (node.snapshot !== undefined) return snapshotTree(workspace.objects(), node.snapshot.treeOid);
  const root = rootOf(workspace, node);
  if (root === null) return EMPTY_TREE_UNKNOWN;
  const state = await workspace.states.stateOf(node.id, signal);
  return reconstructedTree(state, root, blobs);
}

/** A state that knows nothing (a transcript node whose folder is not known). */
const EMPTY_TREE_UNKNOWN: TreeView = { files: new Map(), knows: () => false, paths: [] };

/** The folder a node's paths are relative to: a snapshot's folder, the step's cwd, or its session's project. */
function rootOf(workspace: WorkspaceContext, node: GraphNode): string | null {
  if (node.snapshot !== undefined) return node.snapshot.dir;
  const stored = workspace.store.getNode(node.id);
  const cwd = stored === null ? null : readNodeContent(stored.raw.toString('utf8')).cwd;
  return cwd ?? workspace.store.getSession(node.sessionId)?.project ?? null;
}

function forkTreeBelow(workspace: WorkspaceContext, graph: NodeGraph, walk: ReturnType<typeof ancestry>, base: string): TreeView | null {
  const below = pathBelow(walk, base)[0];
  const record: SnapshotRecord | undefined = below === undefined ? undefined : graph.node(below)?.snapshot;
  if (record === undefined || record.kind !== 'fork' || record.parentId !== base) return null;
  return snapshotTree(workspace.objects(), record.treeOid);
}

/** Default target: ours' live folder, else the folder ours' session ran in, else the folder ours' snapshot is of. */
function targetFolder(workspace: WorkspaceContext, ours: ResolvedSide, into: string | undefined): string {
  if (into !== undefined) return resolve(into);
  const folder = ours.live ?? workspace.store.getSession(ours.node.sessionId)?.project ?? ours.node.snapshot?.dir ?? null;
  if (folder === null) throw new ArborError('BAD_REQUEST', 'Ours has no workspace folder: say where to merge into', { nodeId: ours.node.id });
  return folder;
}

function labelOf(node: GraphNode): string {
  if (node.snapshot !== undefined) return snapshotNode(node.snapshot).label;
  return node.summary?.label ?? node.id;
}
