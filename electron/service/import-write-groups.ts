/**
 * The import's write groups and links (import-sessions.ts): which stored batches share one write transaction,
 * when a group commits, and when the sessions stored so far are linked and announced.
 */
import type { SessionStore } from '../db/session-store';
import type { ImportProblem, SessionId } from '../../shared/model';
import type { ImportOptions } from './import-sessions';

/** How often, at most, a running import links what it stored so far and tells the list (a link costs a little). */
export const SESSIONS_CHANGED_MS = 500;
/**
 * Small files (below LIST_BEFORE_BYTES) are stored in one write transaction until this many bytes are read or a
 * link is due (sessionsChangedEveryMs): each commit writes again every page its rows touched, and the ids'
 * indexes are random, so a commit per file (of ~5 MB, 37 on the 200 MB bench) wrote 2.3x the input.
 */
const GROUP_BYTES = 24 * 1024 * 1024;
/**
 * A big file's batches after its first are stored in write groups too, each committed once it holds this share
 * of what the file stored before it (and at least BIG_GROUP_BYTES): every commit writes each page of the
 * random-keyed indexes (node id, tool-call id, tool-result id, reply key) again, and those grow with the file, so
 * a commit per batch (~25 at 1 GB) wrote them 0.75x the input, growing with the square of the file (issue 12).
 * Commits growing with the file write them a bounded number of times over, whatever its size.
 */
const BIG_GROUP_SHARE = 0.5;
const BIG_GROUP_BYTES = 64 * 1024 * 1024;

/**
 * The links made while the import runs. A session linked early and again later (its subagent files come after
 * the session files) reports the same broken cycle twice; each problem is listed once.
 */
export class LinkedSoFar {
  private readonly sessionIds = new Set<SessionId>();
  private readonly problemKeys = new Set<string>();
  private lastLink = -Infinity;
  /** A file added nodes since the last link. */
  private pending = false;
  /** A write group is open (small files stored in one transaction, committed by the next link or `commit`). */
  private grouped = false;
  private groupBytes = 0;
  private lastCommit = -Infinity;
  /** Sessions linked inside the open write group, announced once it commits. */
  private readonly inGroup = new Set<SessionId>();

  constructor(
    private readonly store: SessionStore,
    private readonly problems: { add(problem: ImportProblem): void },
    private readonly options: Pick<ImportOptions, 'onSessionsChanged' | 'sessionsChangedEveryMs'>,
    /** Whether a commit folds a large WAL (not an append's: FOLD_WAL_FROM_BYTES). */
    private readonly folds: boolean,
  ) {}

  /** Before a small file: its batches join the open write group (one is opened when none is). */
  group(): void {
    if (this.grouped) return;
    this.store.beginWriteGroup();
    this.grouped = true;
  }

  /** Commits the write group, if one is open: its rows become visible to the other connections. */
  commit(): void {
    if (this.grouped) {
      this.grouped = false;
      this.groupBytes = 0;
      this.lastCommit = performance.now();
      this.store.commitWriteGroup(this.folds);
    }
    // Sessions linked inside the group are readable on every connection now.
    if (this.inGroup.size === 0) return;
    const linked = [...this.inGroup];
    this.inGroup.clear();
    this.announce(linked);
  }

  /**
   * After each file: links (and commits the write group with the link) at most every `sessionsChangedEveryMs`;
   * without listeners the group still commits as often, or once it holds GROUP_BYTES of transcripts.
   */
  afterFile(added: boolean, groupedBytes: number): void {
    if (added && this.options.onSessionsChanged) this.pending = true;
    this.groupBytes += groupedBytes;
    const every = this.options.sessionsChangedEveryMs ?? SESSIONS_CHANGED_MS;
    const now = performance.now();
    if (this.pending) {
      if (now - this.lastLink >= every || this.groupBytes >= GROUP_BYTES) this.link();
    } else if (now - this.lastCommit >= every || this.groupBytes >= GROUP_BYTES) this.commit();
  }

  beforeBigFile(): void {
    if (this.options.onSessionsChanged && this.pending) this.link();
    this.commit();
  }

  /**
   * For a big file: what to call after each of its batches is stored. The first links at once (a session
   * that takes minutes to import is listed, and can be opened, within a second of the import reaching it); the
   * later ones join a write group, committed (and linked, when someone listens) once it holds BIG_GROUP_SHARE of
   * what the file stored before it.
   */
  batchStored(): (batchBytes: number) => void {
    let first = true;
    let fileBytes = 0;
    return (batchBytes) => {
      fileBytes += batchBytes;
      if (first) {
        first = false;
        if (this.options.onSessionsChanged) {
          this.pending = true;
          this.link();
        }
        this.group();
        return;
      }
      this.groupBytes += batchBytes;
      if (this.options.onSessionsChanged) this.pending = true;
      if (this.groupBytes < Math.max(BIG_GROUP_BYTES, (fileBytes - this.groupBytes) * BIG_GROUP_SHARE)) {
        // Linked as often as before, inside the group (announced at its commit): a link run over a whole group's
        // nodes held them all in memory at once (+70 MB of the import's peak at 1 GB).
        if (this.pending && performance.now() - this.lastLink >= (this.options.sessionsChangedEveryMs ?? SESSIONS_CHANGED_MS)) this.linkInGroup();
        return;
      }
      if (this.pending) this.link();
      else this.commit();
      this.group();
    };
  }

  /** Links what is stored so far inside the open write group; the sessions are announced when it commits. */
  private linkInGroup(): void {
    this.lastLink = performance.now();
    const link = this.store.linkChangedSessions();
    this.addProblems(link.problems);
    for (const id of link.sessionIds) this.inGroup.add(id);
  }

  private link(): void {
    this.lastLink = performance.now();
    this.pending = false;
    // In the write group, then committed with it: the sessions announced are readable on every connection.
    const link = this.store.linkChangedSessions();
    for (const id of link.sessionIds) this.inGroup.add(id);
    this.addProblems(link.problems);
    this.commit();
  }

  announce(sessionIds: readonly SessionId[]): void {
    for (const id of sessionIds) this.sessionIds.add(id);
    if (sessionIds.length > 0) this.options.onSessionsChanged?.(sessionIds);
  }

  addProblems(problems: readonly ImportProblem[]): void {
    for (const problem of problems) {
      const key = `${problem.file}\0${problem.line}\0${problem.reason}`;
      if (this.problemKeys.has(key)) continue;
      this.problemKeys.add(key);
      this.problems.add(problem);
    }
  }

  /** Every session linked during the import and at its end. */
  all(last: readonly SessionId[]): SessionId[] {
    if (this.sessionIds.size === 0) return [...last];
    return [...new Set([...this.sessionIds, ...last])];
  }
}
