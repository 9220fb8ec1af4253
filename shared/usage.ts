/**
 * Tokens and cost (issue 15): what a node, branch, session, project, agent or day used, and what it cost with
 * how that is known. Pure: the store hands over counted replies grouped by what the figure is about, and the
 * price table; this module prices them. Every figure keeps its tokens apart by how its cost is known, so a
 * total never hides that part of it is a guess or unknown.
 */

/** How a cost is known. */
export type CostBasis =
  /** From the price table (the row's effective date says when the price was taken). */
  | 'priced'
  /** The agent's own cost (`costUSD` on old Claude Code lines). */
  | 'reported'
  /** Tokens whose model has no price in the table. */
  | 'model-unknown'
  /** The user said this agent runs on a subscription plan: no per-token cost. */
  | 'subscription';

export const COST_BASES: readonly CostBasis[] = ['priced', 'reported', 'model-unknown', 'subscription'];

export interface TokenCounts {
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
}

/** One row of the price table: dollars per million tokens for models matching `pattern`. */
export interface ModelPrice {
  /** A model name, or a prefix ending in `*` (`claude-opus-4-5*`). The longest matching pattern wins. */
  readonly pattern: string;
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  /** ISO date the price was taken or set. */
  readonly effectiveDate: string;
  /** Shipped with Arbor, or set by the user. */
  readonly origin: 'default' | 'user';
}

/** Counted replies of one model in one group, the store's answer. */
export interface UsageGroupRow {
  /** What the figure is about (a day, a model, a session id, a project, an agent, or '' for all). */
  readonly key: string;
  readonly agent: string;
  readonly model: string | null;
  readonly tokens: TokenCounts;
  /** The part of these tokens whose replies carried the agent's own cost, and that cost. */
  readonly reportedTokens: TokenCounts;
  readonly reportedUsd: number;
  readonly replies: number;
}

/** A figure: tokens, and the cost of each part by how it is known. */
export interface UsageFigure {
  readonly tokens: TokenCounts;
  readonly replies: number;
  /** Known dollars (priced + reported); null when no part of it could be costed. */
  readonly usd: number | null;
  readonly pricedUsd: number;
  readonly reportedUsd: number;
  /** Tokens without a cost: model unknown, and subscription. */
  readonly unknownModelTokens: number;
  readonly subscriptionTokens: number;
  /** The bases present, in COST_BASES order. */
  readonly bases: readonly CostBasis[];
  /** The oldest effective date among the prices used (null: none used). */
  readonly priceDate: string | null;
  readonly models: readonly string[];
}

export interface UsageFigureRow extends UsageFigure {
  readonly key: string;
}

export type StatsGrouping = 'day' | 'model' | 'project' | 'agent' | 'session';
export const STATS_GROUPINGS: readonly StatsGrouping[] = ['day', 'model', 'project', 'agent', 'session'];

export interface StatsFilters {
  readonly project?: string;
  readonly agent?: string;
  /** Inclusive ISO dates (YYYY-MM-DD), UTC days. */
  readonly from?: string;
  readonly to?: string;
  readonly sessionId?: string;
}

export interface StatsReport {
  readonly by: StatsGrouping;
  readonly filters: StatsFilters;
  readonly total: UsageFigure;
  readonly rows: readonly UsageFigureRow[];
  /** True while the replies of a store from before tokens were counted are still being read: figures are partial. */
  readonly counting: boolean;
}

/** A session's figure and, for the graph, each branch's (root → a branch's head). */
export interface SessionUsage {
  readonly sessionId: string;
  readonly total: UsageFigure;
  /** As StatsReport's: the figure may be partial. */
  readonly counting: boolean;
}

export interface BranchUsage {
  readonly headId: string;
  readonly total: UsageFigure;
}

export interface AgentPlan {
  readonly agent: string;
  readonly subscription: boolean;
}

export const ZERO_TOKENS: TokenCounts = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

export function addTokens(a: TokenCounts, b: TokenCounts): TokenCounts {
  return { input: a.input + b.input, output: a.output + b.output, cacheRead: a.cacheRead + b.cacheRead, cacheWrite: a.cacheWrite + b.cacheWrite };
}

export function subtractTokens(a: TokenCounts, b: TokenCounts): TokenCounts {
  return { input: a.input - b.input, output: a.output - b.output, cacheRead: a.cacheRead - b.cacheRead, cacheWrite: a.cacheWrite - b.cacheWrite };
}

export function tokenTotal(t: TokenCounts): number {
  return t.input + t.output + t.cacheRead + t.cacheWrite;
}

/** The price for `model`: an exact pattern first, else the longest `prefix*` that matches; null: unknown. */
export function priceFor(prices: readonly ModelPrice[], model: string | null): ModelPrice | null {
  if (model === null) return null;
  const name = model.toLowerCase();
  let best: ModelPrice | null = null;
  for (const price of prices) {
    const pattern = price.pattern.toLowerCase();
    if (pattern === name) return price;
    if (!pattern.endsWith('*') || !name.startsWith(pattern.slice(0, -1))) continue;
    if (best === null || pattern.length > best.pattern.length) best = price;
  }
  return best;
}

export function costOf(tokens: TokenCounts, price: ModelPrice): number {
  return (tokens.input * price.input + tokens.output * price.output + tokens.cacheRead * price.cacheRead + tokens.cacheWrite * price.cacheWrite) / 1_000_000;
}

/** What makes a figure: the group rows it sums, the price table and the agents on a subscription plan. */
export interface PricingContext {
  readonly prices: readonly ModelPrice[];
  readonly subscriptionAgents: ReadonlySet<string>;
}

/** Sums group rows into one figure, costing each part by how it is known. */
export function figureOf(rows: readonly UsageGroupRow[], context: PricingContext): UsageFigure {
  let tokens = ZERO_TOKENS;
  let replies = 0;
  let pricedUsd = 0;
  let reportedUsd = 0;
  let unknownModelTokens = 0;
  let subscriptionTokens = 0;
  let priceDate: string | null = null;
  const bases = new Set<CostBasis>();
  const models = new Set<string>();
  for (const row of rows) {
    tokens = addTokens(tokens, row.tokens);
    replies += row.replies;
    if (row.model !== null) models.add(row.model);
    if (context.subscriptionAgents.has(row.agent)) {
      if (tokenTotal(row.tokens) > 0) bases.add('subscription');
      subscriptionTokens += tokenTotal(row.tokens);
      continue;
    }
    // The agent's own figure wins for the replies that carry it; the rest of the group is priced.
    if (tokenTotal(row.reportedTokens) > 0 || row.reportedUsd > 0) {
      bases.add('reported');
      reportedUsd += row.reportedUsd;
    }
    const rest = subtractTokens(row.tokens, row.reportedTokens);
    if (tokenTotal(rest) === 0) continue;
    const price = priceFor(context.prices, row.model);
    if (price === null) {
      bases.add('model-unknown');
      unknownModelTokens += tokenTotal(rest);
      continue;
    }
    bases.add('priced');
    pricedUsd += costOf(rest, price);
    if (priceDate === null || price.effectiveDate < priceDate) priceDate = price.effectiveDate;
  }
  const costed = bases.has('priced') || bases.has('reported');
  return {
    tokens,
    replies,
    usd: costed ? pricedUsd + reportedUsd : null,
    pricedUsd,
    reportedUsd,
    unknownModelTokens,
    subscriptionTokens,
    bases: COST_BASES.filter((basis) => bases.has(basis)),
    priceDate,
    models: [...models].sort(),
  };
}

/** Group rows by their key into figures, in the order the keys first appear. */
export function figuresByKey(rows: readonly UsageGroupRow[], context: PricingContext): UsageFigureRow[] {
  const groups = new Map<string, UsageGroupRow[]>();
  for (const row of rows) {
    const list = groups.get(row.key);
    if (list === undefined) groups.set(row.key, [row]);
    else list.push(row);
  }
  return [...groups].map(([key, list]) => ({ key, ...figureOf(list, context) }));
}

/** "$1.23" with enough digits to tell small costs apart. */
export function formatUsd(usd: number): string {
  if (usd === 0) return '$0';
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  if (usd < 100) return `$${usd.toFixed(2)}`;
  return `$${Math.round(usd).toLocaleString('en-US')}`;
}

const TOKEN_UNITS = [
  { size: 1e12, suffix: 'T' },
  { size: 1e9, suffix: 'B' },
  { size: 1e6, suffix: 'M' },
  { size: 1e3, suffix: 'k' },
] as const;

/**
 * "12.3k", "4.5M", "235B": a token count at a glance, in at most four digits. A long session's cache reads pass a
 * billion (a 100k-node session read "234871.7M tokens"); the unit is chosen after rounding, so 999,999 reads "1.00M",
 * not "1000k".
 */
export function formatTokens(count: number): string {
  if (count < 1000) return String(count);
  for (const [index, unit] of TOKEN_UNITS.entries()) {
    const value = count / unit.size;
    if (value < 1 && index < TOKEN_UNITS.length - 1) continue;
    const digits = unit.suffix === 'k' ? (value < 10 ? 1 : 0) : value < 10 ? 2 : value < 100 ? 1 : 0;
    const text = value.toFixed(digits);
    const larger = TOKEN_UNITS[index - 1];
    // Rounded up to the next unit (999.96k): say it in that unit.
    if (larger !== undefined && Number(text) >= 1000) return `${(count / larger.size).toFixed(2)}${larger.suffix}`;
    return `${text}${unit.suffix}`;
  }
  return String(count);
}

/** The words a figure's cost carries: "$1.20 priced (prices of 2026-03-21)", "subscription", "model unknown". */
export function describeCost(figure: UsageFigure): string {
  const parts: string[] = [];
  if (figure.usd !== null) parts.push(formatUsd(figure.usd));
  const how: string[] = [];
  for (const basis of figure.bases) {
    if (basis === 'priced') how.push(figure.priceDate === null ? 'priced' : `priced (prices of ${figure.priceDate})`);
    else if (basis === 'reported') how.push('reported by the agent');
    else if (basis === 'model-unknown') how.push(`${formatTokens(figure.unknownModelTokens)} tokens of an unknown model`);
    else how.push(`${formatTokens(figure.subscriptionTokens)} tokens on a subscription`);
  }
  if (how.length === 0) return 'no tokens recorded';
  return parts.length === 0 ? how.join(', ') : `${parts[0]} ${how.join(', ')}`;
}

/** The price table's numbers: finite, not negative, below a bound no model has come near. */
export const PRICE_MAX_PER_MTOK = 100_000;

export function isValidPrice(value: number): boolean {
  return Number.isFinite(value) && value >= 0 && value <= PRICE_MAX_PER_MTOK;
}

/** A model pattern: a name or a prefix ending in `*`, no other wildcard. */
export function isValidPattern(pattern: string): boolean {
  return pattern.length > 0 && pattern.length <= 200 && !/[\s]/.test(pattern) && pattern.indexOf('*') === (pattern.endsWith('*') ? pattern.length - 1 : -1) && pattern !== '*';
}
