/**
 * `sessions.projectLineage` and `arbor lineage` (issue 14): every session of one folder, Claude Code and Codex, as
 * one graph of lineage — forks, continuations and followers as edges between session cards.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lineageRows } from '../../../shared/project-lineage';
import { runCliCaptured } from '../cli/run-cli';
import { CONTINUATION, FOLLOWER, FORK, PARENT } from '../import/lineage-family';
import { CWD } from '../import/lineage-fixtures';
import { openHarness, type Harness } from '../service/service-harness';
import { CODEX_FORK, CODEX_SOURCE, writeProjectFamily } from './project-family';

let h: Harness;
beforeEach(async () => {
  h = await openHarness();
});
afterEach(async () => {
  await h.dispose();
});

describe('a project lineage', () => {
  it('holds every session of the folder across agents, joined by fork, continues and follows edges', async () => {
    const written = writeProjectFamily(h.root);
    const report = await h.service.api['import.run']({ paths: [written.projects, written.codex] });
    expect(report.problems).toEqual([]);
    const lineage = await h.service.api['sessions.projectLineage']({ project: CWD });
    expect(lineage.sessions.map((session) => session.id).sort()).toEqual([PARENT, FORK, CONTINUATION, FOLLOWER, CODEX_SOURCE, CODEX_FORK].sort());
    expect(new Set(lineage.sessions.map((session) => session.source))).toEqual(new Set(['claude-code', 'codex']));
    const edges = lineage.edges.map((edge) => [edge.kind, edge.earlierId, edge.laterId]).sort();
    expect(edges).toEqual(
      [
        ['fork', PARENT, FORK],
        ['continues', PARENT, CONTINUATION],
        ['follows', CONTINUATION, FOLLOWER],
        ['fork', CODEX_SOURCE, CODEX_FORK],
      ].sort(),
    );
    // A fork's edge names its fork point: the step its card opens at.
    expect(lineage.edges.find((edge) => edge.laterId === CODEX_FORK)?.nodeId).toMatch(new RegExp(`^${CODEX_SOURCE}:`));

    const rows = lineageRows(lineage).map((row) => [row.session.id, row.depth]);
    expect(rows).toEqual([
      [PARENT, 0],
      [FORK, 1],
      [CONTINUATION, 1],
      [FOLLOWER, 2],
      [CODEX_SOURCE, 0],
      [CODEX_FORK, 1],
    ]);

    const other = await h.service.api['sessions.projectLineage']({ project: '/no/such/folder' });
    expect(other).toEqual({ project: '/no/such/folder', sessions: [], edges: [] });
  });

  it('`arbor lineage` prints the same tree as text, and as JSON', async () => {
    const root = mkdtempSync(join(tmpdir(), 'arbor-cli-lineage-'));
    try {
      const written = writeProjectFamily(root);
      const where = { cwd: root, homeDir: join(root, 'home'), env: { ARBOR_DATA_DIR: join(root, 'data') } };
      expect((await runCliCaptured(['import', written.projects, written.codex], where)).code).toBe(0);
      const text = await runCliCaptured(['lineage', 'app'], where);
      expect(text.code).toBe(0);
      const lines = text.stdout.trimEnd().split('\n');
      expect(lines[0]).toBe(`${CWD}  (6 sessions, 4 links)`);
      expect(lines.slice(1).map((line) => /\[([0-9a-f]{8})\]/.exec(line)?.[1])).toEqual([PARENT, FORK, CONTINUATION, FOLLOWER, CODEX_SOURCE, CODEX_FORK].map((id) => id.slice(0, 8)));
      expect(lines[2]).toMatch(/^ {2}└─ fork: try a streaming parser instead .*Claude Code/);
      expect(lines[4]).toMatch(/^ {5}└─ follows: /);
      expect(lines[6]).toMatch(/^ {2}└─ fork: Try it with nom instead .*Codex/);

      const json = await runCliCaptured(['lineage', CWD, '--json'], where);
      const parsed = JSON.parse(json.stdout) as { projects: { project: string; edges: unknown[] }[] };
      expect(parsed.projects.map((project) => [project.project, project.edges.length])).toEqual([[CWD, 4]]);

      const missing = await runCliCaptured(['lineage', 'nowhere'], where);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('no project nowhere');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
