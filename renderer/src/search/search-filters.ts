/**
 * `kind:` style filter tokens typed in the search box, turned into the service's SearchFilters; the rest of
 * the text is the query. Unknown `word:value` tokens stay text (a path or a URL is searched as typed).
 */
import type { NodeKind, SearchFilters, SessionId } from '../../../shared/model';

/** The kinds a person filters by, in the words the search box shows. */
export const KIND_FILTERS: readonly { readonly word: string; readonly label: string; readonly kinds: readonly NodeKind[] }[] = [
  { word: 'prompt', label: 'Prompts', kinds: ['user'] },
  { word: 'reply', label: 'Replies', kinds: ['assistant'] },
  { word: 'call', label: 'Tool calls', kinds: ['tool_call'] },
  { word: 'result', label: 'Tool results', kinds: ['tool_result', 'error'] },
  { word: 'thinking', label: 'Thinking', kinds: ['thinking'] },
  { word: 'system', label: 'System', kinds: ['system', 'compaction', 'merge-summary'] },
];

export interface SearchContext {
  /** The open session, for `session:this`. */
  readonly sessionId: SessionId | null;
  readonly project: string | null;
}

export interface ParsedSearch {
  readonly query: string;
  readonly filters: SearchFilters | undefined;
  /** The filter tokens recognised, as typed (the chips show them). */
  readonly tokens: readonly string[];
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Splits typed text into the query and its filters: `kind:prompt,reply`, `session:this`, `project:this`, `agent:main|sub|<id>`, `after:2025-01-01`, `before:…`. */
export function parseSearchInput(text: string, context: SearchContext): ParsedSearch {
  const kinds = new Set<NodeKind>();
  const filters: { -readonly [K in keyof SearchFilters]: SearchFilters[K] } = {};
  const tokens: string[] = [];
  const rest: string[] = [];
  // Inside double quotes a `kind:` is text, so split outside quotes only.
  const parts = text.match(/"[^"]*"?|\S+/g) ?? [];
  for (const part of parts) {
    const match = /^(kind|session|project|agent|after|before):(.+)$/i.exec(part);
    const recognised = match !== null && apply(match[1]?.toLowerCase() ?? '', match[2] ?? '', context, filters, kinds);
    if (recognised) tokens.push(part);
    else rest.push(part);
  }
  if (kinds.size > 0) filters.kinds = [...kinds];
  return { query: rest.join(' '), filters: Object.keys(filters).length > 0 ? filters : undefined, tokens };
}

function apply(
  key: string,
  value: string,
  context: SearchContext,
  filters: { -readonly [K in keyof SearchFilters]: SearchFilters[K] },
  kinds: Set<NodeKind>,
): boolean {
  switch (key) {
    case 'kind': {
      const words = value.toLowerCase().split(',');
      const known = words.map((word) => KIND_FILTERS.find((filter) => filter.word === word || filter.word === word.replace(/s$/, '')));
      if (known.some((filter) => filter === undefined)) return false;
      for (const filter of known) for (const kind of filter?.kinds ?? []) kinds.add(kind);
      return true;
    }
    case 'session':
      if (value !== 'this' || context.sessionId === null) return false;
      filters.sessionIds = [context.sessionId];
      return true;
    case 'project':
      if (value === 'this') {
        if (context.project === null) return false;
        filters.projects = [context.project];
        return true;
      }
      if (!value.startsWith('/') && !/^[A-Za-z]:\\/.test(value)) return false;
      filters.projects = [value];
      return true;
    case 'agent':
      filters.agent = value === 'sub' ? 'subagent' : value;
      return true;
    case 'after':
    case 'before':
      if (!DATE.test(value) || !Number.isFinite(Date.parse(value))) return false;
      if (key === 'after') filters.from = value;
      else filters.to = value;
      return true;
    default:
      return false;
  }
}

/** The text with `kind:<word>` added, or removed when it is there (the chips toggle it). */
export function toggleKind(text: string, word: string): string {
  const parts = text.match(/"[^"]*"?|\S+/g) ?? [];
  const token = `kind:${word}`;
  const without = parts.filter((part) => part.toLowerCase() !== token);
  return without.length < parts.length ? without.join(' ') : [...parts, token].join(' ') + ' ';
}

export function hasKind(text: string, word: string): boolean {
  return (text.match(/\S+/g) ?? []).some((part) => part.toLowerCase() === `kind:${word}`);
}
