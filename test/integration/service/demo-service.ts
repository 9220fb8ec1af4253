/** The demo (electron/demo) imported into a real service over a temp data folder: what several suites start from. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDemo, type DemoCreated } from '../../../electron/demo';
import { createArborService } from '../../../electron/service/arbor-service';
import type { ArborService } from '../../../electron/service/service-types';
import type { NodeSummary } from '../../../shared/model';

export interface DemoService {
  readonly root: string;
  readonly demo: DemoCreated;
  readonly service: ArborService;
  /** The demo session's nodes right after the import. */
  readonly nodes: readonly NodeSummary[];
  dispose(): Promise<void>;
}

export async function openDemoService(prefix: string): Promise<DemoService> {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const demo = await createDemo(join(root, 'demo'), { now: () => new Date('2026-05-01T12:00:00.000Z') });
  const service = await createArborService({ dataDir: join(root, 'data'), host: 'cli', version: 'test', homeDir: join(root, 'home'), env: {}, now: () => new Date('2026-05-02T09:00:00.000Z') });
  await service.api['import.run']({ paths: demo.transcriptFiles });
  const nodes = (await service.api['sessions.graph']({ sessionId: demo.sessionId })).nodes;
  return {
    root,
    demo,
    service,
    nodes,
    async dispose() {
      await service.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
