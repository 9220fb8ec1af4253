/**
 * A long branch exports a page of details at a time (never all of them at once), reports progress, and stops
 * between pages when cancelled, leaving no file.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXPORT_PAGE, type ExportSource } from '../../../../electron/export/export-source';
import { writeExport } from '../../../../electron/export/run-export';
import { envSecretHits } from '../../../../electron/export/secret-scan';
import { ArborError } from '../../../../shared/errors';
import type { ExportProgress, ExportedDocument } from '../../../../shared/export';
import type { NodeDetail, NodeSummary, SessionGraph } from '../../../../shared/model';

const COUNT = 2_500;
let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function chain(count: number): { source: ExportSource; asked: number[] } {
  const nodes: NodeSummary[] = Array.from({ length: count }, (_, i) => ({
    id: `n${i}`, sessionId: 's', sourceId: `n${i}`, parentSourceId: i === 0 ? null : `n${i - 1}`, parentId: i === 0 ? null : `n${i - 1}`,
    extraEdges: [], kind: i % 2 === 0 ? 'user' : 'assistant', timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    label: `step ${i}`, toolCalls: [], sidechain: false, agentId: null, model: null,
  }));
  const graph: SessionGraph = {
    session: { id: 's', source: 'claude-code', title: 'long', project: null, startedAt: null, updatedAt: null, nodeCount: count, fileCount: 1, branchCount: 0 },
    nodes,
  };
  const asked: number[] = [];
  const detail = (node: NodeSummary): NodeDetail => ({
    node, blocks: [{ type: 'text', text: node.id === 'n7' ? 'API_TOKEN=abcdef123456' : `text of ${node.id}` }], toolCalls: [], usage: null,
    cwd: null, gitBranch: null, version: null, file: 'f', line: 1, raw: '', rawTruncatedAt: null, records: [],
  });
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const source: ExportSource = {
    graph: async (sessionId) => {
      if (sessionId !== 's') throw new ArborError('NOT_FOUND', 'no');
      return graph;
    },
    details: async (ids) => {
      asked.push(ids.length);
      return ids.map((id) => detail(byId.get(id)!));
    },
    sessionOfNode: async (id) => (byId.has(id) ? 's' : null),
  };
  return { source, asked };
}

const scanner = async (text: string) => envSecretHits(text);

describe('a long branch', () => {
  it(`reads its details ${EXPORT_PAGE} at a time and reports progress`, async () => {
    dir = mkdtempSync(join(tmpdir(), 'arbor-export-pages-'));
    const { source, asked } = chain(COUNT);
    const progress: ExportProgress[] = [];
    const out = join(dir, 'long.json');
    const written = await writeExport(source, { target: 's', format: 'json', out }, { arborVersion: 't', scanner, onProgress: (p) => progress.push(p) });
    expect(written.nodes).toBe(COUNT);
    expect(Math.max(...asked)).toBe(EXPORT_PAGE);
    expect(asked.reduce((a, b) => a + b, 0)).toBe(COUNT);
    expect(progress.at(-1)).toEqual({ target: 's', phase: 'write', done: COUNT, total: COUNT });
    const document = JSON.parse(readFileSync(out, 'utf8')) as ExportedDocument;
    expect(document.nodes).toHaveLength(COUNT);
    expect(document.nodes[7]!.blocks).toEqual([{ type: 'text', text: 'API_TOKEN=[REDACTED:arbor/env-secret]' }]);
    expect(written.redacted).toBe(1);
  });

  it('stops between pages when cancelled and leaves no file', async () => {
    dir = mkdtempSync(join(tmpdir(), 'arbor-export-pages-'));
    const { source } = chain(COUNT);
    const controller = new AbortController();
    const out = join(dir, 'long.md');
    const run = writeExport(source, { target: 's', format: 'md', out }, { arborVersion: 't', scanner, signal: controller.signal, onProgress: (p) => p.done >= EXPORT_PAGE * 2 && controller.abort() });
    await expect(run).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });
});
