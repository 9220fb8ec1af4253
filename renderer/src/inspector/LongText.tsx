import { useState } from 'react';

export const COLLAPSED_LINES = 30;
/** One minified line can be megabytes; collapsed text is cut by characters too. */
export const COLLAPSED_CHARS = 6000;

/** Pre-formatted text that shows its first lines and offers the rest ("show all N lines"). */
export function LongText({ text, className, limit = COLLAPSED_LINES }: { text: string; className?: string; limit?: number }) {
  const [expanded, setExpanded] = useState(false);
  const lines = text.split('\n');
  const long = lines.length > limit || text.length > COLLAPSED_CHARS;
  const shown = long && !expanded ? `${lines.slice(0, limit).join('\n').slice(0, COLLAPSED_CHARS)}…` : text;
  return (
    <div className="long-text">
      <pre className={['long-text__body', className].filter(Boolean).join(' ')}>{shown}</pre>
      {long ? (
        <button type="button" className="link-button" onClick={() => setExpanded((v) => !v)}>
          {expanded ? 'Show less' : lines.length > 1 ? `Show all ${lines.length} lines` : `Show all ${text.length} characters`}
        </button>
      ) : null}
    </div>
  );
}

/** Pretty-prints JSON-like data; strings that hold JSON are shown parsed. */
export function prettyJson(value: unknown): string {
  if (typeof value === 'string') {
    try {
      return JSON.stringify(JSON.parse(value), null, 2);
    } catch {
      return value;
    }
  }
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}
