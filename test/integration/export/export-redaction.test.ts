/**
 * Redaction before anything leaves: the preview lists every planted secret (masked), the export replaces
 * them all in every format, a finding the user keeps is written as it is and only that one, and the HTML
 * file runs nothing whatever the transcript held.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportFormat, ExportPreview, ExportedDocument } from '../../../shared/export';
import { EXPORT_SESSION_ID, HOSTILE_PROMPT } from './export-session';
import { expectInert, openExportHarness, type ExportHarness } from './export-harness';

let harness: ExportHarness;
let preview: ExportPreview;
let secrets: string[];

beforeAll(async () => {
  harness = await openExportHarness('arbor-export-redaction-');
  preview = await harness.service.api['export.preview']({ target: EXPORT_SESSION_ID });
  const planted = harness.written.secrets;
  // The secrets on the session's latest branch (the npm token is on the abandoned one).
  secrets = [planted.githubToken, planted.slackToken, planted.anthropicKey, planted.databasePassword, planted.basicAuthPassword, planted.envPassword, planted.envToken, planted.privateKey.split('\n')[1]!];
}, 60_000);
afterAll(async () => harness?.close());

async function exportTo(name: string, format: ExportFormat, extra: { keep?: string[]; noRedact?: boolean; target?: string } = {}): Promise<string> {
  const out = join(harness.out, name);
  await harness.service.api['export.write']({ target: extra.target ?? EXPORT_SESSION_ID, format, out, ...extra });
  return readFileSync(out, 'utf8');
}

describe('the preview', () => {
  it('lists a finding for every planted secret, each with its rule and field, none showing the secret', () => {
    expect(preview.nodes).toBeGreaterThan(20);
    const rules = new Set(preview.findings.map((finding) => finding.rule));
    for (const rule of ['secretlint/github', 'secretlint/slack', 'secretlint/anthropic', 'secretlint/basicauth', 'secretlint/database-connection-string', 'secretlint/privatekey', 'arbor/env-secret']) expect(rules).toContain(rule);
    expect(preview.findings.find((finding) => finding.nodeId === null)?.field).toBe('title');
    const listed = JSON.stringify(preview);
    for (const secret of secrets) expect(listed).not.toContain(secret);
    expect(preview.findings.every((finding) => finding.excerpt.includes('••••'))).toBe(true);
    expect(preview.title).toBe('Deploy shipit with [REDACTED:secretlint/github]');
    expect(preview.suggestedName).toBe('deploy-shipit-with');
  });

  it('gives the same ids on a second preview (the write takes them back)', async () => {
    const again = await harness.service.api['export.preview']({ target: EXPORT_SESSION_ID });
    expect(again.findings.map((finding) => finding.id)).toEqual(preview.findings.map((finding) => finding.id));
  });
});

describe('the export', () => {
  it.each(['md', 'html', 'json'] as const)('redacts every planted secret from the %s file by default', async (format) => {
    const text = await exportTo(`all.${format}`, format);
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).toContain('[REDACTED:secretlint/privatekey]');
  });

  it('redacts paths and tool inputs in JSON too, and counts what it replaced', async () => {
    const document = JSON.parse(await exportTo('count.json', 'json')) as ExportedDocument;
    expect(document.redacted).toBe(preview.findings.length);
    const write = document.nodes.flatMap((node) => node.toolCalls).find((call) => call.name === 'Write');
    expect((write?.input as { content: string }).content).toBe('[REDACTED:secretlint/privatekey]\n');
    expect(document.nodes.flatMap((node) => node.fileEffects).map((effect) => effect.path)).toContain('/home/dev/shipit/keys/deploy_key');
  });

  it('leaves no beginning of a secret in a label cut inside it, nor in the preview excerpts', async () => {
    const planted = harness.written.secrets;
    // The secrets' own characters, past any well-known marker (ghp_, xoxb-, sk-ant-api03-).
    const bodies = [planted.githubToken.slice(4, 12), planted.slackToken.slice(5, 13), planted.anthropicKey.slice(13, 21), planted.databasePassword.slice(0, 8), planted.basicAuthPassword.slice(0, 8), planted.envPassword.slice(0, 8), planted.envToken.slice(0, 8)];
    const document = JSON.parse(await exportTo('labels.json', 'json')) as ExportedDocument;
    const labels = document.nodes.map((node) => node.label).join('\n');
    // The Bash call's label is cut at 120 characters, inside the database URL.
    expect(labels).toContain('psql [REDACTED:secretlint/database-connection-string]…');
    const excerpts = preview.findings.map((finding) => finding.excerpt).join('\n');
    for (const body of bodies) {
      expect(labels).not.toContain(body);
      expect(excerpts).not.toContain(body);
    }
  });

  it('writes a kept finding as it is, and only that one', async () => {
    const slack = preview.findings.find((finding) => finding.rule === 'secretlint/slack')!;
    const text = await exportTo('kept.md', 'md', { keep: [slack.id] });
    expect(text).toContain(harness.written.secrets.slackToken);
    for (const secret of secrets.filter((s) => s !== harness.written.secrets.slackToken)) expect(text).not.toContain(secret);
    expect(text).toContain(`${preview.findings.length - 1} secrets redacted; 1 left as they were, by choice`);
  });

  it('writes everything as it is with noRedact', async () => {
    const text = await exportTo('raw.json', 'json', { noRedact: true });
    for (const secret of secrets) expect(text).toContain(JSON.stringify(secret).slice(1, -1));
    expect((JSON.parse(text) as ExportedDocument).redacted).toBe(0);
  });

  it('exports the branch through a node of the abandoned branch, with its own secret redacted', async () => {
    const prompt = harness.graph.nodes.find((node) => node.label.startsWith(harness.written.abandonedPrompt))!;
    const document = JSON.parse(await exportTo('abandoned.json', 'json', { target: prompt.id })) as ExportedDocument;
    expect(document.branch.through).toBe(prompt.id);
    const labels = document.nodes.map((node) => node.label);
    expect(labels.some((label) => label.startsWith(harness.written.abandonedPrompt))).toBe(true);
    expect(labels.some((label) => label.startsWith(harness.written.keptPrompt))).toBe(false);
    expect(JSON.stringify(document)).not.toContain(harness.written.secrets.npmToken);
  });

  it('refuses to replace an existing file (EXISTS), and replaces it when asked', async () => {
    const out = join(harness.out, 'taken.md');
    writeFileSync(out, 'mine');
    await expect(harness.service.api['export.write']({ target: EXPORT_SESSION_ID, format: 'md', out })).rejects.toMatchObject({ code: 'EXISTS' });
    expect(readFileSync(out, 'utf8')).toBe('mine');
    await harness.service.api['export.write']({ target: EXPORT_SESSION_ID, format: 'md', out, overwrite: true });
    expect(readFileSync(out, 'utf8')).toContain('# Deploy shipit');
    expect(readdirSync(harness.out).filter((name) => name.endsWith('.partial'))).toEqual([]);
  });

  it('leaves no file when cancelled', async () => {
    const out = join(harness.out, 'cancelled.md');
    const controller = new AbortController();
    controller.abort();
    await expect(harness.service.api['export.write']({ target: EXPORT_SESSION_ID, format: 'md', out }, { signal: controller.signal })).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(harness.out).filter((name) => name.endsWith('.partial'))).toEqual([]);
  });

  it('says NOT_FOUND for a target that is neither a session nor a node', async () => {
    await expect(harness.service.api['export.preview']({ target: 'no-such-thing' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('the HTML file runs nothing', () => {
  it('has no script, no event handler attribute and no javascript: URL, and its CSP forbids scripts', async () => {
    const html = await exportTo('safe.html', 'html');
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'`);
    expectInert(html);
    // The hostile prompt is shown as text.
    expect(html).toContain('&lt;script&gt;alert(&quot;prompt&quot;)&lt;/script&gt;');
    expect(HOSTILE_PROMPT).toContain('<script>');
  });
});
