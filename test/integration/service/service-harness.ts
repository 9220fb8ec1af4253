/** A real service over a temp data folder, with events recorded. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createArborService } from '../../../electron/service/arbor-service';
import type { ArborService } from '../../../electron/service/service-types';
import type { ArborEvents, EventName } from '../../../shared/contract';

export interface Harness {
  readonly root: string;
  readonly projects: string;
  readonly service: ArborService;
  readonly events: { [E in EventName]: ArborEvents[E][] };
  dispose(): Promise<void>;
}

export async function openHarness(): Promise<Harness> {
  const root = mkdtempSync(join(tmpdir(), 'arbor-service-'));
  const service = await createArborService({
    dataDir: join(root, 'data'),
    host: 'web',
    version: '0.0.0-test',
    homeDir: join(root, 'home'),
    env: {},
    now: () => new Date('2026-03-01T12:00:00Z'),
  });
  const events: Harness['events'] = { 'import.progress': [], 'sessions.changed': [], 'index.progress': [], 'operation.progress': [], 'export.progress': [] };
  const disposers = (Object.keys(events) as EventName[]).map((name) =>
    service.events.on(name, (payload) => (events[name] as unknown[]).push(payload)),
  );
  return {
    root,
    projects: join(root, 'projects'),
    service,
    events,
    async dispose() {
      for (const dispose of disposers) dispose();
      await service.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
