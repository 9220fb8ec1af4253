import type { PriceInput } from '../../../shared/contract';
import type { ModelPrice } from '../../../shared/usage';
import { parseCommandArgs } from '../args';
import { UsageError, type CliCommand } from '../command';
import { table } from '../format';

export const pricesCommand: CliCommand = {
  name: 'prices',
  summary: 'Print or change the price table tokens are costed with',
  usage: `Usage: arbor prices [--json]
       arbor prices set MODEL --input X --output Y [--cache-read Z] [--cache-write W] [--date YYYY-MM-DD]
       arbor prices remove MODEL
       arbor prices reset
       arbor prices plan AGENT subscription|api

Prices are dollars per million tokens. MODEL is a model name, or a prefix ending in * (claude-opus-4-5*);
the longest matching pattern prices a model. Arbor ships a table with the date it was taken; \`reset\` brings
it back. \`plan AGENT subscription\` says the agent (claude-code, codex) runs on a subscription plan: its
tokens are then shown without a per-token cost.

Options:
  --json      Print {"prices":[{pattern,input,output,cacheRead,cacheWrite,effectiveDate,origin}],"plans":[…]}
  -h, --help  Show this help`,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(
      args,
      {
        json: { type: 'boolean' },
        input: { type: 'string' },
        output: { type: 'string' },
        'cache-read': { type: 'string' },
        'cache-write': { type: 'string' },
        date: { type: 'string' },
      },
      { min: 0, max: 3 },
    );
    const service = await context.service();
    const api = service.api;
    const signal = { signal: context.signal };
    const [action, name, plan] = positionals;
    let prices: ModelPrice[];
    if (action === undefined) prices = (await api['prices.list']({}, signal)).prices;
    else if (action === 'set') {
      if (name === undefined || plan !== undefined) throw new UsageError('prices set takes one MODEL');
      if (values.input === undefined || values.output === undefined) throw new UsageError('prices set needs --input and --output');
      const price: PriceInput = {
        pattern: name,
        input: dollars('input', values.input)!,
        output: dollars('output', values.output)!,
        ...optional('cacheRead', dollars('cache-read', values['cache-read'])),
        ...optional('cacheWrite', dollars('cache-write', values['cache-write'])),
        ...optional('effectiveDate', values.date),
      };
      prices = (await api['prices.set']({ price }, signal)).prices;
    } else if (action === 'remove') {
      if (name === undefined || plan !== undefined) throw new UsageError('prices remove takes one MODEL');
      const removed = await api['prices.remove']({ pattern: name }, signal);
      if (!removed.removed) throw new UsageError(`no price for ${name} (arbor prices lists them)`);
      prices = removed.prices;
    } else if (action === 'reset') {
      if (name !== undefined) throw new UsageError('prices reset takes no argument');
      prices = (await api['prices.reset']({}, signal)).prices;
    } else if (action === 'plan') {
      if (name === undefined || (plan !== 'subscription' && plan !== 'api')) throw new UsageError('prices plan takes AGENT and subscription or api');
      const plans = await api['prices.setPlan']({ agent: name, subscription: plan === 'subscription' }, signal);
      context.io.stdout(values.json === true ? `${JSON.stringify(plans)}\n` : `${name}: ${plan === 'subscription' ? 'subscription plan (no per-token cost)' : 'billed per token'}\n`);
      return 0;
    } else throw new UsageError(`unknown action ${JSON.stringify(action)} (set, remove, reset, plan)`);
    const { plans } = await api['prices.list']({}, signal);
    if (values.json === true) {
      context.io.stdout(`${JSON.stringify({ prices, plans })}\n`);
      return 0;
    }
    const rows = prices.map((price) => [price.pattern, money(price.input), money(price.output), money(price.cacheRead), money(price.cacheWrite), price.effectiveDate, price.origin]);
    const subscribed = plans.filter((p) => p.subscription).map((p) => p.agent);
    const footer = subscribed.length === 0 ? '' : `\nOn a subscription plan: ${subscribed.join(', ')}\n`;
    context.io.stdout(`${table(['model', 'input', 'output', 'cache read', 'cache write', 'since', 'set by'], rows, [1, 2, 3, 4])}$ per million tokens${footer === '' ? '\n' : `\n${footer}`}`);
    return 0;
  },
};

const money = (value: number): string => `$${value}`;

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** A price as typed: a plain decimal number (the service refuses negative or absurd ones with BAD_REQUEST). */
function dollars(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^-?\d+(\.\d+)?$/.test(text.trim())) throw new UsageError(`--${name} needs a number of dollars per million tokens`);
  return Number(text);
}
