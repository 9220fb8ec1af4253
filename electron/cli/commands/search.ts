import { integerOption, parseCommandArgs } from '../args';
import { UsageError, type CliCommand } from '../command';
import { formatDate, markSnippet, oneLine } from '../format';

export const searchCommand: CliCommand = {
  name: 'search',
  summary: 'Full-text search across all sessions',
  usage: `Usage: arbor search QUERY... [--limit N] [--json]

Searches prompts, replies, thinking and tool calls of every imported session. Several words are
searched together. Matches are shown between « and ».

Options:
  --limit N   At most N hits (default 50, up to 1000)
  --json      Print {"hits":[{"sessionId","sessionTitle","nodeId","kind","timestamp","snippet"}],"indexing":false}
  -h, --help  Show this help`,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' }, limit: { type: 'string' } }, { min: 1, max: Infinity });
    const query = positionals.join(' ').trim();
    if (query === '') throw new UsageError('the search query is empty');
    const limit = integerOption('limit', values.limit, { min: 1, max: 1000 }) ?? 50;
    const service = await context.service();
    let result = await service.api['search.query']({ query, limit }, { signal: context.signal });
    if (result.indexing) {
      // The index is still being built (e.g. right after an upgrade): finish it rather than answer partially.
      if (context.io.interactive) context.io.stderr('Finishing the search index…\n');
      await service.idle();
      result = await service.api['search.query']({ query, limit }, { signal: context.signal });
    }
    if (values.json === true) {
      context.io.stdout(`${JSON.stringify(result)}\n`);
      return 0;
    }
    if (result.hits.length === 0) {
      context.io.stdout(`No matches for "${query}".\n`);
      return 0;
    }
    const out = result.hits.map(
      (hit) =>
        `${hit.sessionId.slice(0, 8)}  ${formatDate(hit.timestamp)}  [${hit.kind}]  ${oneLine(hit.sessionTitle, 60)}\n    ${oneLine(markSnippet(hit.snippet), 200)}\n    node ${hit.nodeId}`,
    );
    context.io.stdout(`${out.join('\n')}\n`);
    return 0;
  },
};
