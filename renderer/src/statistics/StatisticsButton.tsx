import { openStatistics } from './statistics-store';

/** The header's entry to the Statistics view. */
export function StatisticsButton() {
  return (
    <button type="button" className="secondary-button header-button" data-testid="open-statistics" onClick={openStatistics}>
      Statistics
    </button>
  );
}
