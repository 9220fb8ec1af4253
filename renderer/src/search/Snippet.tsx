import { memo } from 'react';
import { parseSnippet } from './snippet';

/** A search snippet with its matches in <mark>; text only, never HTML. */
export const Snippet = memo(function Snippet({ snippet }: { snippet: string }) {
  return (
    <span className="snippet">
      {parseSnippet(snippet).map((part, i) => (part.match ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>))}
    </span>
  );
});
