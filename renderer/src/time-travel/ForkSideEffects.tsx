import type { NodeId } from '../../../shared/model';
import { EffectList, rowsOfLedger } from './EffectList';
import { useLedger } from './use-ledger';

/**
 * Before a fork: what the steps the fork carries (root → the node) requested outside the workspace, and what the
 * branch did after the node (not carried; its effects stay in the world). The fork copies the conversation, not
 * the world: an agent resumed in the fork may ask for a carried effect again, a replay above all.
 */
export function ForkSideEffects({ nodeId }: { readonly nodeId: NodeId }) {
  const state = useLedger(nodeId);
  if (state.status === 'loading') return <p className="ledger-status">Looking for side effects on this branch…</p>;
  if (state.status === 'failed') return <p className="ledger-status">The side effects of this branch could not be read.</p>;
  const carried = state.ledger.entries.filter((entry) => !entry.afterThrough);
  const after = state.ledger.entries.filter((entry) => entry.afterThrough);
  if (carried.length === 0 && after.length === 0) return null;
  return (
    <div className="tt-stack" data-testid="fork-side-effects">
      <EffectList
        rows={rowsOfLedger(carried)}
        title="Side effects carried into the fork"
        intro="These steps up to here reached outside the workspace. The fork copies the conversation, not the world: resumed there, the agent may ask for them again."
        testId="fork-effects-carried"
      />
      <EffectList
        rows={rowsOfLedger(after)}
        title="Side effects after this step"
        intro="Later on this branch, not in the fork; what they did stays."
        testId="fork-effects-after"
      />
    </div>
  );
}
