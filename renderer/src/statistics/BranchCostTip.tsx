/**
 * At a branch point, each branch's tokens and cost beside its siblings' (issue 15: which attempt was cheaper),
 * read when the pointer or the focus reaches the branch badge and shown as its tooltip.
 */
import { useCallback, useState, type ReactNode } from 'react';
import type { BranchUsage } from '../../../shared/usage';
import { useOptionalAppContext } from '../app/app-context';
import { branchHeads } from './branch-heads';
import { longCost, shortCost } from './cost-words';
import './statistics.css';

export function BranchCostTip({ nodeId, children }: { readonly nodeId: string; readonly children: ReactNode }) {
  const app = useOptionalAppContext();
  const [branches, setBranches] = useState<readonly BranchUsage[] | null>(null);
  const [shown, setShown] = useState(false);
  const show = useCallback(() => {
    setShown(true);
    // The graph is read when asked, not subscribed to: a badge re-renders with its card only.
    const graph = app?.store.getState().graph ?? null;
    if (app === null || branches !== null || graph === null) return;
    const heads = branchHeads(graph.nodes, nodeId).slice(0, 200);
    if (heads.length === 0) return;
    app.client.call('stats.branches', { headIds: heads.map((head) => head.headId) }).then(
      (result) => setBranches(result.branches),
      () => setBranches([]),
    );
  }, [app, branches, nodeId]);
  const cheapest = branches === null ? null : cheapestOf(branches);
  return (
    <span className="branch-cost" onPointerEnter={show} onPointerLeave={() => setShown(false)} onFocus={show} onBlur={() => setShown(false)}>
      {children}
      {shown && branches !== null && branches.length > 0 ? (
        <span className="branch-cost__tip" role="tooltip" data-testid="branch-cost-tip">
          <span className="branch-cost__title">Cost of each branch, from the start</span>
          {branches.map((branch, index) => (
            <span key={branch.headId} className={`branch-cost__row${branch.headId === cheapest ? ' is-cheapest' : ''}`} title={longCost(branch.total)}>
              branch {index + 1}: {shortCost(branch.total)}
              {branch.headId === cheapest ? ' — cheapest' : ''}
            </span>
          ))}
        </span>
      ) : null}
    </span>
  );
}

function cheapestOf(branches: readonly BranchUsage[]): string | null {
  const costed = branches.filter((branch) => branch.total.usd !== null);
  if (costed.length < 2) return null;
  return costed.reduce((best, branch) => (branch.total.usd! < best.total.usd! ? branch : best)).headId;
}
