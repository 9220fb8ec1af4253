/** A temp store with the export session imported (export-session.ts), for the export tests. */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { createArborService } from '../../../electron/service/arbor-service';
import type { ArborService } from '../../../electron/service/service-types';
import type { SessionGraph } from '../../../shared/model';
import { EXPORT_SESSION_ID, writeExportSession, type WrittenExportSession } from './export-session';

/** The export's clock: goldens carry this time. */
export const EXPORTED_AT = new Date('2026-12-01T12:00:00.000Z');

export interface ExportHarness {
  readonly root: string;
  readonly home: string;
  readonly dataDir: string;
  readonly out: string;
  readonly service: ArborService;
  readonly graph: SessionGraph;
  readonly written: WrittenExportSession;
  close(): Promise<void>;
}

export async function openExportHarness(prefix: string): Promise<ExportHarness> {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const home = join(root, 'home');
  const out = join(root, 'out');
  mkdirSync(out, { recursive: true });
  const written = writeExportSession(home);
  const dataDir = join(root, 'data');
  const service = await createArborService({ dataDir, host: 'cli', version: 'test', homeDir: home, env: {}, now: () => EXPORTED_AT });
  const report = await service.api['import.run']({ paths: [written.projectsDir] });
  if (report.sessions.length === 0) throw new Error(`the export session did not import: ${JSON.stringify(report.problems)}`);
  const graph = await service.api['sessions.graph']({ sessionId: EXPORT_SESSION_ID });
  return {
    root,
    home,
    dataDir,
    out,
    service,
    graph,
    written,
    async close() {
      await service.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/**
 * No element that runs or loads anything. Transcript text is escaped (`&lt;`), so every `<` left opens one of
 * the export's own tags: those are checked for event handlers and script URLs.
 */
export function expectInert(html: string): void {
  expect(html).not.toMatch(/<script/i);
  const tags = html.match(/<[a-z!][^>]*>/gi) ?? [];
  expect(tags.length).toBeGreaterThan(20);
  for (const tag of tags) {
    expect(tag).not.toMatch(/^<(iframe|object|embed|img|link|base|form|meta http-equiv="refresh")/i);
    expect(tag).not.toMatch(/\son[a-z]+\s*=/i);
    expect(tag).not.toMatch(/javascript:|vbscript:|data:text/i);
  }
}
