/**
 * An independent, deliberately simple forward replay of a session's file states, for the differential test:
 * for every node it walks the node's ancestor path from the root, in order, and applies each result's edits
 * with a minimal re-implementation of Claude Code's Edit / MultiEdit / Write. It shares nothing with the
 * reconstruction engine but JSON parsing and the tool classifier (`toolEffect`: which calls may write files
 * unrecorded, unit-tested on its own). Slow on purpose (per-node ancestor walks); small sessions only.
 *
 * The rules it replays (the engine's header comments state the same):
 * - state parent: parentId, else a logical / subagent / fork-of edge, else (a root in the middle of a file)
 *   the node on the line before it in the same source file, when that line is of the same run (session id,
 *   agent) and not later in time;
 * - an edit takes effect at its result; a parallel call's result left hanging beside the turn takes effect at
 *   its continuation (the next node in transcript order, outside the result, that leads on to the
 *   conversation and meets the result's path on a line of the call's message, progress lines between them
 *   included), carried on from one hanging result to the next;
 * - a file's content before any edit on the path is its baseline, the first recorded pre-state in transcript order;
 * - Edit / MultiEdit: the strings (replaceAll, an empty new string taking its line's newline) are the truth;
 *   hunks only without strings; strings that do not apply leave the content unknown;
 * - a file is in doubt (known content, but not known to be right) after a step that may write files
 *   unrecorded, until an edit that reads or writes it whole (an anchor); and between its last anchor (or the
 *   point where the path leaves the baseline's own edit, or the root when a may-write step lies between that
 *   point and the baseline's edit) and an edit that read other contents than the replay;
 * - a file is in doubt, too, before its first anchor on a path that did not run the last may-write step above
 *   its baseline's edit (the baseline was read after that step and tells nothing of the file before it);
 * - a node is known when every touched file's content is known and not in doubt.
 */
import { toolEffect } from '../../../electron/snapshots/reconstruct';
import type { NodeSummary } from '../../../shared/model';

type Json = Record<string, unknown>;
const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const UNKNOWN = Symbol('unknown');
type Content = string | null | typeof UNKNOWN;

export interface OracleNode {
  readonly node: NodeSummary;
  readonly raw: string | null;
  /** The source file and line the node was read from. */
  readonly file: string;
  readonly line: number;
}

export interface OracleFileState {
  readonly content: string | null | undefined; // undefined: not known
  readonly doubted: boolean;
  /** Why it is not known, from which step ('may-write' for any step that may have written files unrecorded). */
  readonly since?: { readonly nodeId: string | null; readonly reason: 'no-pre-state' | 'edit-does-not-apply' | 'may-write' | 'changed-outside-transcript' };
}

interface Edit {
  readonly path: string;
  /** The recorded pre-state; UNKNOWN when the result does not carry one. */
  readonly before: Content;
  /** The post-state, given the pre-state on the path. */
  readonly apply: (derived: Content) => Content;
  /** The result tells the whole file (a recorded pre-state, or a Write's content). */
  readonly anchors: boolean;
}

const parse = (raw: string | null): Json | null => {
  if (raw === null) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return isJson(value) ? value : null;
  } catch {
    return null;
  }
};
const blocksOf = (entry: Json | null): Json[] => {
  const content = entry !== null && isJson(entry.message) ? entry.message.content : undefined;
  return Array.isArray(content) ? content.filter(isJson) : [];
};
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function substitute(text: string, oldString: string, newString: string, all: boolean): string | null {
  if (oldString === '') return text === '' ? newString : null;
  let target = oldString;
  if (newString === '' && !oldString.endsWith('\n') && text.includes(`${oldString}\n`)) target = `${oldString}\n`;
  const at = text.indexOf(target);
  if (at < 0) return null;
  return all ? text.split(target).join(newString) : text.slice(0, at) + newString + text.slice(at + target.length);
}

interface Hunk {
  readonly oldStart: number;
  readonly newStart: number;
  readonly lines: readonly string[];
}

const readHunks = (value: unknown): Hunk[] => (Array.isArray(value) ? value.filter(isJson).map((h) => ({ oldStart: Number(h.oldStart), newStart: Number(h.newStart), lines: (h.lines as string[]) ?? [] })) : []);

/** Hunks applied at their stated lines, exactly; reverse swaps the sides. Null when a hunk does not match. */
function patchAt(text: string, hunks: readonly Hunk[], reverse: boolean): string | null {
  const endsWithNewline = text === '' || text.endsWith('\n');
  const lines = text === '' ? [] : (endsWithNewline ? text.slice(0, -1) : text).split('\n');
  let newlineAtEnd = endsWithNewline;
  let shift = 0;
  for (const hunk of hunks) {
    const from: string[] = [];
    const to: string[] = [];
    let last = ' ';
    let fromNoNewline = false;
    let toNoNewline = false;
    for (const line of hunk.lines) {
      const marker = line.charAt(0);
      if (marker === '\\') {
        const removes = reverse ? '+' : '-';
        if (last === ' ' || last === removes) fromNoNewline = true;
        if (last === ' ' || last !== removes) toNoNewline = true;
        continue;
      }
      last = marker;
      if (marker === ' ' || line === '') {
        from.push(line.slice(1));
        to.push(line.slice(1));
      } else if (marker === (reverse ? '+' : '-')) from.push(line.slice(1));
      else to.push(line.slice(1));
    }
    const start = (reverse ? hunk.newStart : hunk.oldStart) - (from.length === 0 ? 0 : 1) + shift;
    for (let k = 0; k < from.length; k++) if (lines[start + k] !== from[k]) return null;
    const atEnd = start + from.length === lines.length;
    if (fromNoNewline !== (atEnd && from.length > 0 && !newlineAtEnd)) return null;
    lines.splice(start, from.length, ...to);
    shift += to.length - from.length;
    if (atEnd) newlineAtEnd = !toNoNewline;
  }
  return lines.length === 0 ? '' : lines.join('\n') + (newlineAtEnd ? '\n' : '');
}

/** The edits a result line records, read straight from its JSON. */
function editsOf(entry: Json, calls: ReadonlyMap<string, { name: string; input: unknown }>): { edits: Edit[]; mayWrite: boolean; subagentCalls: string[] } {
  const results = blocksOf(entry).filter((b) => b.type === 'tool_result' && typeof b.tool_use_id === 'string');
  const edits: Edit[] = [];
  let mayWrite = false;
  const subagentCalls: string[] = [];
  for (const block of results) {
    const call = calls.get(block.tool_use_id as string);
    if (call === undefined) continue;
    const effect = toolEffect(call.name, call.input);
    const isError = block.is_error === true;
    if (effect === 'may-write') mayWrite = true;
    if (effect === 'subagent') subagentCalls.push(block.tool_use_id as string);
    if (effect !== 'file-edit') continue;
    if (results.length > 1) {
      if (!isError) mayWrite = true;
      continue;
    }
    const result = entry.toolUseResult;
    if (isError || !isJson(result)) continue;
    const input = isJson(call.input) ? call.input : {};
    const path = str(result.filePath) ?? str(result.notebook_path) ?? str(input.file_path) ?? str(input.notebook_path);
    if (path === null) continue;
    const hunks = readHunks(result.structuredPatch);
    const forward = (before: Content, strings: { old: string; new: string; all: boolean }[]) => (derived: Content): Content => {
      const from = before !== UNKNOWN ? before : derived;
      if (from === UNKNOWN) return UNKNOWN;
      let text: string | null = from ?? '';
      if (strings.length > 0) {
        for (const s of strings) text = text === null ? null : substitute(text, s.old, s.new, s.all);
        return text ?? UNKNOWN;
      }
      if (hunks.length > 0) return patchAt(text, hunks, false) ?? UNKNOWN;
      return UNKNOWN;
    };
    if (call.name === 'Write') {
      const content = str(result.content) ?? str(input.content);
      let before: Content = UNKNOWN;
      if (typeof result.originalFile === 'string') before = result.originalFile;
      else if (result.originalFile === null || result.type === 'create') before = null;
      else if (content !== null && (result.type === 'update' || hunks.length > 0)) {
        // Undone display hunks would put spaces where a tab-indented file has tabs.
        const display = /(^|\n)\t/.test(content) && hunks.some((h) => h.lines.some((l) => /^- {2}/.test(l)));
        before = display ? UNKNOWN : (patchAt(content, hunks, true) ?? UNKNOWN);
      }
      edits.push({ path, before, apply: () => content ?? UNKNOWN, anchors: before !== UNKNOWN || content !== null });
    } else if (call.name === 'NotebookEdit') {
      const before = str(result.original_file) ?? UNKNOWN;
      const after = str(result.updated_file);
      edits.push({ path, before, apply: () => after ?? UNKNOWN, anchors: before !== UNKNOWN || after !== null });
    } else {
      const original = call.name === 'MultiEdit' ? (result.originalFileContents ?? result.originalFile) : result.originalFile;
      const before: Content = typeof original === 'string' || original === null ? original : UNKNOWN;
      const list = call.name === 'MultiEdit' ? (Array.isArray(result.edits) ? result.edits : Array.isArray(input.edits) ? input.edits : []) : [];
      const strings =
        call.name === 'MultiEdit'
          ? list.filter(isJson).flatMap((e) => (typeof e.old_string === 'string' && typeof e.new_string === 'string' ? [{ old: e.old_string, new: e.new_string, all: e.replace_all === true }] : []))
          : (() => {
              const old = str(result.oldString) ?? str(input.old_string);
              const neu = str(result.newString) ?? str(input.new_string);
              return old === null || neu === null ? [] : [{ old, new: neu, all: result.replaceAll === true || input.replace_all === true }];
            })();
      edits.push({ path, before, apply: forward(before, strings), anchors: before !== UNKNOWN });
    }
  }
  return { edits, mayWrite, subagentCalls };
}

const CONVERSATION = new Set(['user', 'assistant', 'thinking', 'tool_call', 'tool_result', 'compaction']);
const MESSAGE = new Set(['assistant', 'thinking', 'tool_call', 'progress']);

export interface OracleReplay {
  readonly touched: readonly string[];
  /** Node indexes from the root down to node i (the state tree the replay walks). */
  pathOf(index: number): readonly number[];
  stateAt(index: number): { files: Map<string, OracleFileState>; known: boolean; unknownSince: string | null };
}

export function replaySession(items: readonly OracleNode[]): OracleReplay {
  const n = items.length;
  const nodes = items.map((item) => item.node);
  const index = new Map(nodes.map((node, i) => [node.id, i]));

  // The tree.
  const parent = nodes.map((node, i): number => {
    const direct = node.parentId === null ? undefined : index.get(node.parentId);
    if (direct !== undefined && direct !== i) return direct;
    const edge = node.extraEdges.find((e) => e.kind !== 'merge' && index.has(e.nodeId) && index.get(e.nodeId) !== i);
    if (edge !== undefined) return index.get(edge.nodeId)!;
    let before = -1;
    items.forEach((other, j) => {
      if (other.file === items[i]!.file && other.line < items[i]!.line && (before < 0 || other.line > items[before]!.line)) before = j;
    });
    if (before < 0) return -1;
    // Lines of another run pasted into the file (another session id, another agent, earlier in time) are no timeline of this one.
    const [a, b] = [nodes[before]!, node];
    const sameRun = a.sidechain === b.sidechain && a.agentId === b.agentId && parse(items[before]!.raw)?.sessionId === parse(items[i]!.raw)?.sessionId;
    return sameRun && !(a.timestamp !== null && b.timestamp !== null && b.timestamp < a.timestamp) ? before : -1;
  });
  const ancestors = (i: number): number[] => {
    const path: number[] = [];
    const seen = new Set<number>();
    for (let j = i; j >= 0; j = parent[j]!) {
      if (seen.has(j)) throw new Error(`oracle: a cycle through ${nodes[j]!.id}`);
      seen.add(j);
      path.push(j);
    }
    return path.reverse();
  };
  const paths = nodes.map((_, i) => ancestors(i));
  const children = nodes.map(() => [] as number[]);
  parent.forEach((p, i) => {
    if (p >= 0) children[p]!.push(i);
  });
  const subtree = (i: number): number[] => [i, ...children[i]!.flatMap(subtree)];

  // What each node does.
  const calls = new Map<string, { name: string; input: unknown; node: number }>();
  items.forEach((item, i) => {
    const entry = item.node.toolCalls.length > 0 ? parse(item.raw) : null;
    for (const call of item.node.toolCalls) {
      const block = blocksOf(entry).find((b) => b.type === 'tool_use' && b.id === call.id);
      calls.set(call.id, { name: call.name, input: block?.input, node: i });
    }
  });
  const own: Edit[][] = nodes.map(() => []);
  const mayWrite = new Uint8Array(n);
  const subagentResults = new Map<number, Set<number>>();
  items.forEach((item, i) => {
    for (const call of item.node.toolCalls) if (call.outcome === 'missing' && toolEffect(call.name, calls.get(call.id)!.input) !== 'none') mayWrite[i] = 1;
    if (item.node.kind !== 'tool_result' && item.node.kind !== 'error') return;
    const entry = parse(item.raw);
    if (entry === null) {
      if (item.raw !== null) mayWrite[i] = 1;
      return;
    }
    const read = editsOf(entry, calls);
    own[i] = read.edits;
    if (read.mayWrite) mayWrite[i] = 1;
    for (const id of read.subagentCalls) {
      const callNode = calls.get(id)!.node;
      (subagentResults.get(callNode) ?? subagentResults.set(callNode, new Set()).get(callNode)!).add(i);
    }
  });
  // A subagent result may have written when its runs edited, may have written, or are missing.
  for (let changed = true; changed; ) {
    changed = false;
    for (const [callNode, results] of subagentResults) {
      const taskCalls = nodes[callNode]!.toolCalls.filter((c) => toolEffect(c.name, {}) === 'subagent').length;
      const runs = nodes.flatMap((node, i) => (parent[i] === callNode && node.extraEdges.some((e) => e.kind === 'subagent' && e.nodeId === nodes[callNode]!.id) ? [i] : []));
      const writes = runs.length < taskCalls || runs.some((run) => subtree(run).some((j) => own[j]!.length > 0 || mayWrite[j] === 1));
      if (!writes) continue;
      for (const r of results) {
        if (mayWrite[r] === 1) continue;
        mayWrite[r] = 1;
        changed = true;
      }
    }
  }
  // Hanging parallel results: their edits (and may-write marks) reach their continuation.
  const carried: Edit[][] = nodes.map(() => []);
  const leadsOn = (i: number): boolean => subtree(i).some((j) => CONVERSATION.has(nodes[j]!.kind));
  for (let i = 0; i < n; i++) {
    const call = parent[i]!;
    if (own[i]!.length === 0 && carried[i]!.length === 0 && mayWrite[i] === 0) continue;
    if ((nodes[i]!.kind !== 'tool_result' && nodes[i]!.kind !== 'error') || call < 0 || children[call]!.length < 2) continue;
    if (children[i]!.some(leadsOn)) continue;
    const isLink = (child: number) => nodes[child]!.parentId === nodes[parent[child]!]!.id;
    const callPath = paths[call]!;
    let top = callPath.length - 1;
    while (top > 0 && MESSAGE.has(nodes[callPath[top - 1]!]!.kind) && isLink(callPath[top]!)) top--;
    const message = new Set(callPath.slice(top));
    for (let k = i + 1; k < Math.min(n, i + 2001); k++) {
      const path = paths[k]!;
      if (path.includes(i) || !leadsOn(k)) continue;
      let meet = -1;
      for (let d = 0; d < Math.min(path.length, callPath.length) && path[d] === callPath[d]; d++) meet = d;
      if (meet < 0 || !message.has(path[meet]!) || meet + 1 >= path.length || !isLink(path[meet + 1]!)) continue;
      carried[k]!.push(...carried[i]!, ...own[i]!);
      if (mayWrite[i] === 1) mayWrite[k] = 1;
      break;
    }
  }

  const touched: string[] = [];
  const baseline = new Map<string, { content: Content; node: number }>();
  own.forEach((edits, i) => {
    for (const edit of edits) {
      if (!touched.includes(edit.path)) touched.push(edit.path);
      if (!baseline.has(edit.path) && edit.before !== UNKNOWN) baseline.set(edit.path, { content: edit.before, node: i });
    }
  });

  /** Replays root → i: content per file, the path position of its last anchor, and the may-write positions. */
  const replay = (i: number, onMismatch?: (path: string, anchorAt: number, at: number) => void) => {
    const path = paths[i]!;
    const content = new Map<string, Content>(touched.map((f) => [f, baseline.has(f) ? baseline.get(f)!.content : UNKNOWN]));
    const anchor = new Map<string, number>(touched.map((f) => [f, -1])); // position on the path; -1 baseline
    const lostAt = new Map<string, number>(); // the node whose edit could not be replayed
    const mayWriteAt: number[] = [];
    path.forEach((j, d) => {
      for (const edit of [...carried[j]!, ...own[j]!]) {
        const derived = content.get(edit.path)!;
        if (edit.before !== UNKNOWN && derived !== UNKNOWN && derived !== edit.before && j === i) onMismatch?.(edit.path, anchor.get(edit.path)!, d);
        const after = edit.apply(derived);
        if (after === UNKNOWN && (edit.anchors || derived !== UNKNOWN)) lostAt.set(edit.path, j);
        content.set(edit.path, after);
        if (edit.anchors) anchor.set(edit.path, d);
      }
      if (mayWrite[j] === 1) mayWriteAt.push(d);
    });
    return { path, content, anchor, lostAt, mayWriteAt };
  };

  // Where a file changed outside the transcript: doubted from just after its last anchor (or where the
  // path leaves the baseline's edit) until the edit that read other contents.
  const doubtedFrom = new Map<string, Set<number>>(touched.map((f) => [f, new Set()]));
  for (let i = 0; i < n; i++) {
    replay(i, (file, anchorAt, at) => {
      const path = paths[i]!;
      let start = anchorAt;
      if (anchorAt < 0) {
        const base = paths[baseline.get(file)!.node]!;
        start = -1;
        for (let d = 0; d < Math.min(base.length, path.length) && base[d] === path[d]; d++) start = d;
        // A may-write step between the paths' parting and the baseline's edit: the baseline told nothing here.
        if (base.slice(start + 1, -1).some((j) => mayWrite[j] === 1)) start = -1;
      }
      if (start + 1 < at) doubtedFrom.get(file)!.add(path[start + 1]!);
    });
  }

  return {
    touched,
    pathOf: (i) => paths[i]!,
    stateAt(i) {
      const { path, content, anchor, lostAt, mayWriteAt } = replay(i);
      const files = new Map<string, OracleFileState>();
      let known = touched.length > 0 || mayWriteAt.length === 0;
      let since = -1; // the earliest may-write step that doubts some file (path position)
      for (const file of touched) {
        const value = content.get(file)!;
        const at = anchor.get(file)!;
        // A may-write step doubts what it follows, even an edit at the same node.
        const shellAt = mayWriteAt.find((d) => d >= at);
        const outsideAt = path.findIndex((j, d) => d > at && doubtedFrom.get(file)!.has(j));
        if (shellAt !== undefined && (since < 0 || shellAt < since)) since = shellAt;
        let reason: OracleFileState['since'];
        if (value === UNKNOWN) reason = lostAt.has(file) ? { nodeId: nodes[lostAt.get(file)!]!.id, reason: 'edit-does-not-apply' } : { nodeId: null, reason: 'no-pre-state' };
        else if (shellAt !== undefined && (outsideAt < 0 || shellAt <= outsideAt)) reason = { nodeId: nodes[path[shellAt]!]!.id, reason: 'may-write' };
        else if (outsideAt >= 0) reason = { nodeId: nodes[path[outsideAt]!]!.id, reason: 'changed-outside-transcript' };
        else if (at < 0 && baseline.has(file)) {
          // The baseline was read after the last may-write step above its edit: it holds only where the path ran that step.
          const written = paths[baseline.get(file)!.node]!.slice(0, -1).filter((j) => mayWrite[j] === 1).at(-1);
          if (written !== undefined && !path.includes(written)) reason = { nodeId: nodes[written]!.id, reason: 'may-write' };
        }
        files.set(file, { content: value === UNKNOWN ? undefined : value, doubted: value !== UNKNOWN && reason !== undefined, since: reason });
        if (reason !== undefined) known = false;
      }
      if (since < 0 && touched.length === 0 && mayWriteAt.length > 0) since = mayWriteAt[mayWriteAt.length - 1]!;
      return { files, known, unknownSince: since < 0 ? null : nodes[path[since]!]!.id };
    },
  };
}
