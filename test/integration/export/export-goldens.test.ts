/**
 * Golden files of the three export formats, made from the generated export session (export-session.ts) and
 * compared byte for byte. Regenerate them with `node scripts/update-export-goldens.cjs` after a deliberate change,
 * and read the diff.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportFormat } from '../../../shared/export';
import { EXPORT_SESSION_ID } from './export-session';
import { expectInert, openExportHarness, type ExportHarness } from './export-harness';

const GOLDENS = join(__dirname, 'goldens');
const UPDATE = process.env.ARBOR_UPDATE_GOLDENS === '1';
let harness: ExportHarness;

beforeAll(async () => {
  harness = await openExportHarness('arbor-export-goldens-');
}, 60_000);
afterAll(async () => harness?.close());

async function exported(target: string, format: ExportFormat, name: string): Promise<string> {
  const out = join(harness.out, `${name}.${format}`);
  await harness.service.api['export.write']({ target, format, out });
  return readFileSync(out, 'utf8');
}

function matchesGolden(text: string, file: string): void {
  const golden = join(GOLDENS, file);
  if (UPDATE) writeFileSync(golden, text);
  expect(existsSync(golden), `${file} is missing: run node scripts/update-export-goldens.cjs`).toBe(true);
  // Byte for byte: a difference shows as a text diff.
  expect(text).toBe(readFileSync(golden, 'utf8'));
}

describe('export goldens (the generated session, redacted by default)', () => {
  for (const format of ['md', 'html', 'json'] as const) {
    it(`the session as ${format}`, async () => {
      const text = await exported(EXPORT_SESSION_ID, format, 'session');
      if (format === 'html') expectInert(text);
      matchesGolden(text, `session.${format}`);
    });
  }

  it('the abandoned branch, through its prompt, as md', async () => {
    const prompt = harness.graph.nodes.find((node) => node.kind === 'user' && node.label.startsWith(harness.written.abandonedPrompt));
    expect(prompt).toBeDefined();
    matchesGolden(await exported(prompt!.id, 'md', 'abandoned'), 'abandoned-branch.md');
  });
});
