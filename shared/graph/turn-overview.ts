/**
 * The overview of a big session: one entry per turn (a prompt and everything up to the next prompt),
 * with its step, tool and error counts, laid out as its own lane tree so a 100k-node session is a few
 * thousand cards, not a hairline. Every branch point (a turn that more than one turn continues, or one
 * answered twice) and every branch head (a node Arbor added that starts a line, or the last turn of a
 * branch) is a turn of its own kind here, so the view can label them all.
 *
 * O(n) over the session's nodes plus the lane layout of the turns; typed arrays throughout.
 */
import { BRANCH_RETRY } from './branch-points';
import { breadthFirstOrder, forestFromParents, subtreeSizes, type Forest } from './forest';
import { layoutLanes, type LaneLayout } from './lane-layout';
import { kindCodes } from './graph-columns';
import type { StructureArrays } from './session-structure';

/** What a turn is, for its mark and label (a turn can be several: the highest flag wins in the view). */
export const TURN_PLAIN = 0;
/** More than one turn continues this one (a rewind or an edited prompt), or it was answered twice. */
export const TURN_BRANCH_POINT = 1;
/** The last turn of a branch that is not the session's first line. */
export const TURN_TIP = 2;
/** A fork, merge or manual snapshot Arbor added: it starts a line of its own. */
export const TURN_HEAD = 3;

export interface TurnOverview {
  readonly count: number;
  /** The node that starts each turn: its prompt (or a root, or a branch head). */
  readonly start: Int32Array;
  /**
   * The node that titles each turn: its prompt, else its start (a branch head), or -1 for the lines before a
   * session's first prompt when they are a turn of their own (a rewind re-asked from there, or no prompt at all).
   * Never a hook line, caveat, compaction summary or notice: the importer gives those kinds of their own
   * (`user` is a typed prompt only), so the lane of lines before a session's first prompt is not a title.
   */
  readonly title: Int32Array;
  /** TURN_* per turn. */
  readonly mark: Uint8Array;
  /** Session nodes in the turn, its start included. */
  readonly steps: Int32Array;
  readonly tools: Int32Array;
  readonly errors: Int32Array;
  /** How many branches leave a branch point (turns continuing it, or answers of a retry), 0 elsewhere. */
  readonly branches: Int32Array;
  /** The turn per session node (agent runs count in the turn that spawned them). */
  readonly turnOf: Int32Array;
  /** The turns as a tree and its lane layout (one row per turn). */
  readonly forest: Forest;
  readonly layout: LaneLayout;
}

export function buildTurnOverview(structure: StructureArrays): TurnOverview {
  const { display, branchHead, nodeKinds, nodeSidechain } = structure;
  const size = display.size;
  const userCode = kindCodes({ kindTable: structure.kindTable }, (kind) => kind === 'user');
  const toolCode = kindCodes({ kindTable: structure.kindTable }, (kind) => kind === 'tool_call');
  const errorCode = kindCodes({ kindTable: structure.kindTable }, (kind) => kind === 'error');
  const isPrompt = (i: number): boolean => userCode[nodeKinds[i]!] === 1 && nodeSidechain[i] === 0;
  const turnOf = new Int32Array(size).fill(-1);
  const starts: number[] = [];
  const titles: number[] = [];
  const parents: number[] = [];
  // Preorder over the display tree, first child first: a turn's children come out in drawing order,
  // so the lane layout keeps the line the session goes on with in its parent's column.
  const onlyPromptUnder = (p: number): boolean => {
    let prompts = 0;
    for (let c = display.childStart[p]!; c < display.childStart[p + 1]!; c++) if (isPrompt(display.children[c]!)) prompts++;
    return prompts === 1;
  };
  const stack: number[] = [];
  for (let r = display.roots.length - 1; r >= 0; r--) stack.push(display.roots[r]!);
  while (stack.length > 0) {
    const v = stack.pop()!;
    const p = display.parent[v]!;
    const prompt = isPrompt(v);
    const leading = p >= 0 ? turnOf[p]! : -1;
    if (prompt && leading >= 0 && titles[leading] === -1 && parents[leading] === -1 && branchHead[starts[leading]!] !== 1 && onlyPromptUnder(p)) {
      // The lines before a session's first prompt (a SessionStart hook, a caveat, a resumed compaction) are
      // not a turn of their own: they join the prompt's turn, which that prompt titles. Not when a rewind
      // re-asked from there (two prompts under them): they stay the branch point the two turns leave.
      turnOf[v] = leading;
      titles[leading] = v;
    } else if (p < 0 || prompt || branchHead[v] === 1) {
      turnOf[v] = starts.length;
      parents.push(p < 0 ? -1 : turnOf[p]!);
      starts.push(v);
      titles.push(prompt ? v : -1);
    } else {
      turnOf[v] = turnOf[p]!;
    }
    for (let c = display.childStart[v + 1]! - 1; c >= display.childStart[v]!; c--) stack.push(display.children[c]!);
  }
  const count = starts.length;
  const steps = new Int32Array(count);
  const tools = new Int32Array(count);
  const errors = new Int32Array(count);
  const branches = new Int32Array(count);
  for (let v = 0; v < size; v++) {
    const t = turnOf[v]!;
    if (t < 0) continue;
    steps[t]!++;
    const code = nodeKinds[v]!;
    if (toolCode[code] === 1) tools[t]!++;
    else if (errorCode[code] === 1) errors[t]!++;
    // A retry answers the same prompt twice: no new turn starts, but the turn still branches.
    if (structure.branch[v] === BRANCH_RETRY) branches[t] = Math.max(branches[t]!, structure.branchWidth[v]!);
  }
  const forest = mainLineFirst(forestFromParents(Int32Array.from(parents)));
  const mark = new Uint8Array(count);
  for (let t = 0; t < count; t++) {
    const children = forest.childStart[t + 1]! - forest.childStart[t]!;
    if (children >= 2) branches[t] = Math.max(branches[t]!, children);
    if (branchHead[starts[t]!] === 1) mark[t] = TURN_HEAD;
    else if (branches[t]! >= 2) mark[t] = TURN_BRANCH_POINT;
  }
  const layout = layoutLanes(forest);
  // A tip ends a branch: a leaf turn off the first lane of its tree (the session's own line ends there too,
  // but that end is the bottom of the overview, not a branch).
  for (let t = 0; t < count; t++) {
    if (mark[t] !== TURN_PLAIN || forest.childStart[t + 1] !== forest.childStart[t]) continue;
    let root = t;
    while (forest.parent[root]! >= 0) root = forest.parent[root]!;
    if (layout.lane[t] !== layout.lane[root]) mark[t] = TURN_TIP;
  }
  const title = Int32Array.from(titles, (node, t) => (node >= 0 || parents[t] === -1 ? node : starts[t]!));
  return { count, start: Int32Array.from(starts), title, mark, steps, tools, errors, branches, turnOf, forest, layout };
}

/**
 * Puts each turn's longest continuation first, so the lane layout draws the line the work went on with
 * straight down the first lane and every abandoned branch (a rewound prompt, usually short) beside it.
 * In transcript order a rewind's new line comes second, and the main line would step one lane to the
 * right at every rewind (123 lanes at 100k nodes instead of a handful).
 */
function mainLineFirst(forest: Forest): Forest {
  const sizes = subtreeSizes(forest, breadthFirstOrder(forest));
  for (let t = 0; t < forest.size; t++) {
    const start = forest.childStart[t]!;
    const end = forest.childStart[t + 1]!;
    if (end - start < 2) continue;
    let best = start;
    for (let c = start + 1; c < end; c++) if (sizes[forest.children[c]!]! > sizes[forest.children[best]!]!) best = c;
    const main = forest.children[best]!;
    forest.children.copyWithin(start + 1, start, best);
    forest.children[start] = main;
  }
  return forest;
}

/** The turns bucketed by a coarse grid of lanes × rows, so drawing one frame visits only what is in view. */
export interface TurnGrid {
  readonly laneCell: number;
  readonly rowCell: number;
  readonly columns: number;
  readonly cellStart: Int32Array;
  readonly turns: Int32Array;
}

export function indexTurns(overview: TurnOverview, laneCell = 8, rowCell = 32): TurnGrid {
  const { lane, row, lanes, rows } = overview.layout;
  const columns = Math.max(1, Math.ceil(lanes / laneCell));
  const cellRows = Math.max(1, Math.ceil(rows / rowCell));
  const cellStart = new Int32Array(columns * cellRows + 1);
  const cellOf = (t: number): number => Math.floor(row[t]! / rowCell) * columns + Math.floor(lane[t]! / laneCell);
  for (let t = 0; t < overview.count; t++) cellStart[cellOf(t) + 1]!++;
  for (let c = 0; c < columns * cellRows; c++) cellStart[c + 1]! += cellStart[c]!;
  const fill = cellStart.slice(0, columns * cellRows);
  const turns = new Int32Array(overview.count);
  for (let t = 0; t < overview.count; t++) turns[fill[cellOf(t)]!++] = t;
  return { laneCell, rowCell, columns, cellStart, turns };
}

/**
 * Calls `visit` for every turn whose cell meets the lane/row rectangle (inclusive, may be fractional),
 * with no allocation: a frame's draw loop calls this once.
 */
export function forEachTurnIn(grid: TurnGrid, overview: TurnOverview, laneMin: number, laneMax: number, rowMin: number, rowMax: number, visit: (turn: number) => void): void {
  const { lane, row } = overview.layout;
  const cellRows = (grid.cellStart.length - 1) / grid.columns;
  const c0 = Math.max(0, Math.floor(laneMin / grid.laneCell));
  const c1 = Math.min(grid.columns - 1, Math.floor(laneMax / grid.laneCell));
  const r0 = Math.max(0, Math.floor(rowMin / grid.rowCell));
  const r1 = Math.min(cellRows - 1, Math.floor(rowMax / grid.rowCell));
  for (let r = r0; r <= r1; r++) {
    for (let c = c0; c <= c1; c++) {
      const cell = r * grid.columns + c;
      for (let k = grid.cellStart[cell]!; k < grid.cellStart[cell + 1]!; k++) {
        const t = grid.turns[k]!;
        const l = lane[t]!;
        const w = row[t]!;
        if (l >= laneMin && l <= laneMax && w >= rowMin && w <= rowMax) visit(t);
      }
    }
  }
}
