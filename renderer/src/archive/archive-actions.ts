/** The palette's "Export archive…" (issue 15): the same service method as `arbor export-archive`. */
import type { PaletteAction } from '../palette/palette-registry';
import { openArchiveExport } from './archive-dialog-store';

export function archiveActions(): PaletteAction[] {
  return [{ id: 'archive.export', title: 'Export archive…', group: 'App', keywords: 'move store machine backup copy folder whole', run: openArchiveExport }];
}
