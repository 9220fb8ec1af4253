/**
 * A stored line's search text, derived again from its raw bytes by the background full-text indexer: the
 * import's hot path does not extract it (ParsedNode.text is null). The same rules as the parser's
 * (entry-summary's `text`), so what is indexed does not depend on when it was extracted.
 */
import { summarizeEntry } from './entry-summary';
import { isObject, stringField } from './json-shape';

const NO_TOOL_NAMES: ReadonlyMap<string, string> = new Map();

/** '' when the line is not a complete JSON object with a uuid (cut at RAW_LIMIT, or not a node at all). */
export function claudeSearchText(raw: Uint8Array): string {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8'));
  } catch {
    return '';
  }
  if (!isObject(value) || stringField(value, 'uuid') === null) return '';
  // Tool names only shape labels, never text.
  return summarizeEntry(value, stringField(value, 'type'), stringField(value, 'cwd'), NO_TOOL_NAMES, true).text;
}
