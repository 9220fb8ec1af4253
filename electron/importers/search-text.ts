/** Search text of a stored raw line, by the format that wrote it (the full-text indexer's DeriveSearchText). */
import { claudeSearchText } from './claude-code/search-text';

export function deriveSearchText(raw: Uint8Array, format: string): string {
  switch (format) {
    case 'claude-code':
      return claudeSearchText(raw);
    default:
      // A format this build does not know (a newer store): its lines stay unsearchable rather than failing.
      return '';
  }
}
