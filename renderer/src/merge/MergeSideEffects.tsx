import type { MergePreview } from '../../../shared/operations';
import { EffectList, rowsOfLedger } from '../time-travel/EffectList';
import { useLedger } from '../time-travel/use-ledger';
import './merge-side-effects.css';

/**
 * Before a merge: what each side's steps since the common step requested outside the workspace (a merge brings
 * files together; what those steps did to the world stays done, and a possible double effect is worth checking).
 * Folded to one line under the header until opened.
 */
export function MergeSideEffects({ preview }: { readonly preview: MergePreview }) {
  const theirs = useLedger(preview.theirs.nodeId, preview.base);
  const ours = useLedger(preview.ours.nodeId, preview.base);
  if (theirs.status !== 'ready' || ours.status !== 'ready') return null;
  const theirsEntries = theirs.ledger.entries.filter((entry) => !entry.afterThrough);
  const oursEntries = ours.ledger.entries.filter((entry) => !entry.afterThrough);
  const total = theirsEntries.length + oursEntries.length;
  if (total === 0) return null;
  const replays = [...theirsEntries, ...oursEntries].filter((entry) => entry.replayOf !== null).length;
  return (
    <details className="merge-effects" data-testid="merge-side-effects">
      <summary className="merge-effects__summary">
        Side effects since the common step: {total === 1 ? '1 step' : `${total} steps`} reached outside the workspace
        {replays > 0 ? <span className="badge badge--missing">{replays === 1 ? '1 possible double effect' : `${replays} possible double effects`}</span> : null}
      </summary>
      <div className="merge-effects__lists">
        <EffectList rows={rowsOfLedger(theirsEntries)} title="Theirs" intro="Steps of the branch whose changes come in; the merge takes their files, not back what they did." testId="merge-effects-theirs" />
        <EffectList rows={rowsOfLedger(oursEntries)} title="Ours" intro="Steps of the branch merged into." testId="merge-effects-ours" />
      </div>
    </details>
  );
}
