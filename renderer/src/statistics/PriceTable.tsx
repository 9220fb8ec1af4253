/**
 * The price table and the agents' plans, edited in the app (issue 15): a row per model pattern in dollars per
 * million tokens with the date it is from, a form to set one, Reset to the shipped table, and per agent
 * "runs on a subscription plan". Bad numbers are refused by the service with BAD_REQUEST, shown here.
 */
import { useEffect, useState, type FormEvent } from 'react';
import type { AgentPlan, ModelPrice } from '../../../shared/usage';
import { useArborClient } from '../app/app-context';
import { ErrorBox } from '../time-travel/ErrorBox';

export function PriceTable({ onChanged }: { readonly onChanged: () => void }) {
  const client = useArborClient();
  const [prices, setPrices] = useState<readonly ModelPrice[]>([]);
  const [plans, setPlans] = useState<readonly AgentPlan[]>([]);
  const [agents, setAgents] = useState<readonly string[]>([]);
  const [defaultsDate, setDefaultsDate] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [draft, setDraft] = useState({ pattern: '', input: '', output: '', cacheRead: '', cacheWrite: '' });

  useEffect(() => {
    let live = true;
    Promise.all([client.call('prices.list', {}), client.call('stats.get', { top: 0 })]).then(
      ([listed, stats]) => {
        if (!live) return;
        setPrices(listed.prices);
        setPlans(listed.plans);
        setDefaultsDate(listed.defaultsDate);
        setAgents(stats.agents);
      },
      (cause: unknown) => live && setError(cause),
    );
    return () => {
      live = false;
    };
  }, [client]);

  const run = (work: Promise<{ prices?: ModelPrice[]; plans?: AgentPlan[] }>) =>
    work.then(
      (result) => {
        if (result.prices !== undefined) setPrices(result.prices);
        if (result.plans !== undefined) setPlans(result.plans);
        setError(null);
        onChanged();
      },
      (cause: unknown) => setError(cause),
    );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const number = (text: string) => (text.trim() === '' ? undefined : Number(text));
    void run(
      client.call('prices.set', {
        price: {
          pattern: draft.pattern.trim(),
          input: Number(draft.input),
          output: Number(draft.output),
          ...(number(draft.cacheRead) === undefined ? {} : { cacheRead: number(draft.cacheRead)! }),
          ...(number(draft.cacheWrite) === undefined ? {} : { cacheWrite: number(draft.cacheWrite)! }),
        },
      }),
    );
  };
  const subscribed = new Set(plans.filter((plan) => plan.subscription).map((plan) => plan.agent));
  const field = (key: keyof typeof draft, label: string) => (
    <label>
      {label}
      <input value={draft[key]} inputMode={key === 'pattern' ? 'text' : 'decimal'} onChange={(e) => setDraft((d) => ({ ...d, [key]: e.target.value }))} data-testid={`price-${key}`} />
    </label>
  );

  return (
    <details className="stats-prices" data-testid="stats-prices">
      <summary>Prices and plans</summary>
      {error !== null ? <ErrorBox error={error} what="The price could not be changed." /> : null}
      {agents.length > 0 ? (
        <fieldset className="stats-plans">
          <legend>Runs on a subscription plan (no per-token cost)</legend>
          {agents.map((agent) => (
            <label key={agent}>
              <input type="checkbox" checked={subscribed.has(agent)} onChange={(e) => void run(client.call('prices.setPlan', { agent, subscription: e.target.checked }))} />
              {agent}
            </label>
          ))}
        </fieldset>
      ) : null}
      <table className="stats-table">
        <caption>Dollars per million tokens. Shipped prices were taken on {defaultsDate}.</caption>
        <thead>
          <tr>
            <th scope="col">Model</th>
            <th scope="col" className="is-number">Input</th>
            <th scope="col" className="is-number">Output</th>
            <th scope="col" className="is-number">Cache read</th>
            <th scope="col" className="is-number">Cache write</th>
            <th scope="col">Since</th>
            <th scope="col">Set by</th>
          </tr>
        </thead>
        <tbody>
          {prices.map((price) => (
            <tr key={price.pattern}>
              <td>
                <code>{price.pattern}</code>
              </td>
              <td className="is-number">{price.input}</td>
              <td className="is-number">{price.output}</td>
              <td className="is-number">{price.cacheRead}</td>
              <td className="is-number">{price.cacheWrite}</td>
              <td>{price.effectiveDate}</td>
              <td>{price.origin === 'user' ? 'you' : 'Arbor'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <form className="stats-price-form" onSubmit={submit} aria-label="Set a price">
        {field('pattern', 'Model or prefix*')}
        {field('input', 'Input')}
        {field('output', 'Output')}
        {field('cacheRead', 'Cache read')}
        {field('cacheWrite', 'Cache write')}
        <button type="submit" className="secondary-button">
          Set price
        </button>
        <button type="button" className="secondary-button" onClick={() => void run(client.call('prices.reset', {}))}>
          Reset to shipped prices
        </button>
      </form>
    </details>
  );
}
