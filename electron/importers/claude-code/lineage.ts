/**
 * The lineage pointers of Claude Code 2026 (issue 13), read as the lines stream by:
 * - `forkedFrom: {sessionId, messageUuid}` on the copied lines a fork (`/branch`, `--fork-session`) opens
 *   with: each copy is the parent session's line `messageUuid`, so it is emitted as that node (one set of
 *   nodes for the shared prefix, whichever file is read first), and a line naming a copy's new uuid as its
 *   parent is given the original instead. The map of renamed copies lives for one parse call; each copy says
 *   its own uuid (`forkedFrom.copyUuid`) so the store keeps the map (lineage-links.ts `node_renames`) for an
 *   import that resumes after the copies.
 * - `fork-context-ref {agentId, parentSessionId, parentLastUuid, contextLength}`, a forked subagent's first
 *   line: the run's root inherits the parent's context up to `parentLastUuid` and hangs from that node.
 * - `continued-in {sessionId, continuedInSessionId}`: the session went on under a new id.
 * - A subagent's `agent-<id>.meta.json` label (`agentType: description`) names its run on its root.
 * - A workflow's launch (`toolUseResult.runId`, its agents in `subagents/workflows/<runId>/`) is recorded as a
 *   spawn of `runId`, so the workflow's agents nest under the call that launched it.
 */
import type { ForkedFrom, ParsedNode, ParsedRecord, TranscriptFile } from '../transcript';
import { objectField, stringField, type JsonObject } from './json-shape';
import { clip } from './label-text';

export class TranscriptLineage {
  /** A renamed copy's uuid → the original's (forks that gave their copies new uuids). */
  private readonly renamed = new Map<string, string>();
  /** Waiting for the forked subagent's root (the first line without a parent after a fork-context-ref). */
  private contextParent: string | null = null;
  /** The run's label, until the root it names is read (only when the file is read from its start). */
  private runLabel: string | null;

  constructor(file: TranscriptFile, fromStart: boolean) {
    this.runLabel = fromStart && file.role === 'subagent' ? (file.agentLabel ?? null) : null;
  }

  node(entry: JsonObject, node: ParsedNode): ParsedNode {
    const forkedFrom = readForkedFrom(entry);
    if (forkedFrom !== null) {
      const renamed = forkedFrom.messageUuid !== node.sourceId;
      if (renamed) this.renamed.set(node.sourceId, forkedFrom.messageUuid);
      return {
        ...node,
        sourceId: forkedFrom.messageUuid,
        parentSourceId: this.original(node.parentSourceId),
        logicalParentSourceId: this.original(node.logicalParentSourceId),
        sessionSourceId: forkedFrom.sessionId,
        forkedFrom: renamed ? { ...forkedFrom, copyUuid: node.sourceId } : forkedFrom,
      };
    }
    let lineage: ParsedNode = node;
    if (this.renamed.size > 0) {
      const parent = this.original(node.parentSourceId);
      const logical = this.original(node.logicalParentSourceId);
      if (parent !== node.parentSourceId || logical !== node.logicalParentSourceId) {
        lineage = { ...lineage, parentSourceId: parent, logicalParentSourceId: logical };
      }
    }
    if (node.parentSourceId === null && this.contextParent !== null) {
      lineage = { ...lineage, contextParentSourceId: this.contextParent };
      this.contextParent = null;
    }
    if (node.parentSourceId === null && this.runLabel !== null) {
      // A type alone (workflow agents) keeps the root's own words after it.
      lineage = { ...lineage, label: this.runLabel.endsWith(': ') ? clip(`${this.runLabel}${node.label}`) : this.runLabel };
      this.runLabel = null;
    }
    if (node.spawnedAgentId === null && node.toolResults.length > 0) {
      const launched = objectField(entry, 'toolUseResult');
      const runId = launched === null ? null : stringField(launched, 'runId');
      if (runId !== null) lineage = { ...lineage, spawnedAgentId: runId };
    }
    return lineage;
  }

  record(entry: JsonObject, record: ParsedRecord): ParsedRecord {
    if (record.type === 'fork-context-ref') {
      const parentLastUuid = stringField(entry, 'parentLastUuid');
      this.contextParent = parentLastUuid;
      return parentLastUuid === null ? record : { ...record, refSourceId: parentLastUuid, sessionSourceId: stringField(entry, 'parentSessionId') };
    }
    if (record.type === 'continued-in') {
      const continuedInSessionId = stringField(entry, 'continuedInSessionId');
      return continuedInSessionId === null ? record : { ...record, continuedInSessionId };
    }
    return record;
  }

  private original(id: string | null): string | null {
    return id === null ? null : (this.renamed.get(id) ?? id);
  }
}

export function readForkedFrom(entry: JsonObject): ForkedFrom | null {
  const forkedFrom = objectField(entry, 'forkedFrom');
  if (forkedFrom === null) return null;
  const sessionId = stringField(forkedFrom, 'sessionId');
  const messageUuid = stringField(forkedFrom, 'messageUuid');
  return sessionId !== null && messageUuid !== null ? { sessionId, messageUuid } : null;
}

/**
 * The run's label from a subagent's meta file: `agentType: description`, the description alone, or
 * `agentType: ` to be followed by the root's own label; null without either.
 */
export function runLabel(agentType: string | null, description: string | null): string | null {
  const type = agentType !== null && agentType.trim() !== '' ? agentType.trim() : null;
  const text = description !== null && description.trim() !== '' ? description.trim() : null;
  if (text === null) return type === null ? null : `${type}: `;
  return clip(type === null ? text : `${type}: ${text}`);
}
