/**
 * Linking as nodes land (migration 011): each stored node resolves its parent, its extra edges and its
 * share of the session's branch count against what is already stored, and what it cannot resolve yet
 * waits in `link_waiting` under the id it needs, for the node, call or spawn that brings it. So an import
 * costs what it appends: nothing here reads a session's other rows, and the linker that runs after
 * (session-linker.ts) only breaks the cycles a late parent may have closed and retitles.
 */
import type { SessionId } from '../../shared/model';
import type { WritableDB } from './database';

/**
 * What a waiting row is waiting for: a parent or logical parent node, a spawner, a summary's node, a forked
 * subagent's context node (`fork-context-ref`), a nested agent's parent agent's spawn call (ref: that agent), a
 * workflow agent's launching call (ref: the run id its result names).
 */
type WaitKind = 'parent' | 'logical' | 'subagent' | 'summary' | 'context' | 'nested' | 'workflow';

export interface LinkedNode {
  readonly seq: number;
  readonly id: string;
  readonly sessionId: SessionId;
  readonly parentSourceId: string | null;
  /** The parent's seq when it was already stored (null: it waits). */
  readonly parentSeq: number | null;
  readonly logicalParentSourceId: string | null;
  readonly kind: string;
  readonly timestamp: string | null;
  readonly line: number;
  readonly spawnedByToolUseId: string | null;
  readonly spawnedAgentId: string | null;
  readonly toolUseIds: readonly string[];
  /** Set for the nodes of a subagent's file: its root is linked to the call that spawned the agent. */
  readonly subagentAgentId: string | null;
  /** A forked subagent's root: the parent's node it inherits its context from (wins over any spawn call). */
  readonly contextParentSourceId?: string | null;
  /** A nested agent's file (meta.json `parentAgentId`): without a recorded spawn, its root nests under that agent's call. */
  readonly parentAgentId?: string | null;
  /** A workflow agent's file (`subagents/workflows/<runId>/`): without a recorded spawn, its root nests under the run's launch. */
  readonly workflowRunId?: string | null;
  /** The node carries a Task/Agent call (a nested agent may be waiting for its agent's). */
  readonly spawnsAgent?: boolean;
}

export function prepareLinkStateStatements(db: WritableDB) {
  return {
    seqOf: db.prepare<[string], { seq: number }>('SELECT seq FROM nodes WHERE id = ?'),
    waitingFor: db.prepare<[string], { kind: WaitKind; item: number }>('SELECT kind, item FROM link_waiting WHERE ref = ?'),
    waitedAmong: db.prepare<[string], { ref: string }>('SELECT DISTINCT ref FROM link_waiting WHERE ref IN (SELECT value FROM json_each(?))'),
    someWaited: db.prepare<[number], { ref: string }>('SELECT ref FROM link_waiting LIMIT ?'),
    wait: db.prepare<[string, WaitKind, number]>('INSERT OR IGNORE INTO link_waiting (ref, kind, item) VALUES (?, ?, ?)'),
    stopWaiting: db.prepare<[string, WaitKind, number]>('DELETE FROM link_waiting WHERE ref = ? AND kind = ? AND item = ?'),
    child: db.prepare<[number], { session_id: string; kind: string; timestamp: string | null; line: number }>(
      'SELECT session_id, kind, timestamp, line FROM nodes WHERE seq = ?',
    ),
    subagentCandidate: db.prepare<
      [number],
      { id: string; session_id: string; parent_source_id: string | null; spawned_by_tool_use_id: string | null; agent_id: string | null; role: string; file_agent_id: string | null }
    >(
      `SELECT n.id, n.session_id, n.parent_source_id, n.spawned_by_tool_use_id, n.agent_id, f.role, f.agent_id AS file_agent_id
       FROM nodes n JOIN files f ON f.id = n.file_id WHERE n.seq = ?`,
    ),
    setParent: db.prepare<[string | null, number]>('UPDATE nodes SET parent_id = ? WHERE seq = ?'),
    insertEdge: db.prepare<[number, string, string]>('INSERT OR IGNORE INTO edges (node_seq, kind, other_id) VALUES (?, ?, ?)'),
    callNode: db.prepare<[string], { id: string }>(
      'SELECT n.id FROM tool_calls c JOIN nodes n ON n.seq = c.node_seq WHERE c.tool_use_id = ? LIMIT 1',
    ),
    spawnOf: db.prepare<[string], { id: string }>(
      `SELECT n.id FROM agent_spawns s JOIN tool_calls c ON c.tool_use_id = s.tool_use_id JOIN nodes n ON n.seq = c.node_seq
       WHERE s.agent_id = ? LIMIT 1`,
    ),
    addPromptTime: db.prepare<[number, string]>(
      `INSERT INTO prompt_times (parent_seq, time, children) VALUES (?, ?, 1)
       ON CONFLICT (parent_seq, time) DO UPDATE SET children = children + 1`,
    ),
    promptTimeChildren: db.prepare<[number, string], { children: number }>(
      'SELECT children FROM prompt_times WHERE parent_seq = ? AND time = ?',
    ),
    dropPromptTime: db.prepare<[number, string]>(
      'UPDATE prompt_times SET children = children - 1 WHERE parent_seq = ? AND time = ?',
    ),
    deletePromptTime: db.prepare<[number, string]>('DELETE FROM prompt_times WHERE parent_seq = ? AND time = ? AND children <= 0'),
    distinctTimes: db.prepare<[number], { times: number }>('SELECT count(*) AS times FROM prompt_times WHERE parent_seq = ?'),
    addBranch: db.prepare<[number, string]>('UPDATE sessions SET branch_count = branch_count + ? WHERE id = ?'),
    checkCycle: db.prepare<[number]>('INSERT OR IGNORE INTO link_cycle_checks (node_seq) VALUES (?)'),
    forwardEdge: db.prepare<[number, number, string]>(
      'UPDATE sessions SET forward_min_seq = min(coalesce(forward_min_seq, ?), ?), dirty = 1 WHERE id = ?',
    ),
    markDirty: db.prepare<[string]>('UPDATE sessions SET dirty = 1 WHERE id = ?'),
    summaryStale: db.prepare<[string]>('UPDATE sessions SET summary_stale = 1, dirty = 1 WHERE id = ?'),
    sessionOfNode: db.prepare<[string], { session_id: string }>('SELECT session_id FROM nodes WHERE id = ?'),
    // The newest Task/Agent call of an agent's file in a session, not after the nested agent started.
    agentSpawnCall: db.prepare<[string, string, string | null, string | null], { id: string }>(
      `SELECT n.id FROM nodes n JOIN tool_calls c ON c.node_seq = n.seq
       WHERE n.session_id = ? AND n.file_id IN (SELECT id FROM files WHERE agent_id = ?) AND c.name IN ('Task', 'Agent')
         AND (? IS NULL OR n.timestamp IS NULL OR n.timestamp <= ?)
       ORDER BY n.file_id DESC, n.line DESC LIMIT 1`,
    ),
  };
}
export type LinkStateStatements = ReturnType<typeof prepareLinkStateStatements>;

/**
 * The refs that stored rows may wait for, within one write transaction: those among a batch's ids, calls and
 * agents that the store has waiting rows for when the batch begins, and every ref waited on since. A node
 * whose id, calls and agent are in neither (nearly every node of a file read in order) skips its lookups: one
 * query a batch instead of one per node and call. Sound only while nothing else writes `link_waiting`, so one
 * set lives for one transaction.
 */
export class WaitingRefs {
  private constructor(private readonly refs: Set<string>) {}

  static among(s: LinkStateStatements, candidates: readonly string[]): WaitingRefs {
    if (candidates.length === 0) return new WaitingRefs(new Set());
    // Usually few rows wait (a file read in order resolves its parents as it goes): then all of them are read,
    // which costs less than looking the batch's refs up (json_each costs about a lookup per ref).
    const some = s.someWaited.all(candidates.length);
    const rows = some.length < candidates.length ? some : s.waitedAmong.all(JSON.stringify(candidates));
    return new WaitingRefs(new Set(rows.map((row) => row.ref)));
  }

  has(ref: string): boolean {
    return this.refs.has(ref);
  }

  add(ref: string): void {
    this.refs.add(ref);
  }
}

const NOTHING_WAITS: readonly { kind: WaitKind; item: number }[] = [];

/** The rows waiting for `ref` (none to look up when `waiting` knows no row does; without it, always looked up). */
function waitersOf(s: LinkStateStatements, waiting: WaitingRefs | undefined, ref: string): readonly { kind: WaitKind; item: number }[] {
  return waiting !== undefined && !waiting.has(ref) ? NOTHING_WAITS : s.waitingFor.all(ref);
}

function waitOn(s: LinkStateStatements, waiting: WaitingRefs | undefined, ref: string, kind: WaitKind, item: number): void {
  waiting?.add(ref);
  s.wait.run(ref, kind, item);
}

/** The key two prompts under one parent are told apart by (FORMATS.md §1.5: same-time replays are not branches). */
export function promptTime(timestamp: string | null, line: number): string {
  return timestamp ?? `line:${line}`;
}

/** Counts a typed prompt under its parent; the session gains a branch point when a second distinct time appears. */
export function addPrompt(s: LinkStateStatements, parentSeq: number, time: string, sessionId: string): void {
  const before = s.promptTimeChildren.get(parentSeq, time);
  s.addPromptTime.run(parentSeq, time);
  if (before === undefined && s.distinctTimes.get(parentSeq)?.times === 2) s.addBranch.run(1, sessionId);
}

/** Takes a prompt back (its parent link was cut to break a cycle). */
export function removePrompt(s: LinkStateStatements, parentSeq: number, time: string, sessionId: string): void {
  const before = s.promptTimeChildren.get(parentSeq, time);
  if (before === undefined) return;
  s.dropPromptTime.run(parentSeq, time);
  s.deletePromptTime.run(parentSeq, time);
  if (before.children === 1 && s.distinctTimes.get(parentSeq)?.times === 1) s.addBranch.run(-1, sessionId);
}

/**
 * Links one node just inserted: first what was waiting for it, then its own references. `refs`: what may wait in
 * this transaction (WaitingRefs, covering this node's id, calls, spawned agent and file agent); without it every
 * ref is looked up.
 */
export function linkStoredNode(s: LinkStateStatements, node: LinkedNode, refs?: WaitingRefs): void {
  for (const waiting of waitersOf(s, refs, node.id)) resolveWaiting(s, node, waiting.kind, waiting.item);
  for (const toolUseId of node.toolUseIds) {
    for (const waiting of waitersOf(s, refs, toolUseId)) if (waiting.kind === 'subagent') retrySpawner(s, waiting.item, refs);
  }
  if (node.spawnedAgentId !== null) {
    for (const waiting of waitersOf(s, refs, node.spawnedAgentId)) {
      if (waiting.kind === 'subagent') retrySpawner(s, waiting.item, refs);
      else if (waiting.kind === 'workflow') {
        const spawner = s.spawnOf.get(node.spawnedAgentId)?.id;
        if (spawner !== undefined) nestUnder(s, waiting.item, spawner, node.spawnedAgentId, 'workflow');
      }
    }
  }
  if (node.spawnsAgent === true && node.subagentAgentId !== null) {
    for (const waiting of waitersOf(s, refs, node.subagentAgentId)) if (waiting.kind === 'nested') nestUnder(s, waiting.item, node.id, node.subagentAgentId, 'nested');
  }

  if (node.parentSourceId !== null) {
    if (node.parentSeq === null) waitOn(s, refs, node.parentSourceId, 'parent', node.seq);
    else {
      // A node naming itself as parent is a cycle of one (broken by the linker, as any cycle).
      if (node.parentSeq >= node.seq) noteForwardEdge(s, node.seq, node.sessionId);
      if (node.kind === 'user') addPrompt(s, node.parentSeq, promptTime(node.timestamp, node.line), node.sessionId);
    }
  }
  if (node.logicalParentSourceId !== null) {
    if (node.logicalParentSourceId === node.id || s.seqOf.get(node.logicalParentSourceId) !== undefined) {
      s.insertEdge.run(node.seq, 'logical', node.logicalParentSourceId);
    } else {
      waitOn(s, refs, node.logicalParentSourceId, 'logical', node.seq);
    }
  }
  const context = node.contextParentSourceId ?? null;
  if (context !== null) {
    if (s.seqOf.get(context) !== undefined) s.insertEdge.run(node.seq, 'subagent', context);
    else waitOn(s, refs, context, 'context', node.seq);
    return;
  }
  const rootOfAgent = node.subagentAgentId !== null && node.parentSourceId === null ? node.subagentAgentId : null;
  if (linkSpawner(s, node.seq, node.id, node.spawnedByToolUseId, rootOfAgent, refs) || rootOfAgent === null) return;
  const parentAgentId = node.parentAgentId ?? null;
  if (parentAgentId !== null && parentAgentId !== rootOfAgent) {
    const call = s.agentSpawnCall.get(node.sessionId, parentAgentId, node.timestamp, node.timestamp);
    if (call !== undefined) nestUnder(s, node.seq, call.id, parentAgentId, 'nested');
    else waitOn(s, refs, parentAgentId, 'nested', node.seq);
    return;
  }
  const runId = node.workflowRunId ?? null;
  if (runId === null) return;
  const launch = s.spawnOf.get(runId);
  if (launch !== undefined) nestUnder(s, node.seq, launch.id, runId, 'workflow');
  else waitOn(s, refs, runId, 'workflow', node.seq);
}

/** A nested agent's root hangs from its parent agent's spawn call (no spawn of it was recorded). */
function nestUnder(s: LinkStateStatements, seq: number, spawnerId: string, ref: string, kind: 'nested' | 'workflow'): void {
  s.stopWaiting.run(ref, kind, seq);
  const child = s.child.get(seq);
  if (!child) return;
  s.insertEdge.run(seq, 'subagent', spawnerId);
  s.markDirty.run(child.session_id);
}

/** A summary record: retitles the session of the node it names, now or when that node arrives. */
export function linkSummary(s: LinkStateStatements, recordId: number, nodeId: string, refs?: WaitingRefs): void {
  const owner = s.sessionOfNode.get(nodeId);
  if (owner) s.summaryStale.run(owner.session_id);
  else waitOn(s, refs, nodeId, 'summary', recordId);
}

function resolveWaiting(s: LinkStateStatements, node: LinkedNode, kind: WaitKind, item: number): void {
  s.stopWaiting.run(node.id, kind, item);
  if (kind === 'summary') {
    s.summaryStale.run(node.sessionId);
    return;
  }
  const child = s.child.get(item);
  if (!child) return;
  if (kind === 'context') {
    s.insertEdge.run(item, 'subagent', node.id);
    s.markDirty.run(child.session_id);
  } else if (kind === 'logical') {
    s.insertEdge.run(item, 'logical', node.id);
    s.markDirty.run(child.session_id);
  } else if (kind === 'parent') {
    s.setParent.run(node.id, item);
    // The parent came after its child: the only way a cycle can close, so the linker walks from here.
    noteForwardEdge(s, item, child.session_id);
    if (child.kind === 'user') addPrompt(s, node.seq, promptTime(child.timestamp, child.line), child.session_id);
  }
}

function noteForwardEdge(s: LinkStateStatements, childSeq: number, sessionId: string): void {
  s.checkCycle.run(childSeq);
  s.forwardEdge.run(childSeq, childSeq, sessionId);
}

/**
 * A subagent's root (or a line naming the call that spawned it) gets an edge to the spawning call: by the
 * call's id when it has one, else by the agent id its file is named after.
 */
function linkSpawner(
  s: LinkStateStatements,
  seq: number,
  id: string,
  byToolUseId: string | null,
  rootOfAgent: string | null,
  refs: WaitingRefs | undefined,
): boolean {
  if (byToolUseId === null && rootOfAgent === null) return false;
  let spawner = byToolUseId !== null ? s.callNode.get(byToolUseId)?.id : undefined;
  if (spawner === undefined && rootOfAgent !== null) spawner = s.spawnOf.get(rootOfAgent)?.id;
  if (spawner !== undefined) {
    if (spawner !== id) s.insertEdge.run(seq, 'subagent', spawner);
    if (byToolUseId !== null) s.stopWaiting.run(byToolUseId, 'subagent', seq);
    if (rootOfAgent !== null) s.stopWaiting.run(rootOfAgent, 'subagent', seq);
    return true;
  }
  if (byToolUseId !== null) waitOn(s, refs, byToolUseId, 'subagent', seq);
  if (rootOfAgent !== null) waitOn(s, refs, rootOfAgent, 'subagent', seq);
  return false;
}

function retrySpawner(s: LinkStateStatements, seq: number, refs: WaitingRefs | undefined): void {
  const row = s.subagentCandidate.get(seq);
  if (!row) return;
  const agentId = row.role === 'subagent' && row.parent_source_id === null ? (row.file_agent_id ?? row.agent_id) : null;
  linkSpawner(s, seq, row.id, row.spawned_by_tool_use_id, agentId, refs);
  s.markDirty.run(row.session_id);
}
