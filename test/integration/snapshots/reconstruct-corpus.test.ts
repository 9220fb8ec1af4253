/**
 * Reconstructs every corpus session that has Edit/Write/MultiEdit results and checks the state at each node
 * against an independent forward replay written here: walk the transcript's own parent links, start each
 * file from its first recorded pre-state, and apply each edit by substituting its old/new strings (or the
 * written content), never through the reconstruction's patch code. Where a recorded pre-state differs from
 * the replay, the transcript itself says the file changed outside the recorded edits: the replay notes the
 * inconsistency, continues from the recorded state, and the reconstruction must report the same one.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconstructSession, type AttachedLine, type Reconstruction } from '../../../electron/snapshots/reconstruct';
import { createArborService } from '../../../electron/service/arbor-service';
import type { ArborService } from '../../../electron/service/service-types';
import type { NodeSummary } from '../../../shared/model';

const corpus = resolve(__dirname, '../../../../shared/corpus/sessions/claude-code');
const present = existsSync(corpus);
if (!present) console.warn(`reconstruct-corpus: skipped, ${corpus} is absent (the public corpus lives beside the repo)`);

const EDIT_TOOLS = new Set(['Edit', 'MultiEdit', 'Write']);
type Json = Record<string, unknown>;
const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

interface ReplayEdit {
  readonly path: string;
  /** The recorded pre-state; undefined when the result does not carry one. */
  readonly recorded: string | null | undefined;
  /** The post-state from the pre-state (undefined: the replay does not know it), or undefined when the edit does not fit. */
  readonly apply: (text: string | null | undefined) => string | null | undefined;
}

function substitute(text: string, oldString: string, newString: string, all: boolean): string | undefined {
  if (oldString === '') return text === '' ? newString : undefined;
  // Claude Code's Edit deletes a whole line, newline included, when newString is empty.
  if (newString === '' && !oldString.endsWith('\n') && text.includes(oldString + '\n')) oldString += '\n';
  if (!text.includes(oldString)) return undefined;
  if (all) return text.split(oldString).join(newString);
  const at = text.indexOf(oldString);
  return text.slice(0, at) + newString + text.slice(at + oldString.length);
}

/** The edits a node's line records, read straight from the JSON. */
function replayEdits(raw: string, toolNames: ReadonlyMap<string, string>): ReplayEdit[] {
  const entry = JSON.parse(raw) as Json;
  const result = entry.toolUseResult;
  const content = isJson(entry.message) && Array.isArray(entry.message.content) ? entry.message.content : [];
  const blocks = content.filter((b): b is Json => isJson(b) && b.type === 'tool_result');
  if (blocks.length !== 1 || !isJson(result)) return [];
  const block = blocks[0]!;
  const tool = toolNames.get(String(block.tool_use_id));
  if (tool === undefined || !EDIT_TOOLS.has(tool) || block.is_error === true) return [];
  const path = result.filePath as string;
  if (tool === 'Write') {
    const recorded = 'originalFile' in result ? (result.originalFile as string | null) : result.type === 'create' ? null : undefined;
    return [{ path, recorded, apply: () => result.content as string }];
  }
  const recorded = (tool === 'MultiEdit' ? result.originalFileContents : result.originalFile) as string | null | undefined;
  const edits = tool === 'MultiEdit' ? (result.edits as Json[]) : [{ old_string: result.oldString, new_string: result.newString, replace_all: result.replaceAll }];
  return [{
    path,
    recorded,
    apply: (text) => {
      if (text === undefined) return undefined;
      let current: string | undefined = text ?? '';
      for (const e of edits) current = current === undefined ? undefined : substitute(current, e.old_string as string, e.new_string as string, e.replace_all === true);
      return current;
    },
  }];
}

/** Where two states part, for a readable failure. */
function describeDifference(reconstructed: string | null | undefined, replayed: string | null): string {
  if (typeof reconstructed !== 'string' || replayed === null) return `reconstructed ${String(reconstructed)?.slice(0, 80)} != replayed ${String(replayed).slice(0, 80)}`;
  let at = 0;
  while (at < reconstructed.length && reconstructed[at] === replayed[at]) at++;
  const around = (text: string) => JSON.stringify(text.slice(Math.max(0, at - 60), at + 60));
  return `differs at ${at} (lengths ${reconstructed.length} / ${replayed.length}): reconstructed ${around(reconstructed)} replayed ${around(replayed)}`;
}

interface SessionCounts {
  files: number;
  edits: number;
  nodesChecked: number;
  fileStatesChecked: number;
  inconsistencies: string[];
  replayFailures: string[];
}

describe.skipIf(!present)('reconstructing the Claude Code corpus', () => {
  let root: string;
  let service: ArborService;
  const perSession = new Map<string, SessionCounts>();
  let nullBackupsChecked = 0;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'arbor-reconstruct-'));
    service = await createArborService({ dataDir: join(root, 'data'), host: 'cli', version: 'test', homeDir: join(root, 'home'), env: {} });
    await service.api['import.run']({ paths: [corpus] });
  }, 120_000);
  afterAll(async () => {
    await service?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('gives each node the state of an independent forward replay along its path', async () => {
    const { sessions } = await service.api['sessions.list']({ limit: 100_000 });
    for (const session of sessions) {
      const { nodes } = await service.api['sessions.graph']({ sessionId: session.id });
      if (!nodes.some((node) => node.toolCalls.some((call) => EDIT_TOOLS.has(call.name) && call.outcome === 'ok'))) continue;
      const raws = new Map<string, string>();
      const checkpoints = new Map<string, AttachedLine[]>();
      for (const node of nodes) {
        const detail = await service.api['nodes.get']({ nodeId: node.id });
        raws.set(node.id, detail.raw);
        const lines = detail.records.filter((r) => r.type === 'file-history-snapshot').map((r) => ({ type: r.type, file: r.file, raw: JSON.stringify(r.json) }));
        if (lines.length > 0) checkpoints.set(node.id, lines);
      }
      const reconstruction = await reconstructSession(nodes, (id) => raws.get(id) ?? null);
      perSession.set(session.id, checkSession(nodes, raws, reconstruction));
      if (checkpoints.size > 0) nullBackupsChecked += await checkNullBackups(nodes, raws, checkpoints, reconstruction);
    }
    const totals = [...perSession.values()].reduce(
      (t, c) => ({ files: t.files + c.files, edits: t.edits + c.edits, nodes: t.nodes + c.nodesChecked, states: t.states + c.fileStatesChecked }),
      { files: 0, edits: 0, nodes: 0, states: 0 },
    );
    const inconsistencies = [...perSession].flatMap(([id, c]) => c.inconsistencies.map((text) => `${id}: ${text}`));
    const failures = [...perSession].flatMap(([id, c]) => c.replayFailures.map((text) => `${id}: ${text}`));
    console.info(
      `reconstruct-corpus: ${perSession.size} sessions, ${totals.files} files, ${totals.edits} edits, ${totals.nodes} nodes and ` +
        `${totals.states} file states checked, ${inconsistencies.length} transcript inconsistencies` +
        inconsistencies.map((line) => `\n  ${line}`).join(''),
    );
    if (failures.length > 0) console.info(`reconstruct-corpus: replay could not substitute:\n  ${failures.join('\n  ')}`);
    expect(perSession.size).toBeGreaterThan(5);
    expect(totals.edits).toBeGreaterThan(100);
    expect(totals.states).toBeGreaterThan(1000);
    console.info(`reconstruct-corpus: ${nullBackupsChecked} file-history "did not exist" backups agree with the replay`);
    expect(nullBackupsChecked).toBeGreaterThan(0);
  }, 120_000);

  /**
   * The corpus has the checkpoint lines but not the backups (they live in the recording user's ~/.claude), so
   * only `null` backups ("the file did not exist") can be read: each must land where the edits say the file is
   * absent, which checks which node a checkpoint line describes. Returns how many were read.
   */
  async function checkNullBackups(nodes: readonly NodeSummary[], raws: ReadonlyMap<string, string>, checkpoints: ReadonlyMap<string, AttachedLine[]>, plain: Reconstruction) {
    const fileHistory = { recordsOf: (id: string) => checkpoints.get(id) ?? [], readBackup: async () => null };
    const withBackups = await reconstructSession(nodes, (id) => raws.get(id) ?? null, { fileHistory });
    expect(withBackups.problems).toEqual(plain.problems);
    for (const node of nodes) {
      const a = plain.stateAt(node.id);
      const b = withBackups.stateAt(node.id);
      expect([...b.files], node.id).toEqual([...a.files]);
      // A node where backups read every touched file is known again after a shell command or subagent run.
      if (b.known !== a.known) expect([a.known, b.known, b.unknownSince], node.id).toEqual(['unknown', 'reconstructed', null]);
    }
    return withBackups.stats.backupObservations;
  }

  function checkSession(nodes: readonly NodeSummary[], raws: ReadonlyMap<string, string>, reconstruction: Awaited<ReturnType<typeof reconstructSession>>): SessionCounts {
    const counts: SessionCounts = { files: 0, edits: 0, nodesChecked: 0, fileStatesChecked: 0, inconsistencies: [], replayFailures: [] };
    const toolNames = new Map<string, string>();
    for (const node of nodes) for (const call of node.toolCalls) toolNames.set(call.id, call.name);
    const editsOf = new Map<string, ReplayEdit[]>();
    const baseline = new Map<string, string | null>();
    for (const node of nodes) {
      if (node.kind !== 'tool_result' && node.kind !== 'error') continue;
      const edits = replayEdits(raws.get(node.id)!, toolNames);
      if (edits.length === 0) continue;
      editsOf.set(node.id, edits);
      for (const edit of edits) if (edit.recorded !== undefined && !baseline.has(edit.path)) baseline.set(edit.path, edit.recorded);
    }
    counts.files = new Set([...editsOf.values()].flat().map((e) => e.path)).size;
    counts.edits = [...editsOf.values()].flat().length;

    // The transcript's own tree: parent, else the compaction / subagent / fork edge.
    const ids = new Set(nodes.map((node) => node.id));
    const children = new Map<string | null, NodeSummary[]>();
    for (const node of nodes) {
      const parent = node.parentId ?? node.extraEdges.find((e) => e.kind !== 'merge' && ids.has(e.nodeId))?.nodeId ?? null;
      children.set(parent, [...(children.get(parent) ?? []), node]);
    }
    // Parallel tool calls leave a result hanging beside the continuation (alone or with only hook progress /
    // system lines below it): its edits also reach the next line in transcript order that descends from the call's line.
    const parentOf = new Map<string, string | null>();
    for (const [parent, list] of children) for (const child of list) parentOf.set(child.id, parent);
    const carried = new Map<string, ReplayEdit[]>();
    nodes.forEach((node, i) => {
      const edits = editsOf.get(node.id);
      const call = parentOf.get(node.id);
      const below = (id: string): NodeSummary[] => (children.get(id) ?? []).flatMap((child) => [child, ...below(child.id)]);
      if (!edits || !call || (children.get(call)?.length ?? 0) < 2 || below(node.id).some((n) => ['user', 'assistant', 'thinking', 'tool_call', 'tool_result', 'compaction'].includes(n.kind))) return;
      const descendsFromCall = (id: string) => {
        for (let at: string | null | undefined = parentOf.get(id); at; at = parentOf.get(at)) {
          if (at === node.id) return false;
          if (at === call) return true;
        }
        return false;
      };
      const next = nodes.slice(i + 1).find((later) => descendsFromCall(later.id));
      if (next) carried.set(next.id, [...(carried.get(next.id) ?? []), ...edits]);
    });
    const expectedProblems = new Set<string>();
    const stack: { node: NodeSummary; state: Map<string, string | null> }[] = (children.get(null) ?? []).map((node) => ({ node, state: new Map(baseline) }));
    while (stack.length > 0) {
      const { node, state: parentState } = stack.pop()!;
      let state = parentState;
      for (const edit of [...(carried.get(node.id) ?? []), ...(editsOf.get(node.id) ?? [])]) {
        if (state === parentState) state = new Map(parentState);
        const replayed = state.get(edit.path);
        if (edit.recorded !== undefined && replayed !== undefined && edit.recorded !== replayed) {
          const unrecorded = reconstruction.problems.some((p) => p.nodeId === node.id && p.path === edit.path && p.afterUnrecordedStep);
          counts.inconsistencies.push(
            `${node.id} ${edit.path}: recorded pre-state differs from the replay of earlier edits on its path` +
              (unrecorded ? ' (a step that may write files unrecorded precedes it)' : ' (no unrecorded step on the path: changed by another branch, run or person)'),
          );
          expectedProblems.add(`${node.id} ${edit.path}`);
        }
        const from = edit.recorded !== undefined ? edit.recorded : replayed;
        const after = edit.apply(from);
        if (after === undefined) {
          counts.replayFailures.push(`${node.id} ${edit.path}`);
          state.delete(edit.path);
        } else {
          state.set(edit.path, after);
        }
      }
      const reconstructed = reconstruction.stateAt(node.id);
      // sessions.states answers with knownAt: it must say what the full state says.
      if (reconstruction.knownAt(node.id) !== reconstructed.known) expect.fail(`${node.id}: knownAt ${reconstruction.knownAt(node.id)}, stateAt ${reconstructed.known}`);
      counts.nodesChecked++;
      for (const [path, content] of state) {
        counts.fileStatesChecked++;
        if (reconstructed.files.get(path) !== content) {
          expect.fail(`${node.id} ${path}: ${describeDifference(reconstructed.files.get(path), content)}`);
        }
      }
      for (const child of children.get(node.id) ?? []) stack.push({ node: child, state });
    }
    expect(counts.nodesChecked).toBe(nodes.length);
    const reported = new Set(reconstruction.problems.filter((p) => p.kind === 'before-mismatch').map((p) => `${p.nodeId} ${p.path}`));
    expect(reported).toEqual(expectedProblems);
    expect(reconstruction.problems.filter((p) => p.kind !== 'before-mismatch')).toEqual([]);
    return counts;
  }
});
