/**
 * The side-effect ledger (issue 15, DESIGN.md "intent / outcome", "side effect"): every step of a session, or of
 * the branch through a node, that reached outside the workspace, with its outcome, and the requests that may
 * have done the same thing twice. Pure types shared by main, renderer, CLI and exports.
 */
import type { NodeId, SessionId, ToolOutcome } from './model';
import type { SideEffectKind } from './operations';

/** Why a request is flagged as a possible double effect. */
export type ReplayReason =
  /** The earlier request has no recorded outcome: it may have run, and was asked for again. */
  | 'missing-outcome'
  /** The earlier request is on another branch (a rewind, an edited prompt, a retried answer, a fork): it ran there. */
  | 'retry'
  /** The earlier request is in another transcript file: the session was resumed in between. */
  | 'resume';

/** The earlier request a replay repeats. */
export interface LedgerReplay {
  readonly nodeId: NodeId;
  readonly toolUseId: string;
  readonly summary: string;
  readonly outcome: ToolOutcome;
  readonly reason: ReplayReason;
  /** The effect both requested ('git commit', 'git push', 'npm publish', 'POST', …). */
  readonly effect: string;
}

export interface LedgerEntry {
  readonly nodeId: NodeId;
  readonly toolUseId: string;
  readonly tool: string;
  readonly timestamp: string | null;
  /** What the classifier says the call may have reached (empty for a local effect a repeat still doubles: a git commit). */
  readonly kinds: readonly SideEffectKind[];
  /** The effects the call requested that doing twice does twice (replay-rules.ts), by name; empty for reads and unknowns. */
  readonly effects: readonly string[];
  /** The command or call, shortened for display (≤ 200 chars). */
  readonly summary: string;
  /** `missing`: requested, outcome not recorded. */
  readonly outcome: ToolOutcome;
  /** Set when the same effect was requested before in a way that may make this one a second time. */
  readonly replayOf: LedgerReplay | null;
  /** For the branch through a node: true for steps after that node. */
  readonly afterThrough: boolean;
}

export interface SideEffectLedger {
  readonly sessionId: SessionId;
  /** The node whose branch this is (null: every step of the session, all branches). */
  readonly through: NodeId | null;
  /** In transcript order (subagent steps in theirs). */
  readonly entries: readonly LedgerEntry[];
  /** Entries whose outcome was not recorded. */
  readonly unrecorded: number;
  /** Entries flagged as possible double effects. */
  readonly replays: number;
}

export function ledgerCounts(entries: readonly LedgerEntry[]): { unrecorded: number; replays: number } {
  let unrecorded = 0;
  let replays = 0;
  for (const entry of entries) {
    if (entry.outcome === 'missing') unrecorded++;
    if (entry.replayOf !== null) replays++;
  }
  return { unrecorded, replays };
}

/** The kinds as people say them (the rewind preview, the ledger, the CLI and the exports use the same words). */
export const SIDE_EFFECT_LABELS: Readonly<Record<SideEffectKind, string>> = {
  'git-push': 'git push',
  'git-remote': 'git remote',
  network: 'network',
  publish: 'publish',
  database: 'database',
  mcp: 'MCP call',
  deploy: 'deploy',
  unknown: 'unknown',
};

export const LEDGER_OUTCOME_TEXT: Readonly<Record<ToolOutcome, string>> = {
  ok: 'ok',
  error: 'failed',
  missing: 'requested, outcome not recorded',
};

const REPLAY_REASON_TEXT: Readonly<Record<ReplayReason, string>> = {
  'missing-outcome': 'the earlier request has no recorded outcome and may have run',
  retry: 'it already ran on another branch (before a rewind or retry)',
  resume: 'it already ran before the session was resumed',
};

/** What an entry is, in a word or two: its kinds, else the effect it requested (a git commit stays local). */
export function entryLabels(entry: Pick<LedgerEntry, 'kinds' | 'effects'>): string[] {
  return entry.kinds.length > 0 ? entry.kinds.map((kind) => SIDE_EFFECT_LABELS[kind]) : entry.effects.slice(0, 1);
}

/** "Possible double effect: git commit requested again; the earlier request has no recorded outcome and may have run." */
export function replayText(replay: LedgerReplay): string {
  return `Possible double effect: ${replay.effect} requested again; ${REPLAY_REASON_TEXT[replay.reason]}.`;
}
