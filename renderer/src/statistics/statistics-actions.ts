/** The palette's "Show statistics". */
import type { PaletteAction } from '../palette/palette-registry';
import { openStatistics } from './statistics-store';

export function statisticsActions(): PaletteAction[] {
  return [{ id: 'statistics', title: 'Show statistics (tokens and cost)', group: 'View', keywords: 'tokens cost usage price money spend models days', run: openStatistics }];
}
