/** The background gc's schedule: stored in the store's meta by `arbor gc --schedule`, and run by the host when due. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createArborService } from '../../../electron/service/arbor-service';
import { startScheduledGc } from '../../../electron/service/gc-schedule-runner';
import type { GcReport, GcScheduleState } from '../../../shared/forget';
import { runCliCaptured, type Run } from '../cli/run-cli';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-gc-schedule-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function cli(args: string[]): Promise<Run> {
  return runCliCaptured(['--data-dir', join(root, 'data'), ...args], { cwd: root, homeDir: root });
}

describe('arbor gc --schedule', () => {
  it('stores the schedule, refuses an unknown one (exit 2), and says when the next run is', async () => {
    const set = await cli(['gc', '--schedule', 'daily', '--json']);
    expect(set.code, set.stderr).toBe(0);
    expect((JSON.parse(set.stdout) as GcScheduleState).schedule).toBe('daily');
    const off = await cli(['gc', '--schedule', 'off']);
    expect(off.stdout).toBe('gc runs never\n');
    expect((await cli(['gc', '--schedule', 'hourly'])).code).toBe(2);
  });

  it('runs gc when due, then not again until a period has passed; off never runs', async () => {
    let clock = new Date('2026-12-01T00:00:00Z');
    const service = await createArborService({ dataDir: join(root, 'data'), homeDir: root, env: {}, host: 'cli', version: 'test', now: () => clock });
    try {
      const reports: GcReport[] = [];
      const wrapped = {
        'store.gc': service.api['store.gc'],
        'store.gcSchedule': service.api['store.gcSchedule'],
      };
      const runner = startScheduledGc(wrapped, { now: () => clock, checkMs: 3_600_000, onReport: (r) => reports.push(r), onError: (error) => reports.push({ problems: [String(error)] } as unknown as GcReport) });
      await service.api['store.gcSchedule']({ schedule: 'daily' });
      await runner.check();
      expect(reports).toHaveLength(1);
      await runner.check();
      expect(reports).toHaveLength(1);
      const state = await service.api['store.gcSchedule']({});
      expect(state.lastRun).not.toBeNull();
      clock = new Date(Date.parse(state.nextRun!) + 1);
      await runner.check();
      expect(reports).toHaveLength(2);
      await service.api['store.gcSchedule']({ schedule: 'off' });
      clock = new Date(clock.getTime() + 30 * 86_400_000);
      await runner.check();
      expect(reports).toHaveLength(2);
      runner.stop();
    } finally {
      await service.close();
    }
  });
});
