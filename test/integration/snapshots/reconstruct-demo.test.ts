/**
 * The demo session, imported through the real service, reconstructed: the main branch's last node must
 * hold exactly the files the demo left on disk, and the abandoned (rewound) branch its own edit.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoCreated } from '../../../electron/demo';
import type { ArborService } from '../../../electron/service/service-types';
import { openDemoService, type DemoService } from '../service/demo-service';
import { reconstructSession, type Reconstruction } from '../../../electron/snapshots/reconstruct';
import type { NodeSummary } from '../../../shared/model';

describe('reconstructing the demo session', () => {
    let service: ArborService;
  let demo: DemoCreated;
  let nodes: readonly NodeSummary[];
  let reconstruction: Reconstruction;

  let fixture: DemoService | undefined;

  beforeAll(async () => {
    fixture = await openDemoService('arbor-reconstruct-demo-');
    ({ service, demo, nodes } = fixture);
    reconstruction = await reconstructSession(nodes, async (id) => (await service.api['nodes.get']({ nodeId: id })).raw);
  });
  afterAll(async () => {
    await fixture?.dispose();
  });

  it('ends the main branch with the files the demo left on disk', () => {
    expect(reconstruction.touchedFiles.length).toBeGreaterThanOrEqual(5);
    const last = nodes.filter((node) => !node.sidechain).at(-1)!;
    const state = reconstruction.stateAt(last.id);
    expect(state.unknownFiles).toEqual([]);
    for (const path of reconstruction.touchedFiles) {
      expect(path.startsWith(demo.workspaceDir)).toBe(true);
      const onDisk = existsSync(path) ? readFileSync(path, 'utf8') : null;
      expect(state.files.get(path), path).toBe(onDisk);
    }
    // The demo ran `npm run build` (and its last call's outcome was never recorded): not an exact state.
    expect(state.known).toBe('unknown');
    expect(reconstruction.problems).toEqual([]);
  });

  it('gives the rewound branch its own edit, which the main branch does not have', () => {
    const format = join(demo.workspaceDir, 'src/format.ts');
    const colored = nodes.find((node) => reconstruction.changedAt(node.id).some((change) => change.path === format && String(change.after).includes('\\x1b[32m')));
    expect(colored).toBeDefined();
    const last = nodes.filter((node) => !node.sidechain).at(-1)!;
    expect(reconstruction.stateAt(colored!.id).files.get(format)).toContain('\\x1b[32m');
    expect(reconstruction.stateAt(last.id).files.get(format)).toBe(readFileSync(format, 'utf8'));
    expect(readFileSync(format, 'utf8')).not.toContain('\\x1b[32m');
    // Every file was edited before the demo's first writing command (the build after the version bump), and
    // its checks before the fork point were read-only: the abandoned branch is honestly known, every file.
    const state = reconstruction.stateAt(colored!.id);
    expect(state.known).toBe('reconstructed');
    expect(state.fileUnknownSince.size).toBe(0);
    expect([...state.files.keys()].sort()).toEqual([...reconstruction.touchedFiles].sort());
  });

  it('starts every file at its pre-session state', () => {
    const first = nodes[0]!;
    const state = reconstruction.stateAt(first.id);
    expect(state.known).toBe('reconstructed');
    expect(state.files.get(join(demo.workspaceDir, 'src/json.ts'))).toBeNull();
  });
});
