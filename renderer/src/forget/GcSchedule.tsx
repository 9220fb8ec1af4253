/**
 * Storage upkeep in the Statistics view (issue 15): when the background gc runs (`store.gcSchedule`: daily,
 * weekly or off), when it last ran, and "Clean up…" to run it now and choose which forks go.
 */
import { useEffect, useState } from 'react';
import { GC_SCHEDULES, type GcSchedule as Schedule, type GcScheduleState } from '../../../shared/forget';
import { useArborClient } from '../app/app-context';
import { absoluteTime, relativeTime } from '../app/format';
import { openCleanUp } from './forget-store';
import './forget.css';

const LABELS: Readonly<Record<Schedule, string>> = { daily: 'Daily', weekly: 'Weekly', off: 'Off' };

export function GcSchedule({ onCleanUp = openCleanUp }: { readonly onCleanUp?: () => void }) {
  const client = useArborClient();
  const [state, setState] = useState<GcScheduleState | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let current = true;
    client.call('store.gcSchedule', {}).then(
      (result) => current && setState(result),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [client]);

  const change = (schedule: Schedule) => {
    client.call('store.gcSchedule', { schedule }).then(setState, () => setFailed(true));
  };

  return (
    <section className="forget-upkeep" aria-label="Storage clean up" data-testid="gc-schedule">
      <h3 className="stats-heading">Storage</h3>
      <div className="forget-upkeep__row">
        <label className="forget-upkeep__field">
          Clean up automatically{' '}
          <select className="text-input" data-testid="gc-schedule-select" value={state?.schedule ?? 'weekly'} disabled={state === null} onChange={(event) => change(event.target.value as Schedule)}>
            {GC_SCHEDULES.map((schedule) => (
              <option key={schedule} value={schedule}>
                {LABELS[schedule]}
              </option>
            ))}
          </select>
        </label>
        <span className="muted" data-testid="gc-last-run">
          {failed ? 'The schedule could not be read.' : state === null ? '' : lastRunText(state)}
        </span>
        <button type="button" className="secondary-button" data-testid="open-clean-up" onClick={onCleanUp}>
          Clean up…
        </button>
      </div>
    </section>
  );
}

function lastRunText(state: GcScheduleState): string {
  const last = state.lastRun === null ? 'never run yet' : `last run ${relativeTime(state.lastRun)} (${absoluteTime(state.lastRun)})`;
  return state.schedule === 'off' ? `Off: ${last}` : last;
}
