import { SNIPPET_CLOSE, SNIPPET_OPEN } from '../../../shared/model';

export interface SnippetPart {
  readonly text: string;
  readonly match: boolean;
}

/**
 * Splits a search snippet at its match markers. The result is plain text pieces that React renders as
 * text nodes, so markup inside a transcript can never become HTML.
 */
export function parseSnippet(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let match = false;
  let text = '';
  const flush = () => {
    if (text !== '') parts.push({ text, match });
    text = '';
  };
  for (const ch of snippet) {
    if (ch === SNIPPET_OPEN) {
      flush();
      match = true;
    } else if (ch === SNIPPET_CLOSE) {
      flush();
      match = false;
    } else {
      text += ch;
    }
  }
  flush();
  return parts;
}
