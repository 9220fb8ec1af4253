/**
 * A Codex rollout's lines as the store kept them, for a fork after Codex (or the user) deleted the rollout (issue 15:
 * the store is the archive; a fork is written from it). Lines are placed at their line numbers, a line over RAW_LIMIT
 * from the whole copy the import kept (electron/db/long-lines.ts); a line the store never held (a blank or unreadable
 * one) stays empty, which the fork's renderer leaves out, as it does for such lines read from the file.
 */
import { longLinesOf } from '../../db/long-lines';
import type { SessionStore } from '../../db/session-store';
import { throwIfAborted } from '../../../shared/errors';
import { viewLine, type RolloutLineView } from './rollout-view';

export type StoredRolloutReader = (file: string, sessionId: string, signal?: AbortSignal) => readonly RolloutLineView[] | null;

export function storedRolloutReader(store: Pick<SessionStore, 'forEachSessionLine' | 'handles'>): StoredRolloutReader {
  return (file, sessionId, signal) => {
    throwIfAborted(signal);
    const long = longLinesOf(store.handles);
    const texts: string[] = [];
    const longOnes: number[] = [];
    store.forEachSessionLine(sessionId, (line) => {
      if (line.file !== file) return;
      texts[line.line - 1] = line.raw.toString('utf8');
      if (line.rawBytes > line.raw.length) longOnes.push(line.line);
    });
    if (texts.length === 0) return null;
    // Read once the iteration is over: the reader connection is busy while it runs.
    for (const line of longOnes) {
      const whole = long.read(file, line);
      // A long line the store kept only the head of (a store from before migration 034): not copyable.
      texts[line - 1] = whole === null ? '' : whole.toString('utf8');
    }
    const lines: RolloutLineView[] = [];
    for (let index = 0; index < texts.length; index++) lines.push(viewLine(texts[index] ?? '', index));
    return lines;
  };
}
