/** A figure in the few words a header or a tooltip has room for, and the long form for its title. */
import { describeCost, formatTokens, formatUsd, tokenTotal, type UsageFigure } from '../../../shared/usage';

/** "$1.23 · 45k tokens", "subscription · 45k tokens", "model unknown · 45k tokens". */
export function shortCost(figure: UsageFigure): string {
  const tokens = `${formatTokens(tokenTotal(figure.tokens))} tokens`;
  if (figure.replies === 0) return 'no tokens recorded';
  if (figure.usd !== null) return `${formatUsd(figure.usd)}${figure.bases.length > 1 || figure.bases[0] !== 'priced' ? '*' : ''} · ${tokens}`;
  return `${figure.bases.includes('subscription') ? 'subscription' : 'model unknown'} · ${tokens}`;
}

/** How the figure is known, in full: for a title or a screen reader. */
export function longCost(figure: UsageFigure): string {
  const t = figure.tokens;
  return `${describeCost(figure)}. Input ${t.input}, output ${t.output}, cache read ${t.cacheRead}, cache write ${t.cacheWrite} tokens${figure.models.length > 0 ? `; ${figure.models.join(', ')}` : ''}.`;
}
