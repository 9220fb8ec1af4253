/**
 * The two export operations: the preview (what the export holds and every secret found in it) and the write
 * (the redacted export streamed into a file beside its destination, then moved into place: a cancelled or
 * failed export leaves nothing, and an existing file is replaced only when asked).
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { link, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ArborError, CancelledError, throwIfAborted } from '../../shared/errors';
import { PREVIEW_FINDINGS_MAX, type ExportPreview, type ExportProgress, type ExportWriteRequest, type ExportWritten, type RedactionFinding } from '../../shared/export';
import { exportWriter } from './export-writer';
import { redactedPages, redactedTitle, resolveExport, type ExportSource } from './export-source';
import { createSecretScanner, type SecretScanner } from './secret-scan';
import { exportLedger } from './export-ledger';

export interface ExportOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: ExportProgress) => void;
  readonly now?: () => Date;
  readonly arborVersion: string;
  /** Where the preview suggests writing (the user's home; its Downloads when there is one). */
  readonly homeDir?: string;
  /** Tests may inject a scanner; by default secretlint's recommended set plus Arbor's rules. */
  readonly scanner?: SecretScanner;
}

export async function previewExport(source: ExportSource, target: string, options: ExportOptions): Promise<ExportPreview> {
  const resolved = await resolveExport(source, target, options.signal);
  const scan = options.scanner ?? (await createSecretScanner());
  const title = await redactedTitle(resolved.session.title, scan, () => true);
  const findings: RedactionFinding[] = [...title.findings];
  let capped = false;
  let nodes = 0;
  const total = resolved.steps.length;
  const onProgress = (done: number) => options.onProgress?.({ target, phase: 'scan', done, total });
  for await (const page of redactedPages(source, resolved, scan, () => true, { signal: options.signal, onProgress })) {
    nodes += page.nodes.length;
    for (const finding of page.findings) {
      if (findings.length < PREVIEW_FINDINGS_MAX) findings.push(finding);
      else capped = true;
    }
  }
  return {
    sessionId: resolved.session.id,
    title: title.title,
    headNodeId: resolved.head,
    nodes,
    findings,
    findingsCapped: capped,
    suggestedName: fileNameOf(title.title, resolved.session.id),
    suggestedDir: await suggestedDir(options.homeDir),
  };
}

export async function writeExport(source: ExportSource, request: ExportWriteRequest, options: ExportOptions): Promise<ExportWritten> {
  const { out, format } = request;
  if (request.overwrite !== true && (await exists(out))) throw existsError(out);
  const resolved = await resolveExport(source, request.target, options.signal);
  const scan = options.scanner ?? (await createSecretScanner());
  const keep = new Set(request.keep ?? []);
  // Each finding counted once, however many texts it is replaced in (a label repeats its node's secrets).
  const decided = new Map<string, boolean>();
  const redact = (finding: RedactionFinding): boolean => {
    const yes = request.noRedact !== true && !keep.has(finding.id);
    decided.set(finding.id, yes);
    return yes;
  };
  const count = (yes: boolean): number => [...decided.values()].filter((value) => value === yes).length;
  const writer = exportWriter(format);
  const partial = join(dirname(out), `.${basename(out)}.${randomBytes(4).toString('hex')}.partial`);
  const file = await openFile(partial);
  let bytes = 0;
  const write = async (text: string): Promise<void> => {
    if (text === '') return;
    bytes += Buffer.byteLength(text);
    if (!file.write(text)) await new Promise<void>((resolve) => file.once('drain', resolve));
  };
  let nodes = 0;
  try {
    const title = await redactedTitle(resolved.session.title, scan, redact);
    await write(
      writer.head({
        session: { ...resolved.session, title: title.title },
        head: resolved.head,
        through: resolved.through,
        links: resolved.graph.session.links ?? [],
        nodes: resolved.steps.length,
        exportedAt: (options.now ?? (() => new Date()))().toISOString(),
        arborVersion: options.arborVersion,
      }),
    );
    const total = resolved.steps.length;
    const onProgress = (done: number) => options.onProgress?.({ target: request.target, phase: 'write', done, total });
    const ledger = exportLedger(resolved);
    for await (const page of redactedPages(source, resolved, scan, redact, { signal: options.signal, onProgress })) {
      nodes += page.nodes.length;
      ledger.add(page);
      await write(writer.nodes(page.nodes));
    }
    throwIfAborted(options.signal);
    await write(writer.tail({ redacted: count(true), kept: count(false), noRedact: request.noRedact === true, sideEffects: ledger.entries() }));
    await closeFile(file);
    await moveIntoPlace(partial, out, request.overwrite === true);
  } catch (error) {
    file.destroy();
    await unlink(partial).catch(() => undefined);
    throw error instanceof ArborError || error instanceof CancelledError ? error : new ArborError('IO', `Cannot write ${out}: ${String(error)}`, { path: out });
  }
  return { path: out, format, bytes, nodes, redacted: count(true), kept: count(false) };
}

function openFile(path: string): Promise<WriteStream> {
  return new Promise((resolve, reject) => {
    const file = createWriteStream(path, { flags: 'wx', mode: 0o600 });
    file.once('open', () => resolve(file));
    file.once('error', (error) => reject(new ArborError('IO', `Cannot write in ${dirname(path)}: ${error.message}`, { path })));
  });
}

function closeFile(file: WriteStream): Promise<void> {
  return new Promise((resolve, reject) => {
    file.once('error', reject);
    file.end(() => resolve());
  });
}

/** link(2) fails when the destination exists, so a file that appeared meanwhile is not replaced either. */
async function moveIntoPlace(partial: string, out: string, overwrite: boolean): Promise<void> {
  if (overwrite) {
    await rename(partial, out);
    return;
  }
  try {
    await link(partial, out);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw existsError(out);
    throw error;
  }
  await unlink(partial);
}

function existsError(path: string): ArborError {
  return new ArborError('EXISTS', `${path} already exists (export again with overwrite to replace it)`, { path });
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** A file name from the title: words and dashes only, at most 60 characters, else the session id. */
export function fileNameOf(title: string, sessionId: string): string {
  const words = title
    .normalize('NFKD')
    .replace(/\[REDACTED:[^\]]*\]/g, ' ')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase()
    .slice(0, 60)
    .replace(/-+$/, '');
  return words === '' ? `session-${sessionId.slice(0, 8)}` : words;
}

async function suggestedDir(homeDir: string | undefined): Promise<string> {
  if (homeDir === undefined) return '';
  const downloads = join(homeDir, 'Downloads');
  return (await stat(downloads).then((info) => info.isDirectory(), () => false)) ? downloads : homeDir;
}
