/** Search text of a stored raw line, by the format that wrote it (the full-text indexer's DeriveSearchText). */
import { importerFor } from './registry';

export function deriveSearchText(raw: Uint8Array, format: string): string {
  // A format this build does not know (a newer store): its lines stay unsearchable rather than failing.
  return importerFor(format)?.searchText(raw) ?? '';
}
