import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EXPORT_FORMATS, type ExportFormat, type ExportPreview, type RedactionFinding } from '../../../shared/export';
import { ArborError } from '../../../shared/errors';
import { parseCommandArgs } from '../args';
import { UsageError, type CliCommand, type CliContext } from '../command';
import { plural } from '../format';
import { findSessionId } from '../sessions';

export const exportCommand: CliCommand = {
  name: 'export',
  summary: 'Export a session, or the branch through a node, as Markdown, HTML or JSON, secrets redacted',
  usage: `Usage: arbor export SESSION|NODE [--format md|html|json] [--out FILE] [--force]
                    [--no-redact] [--redactions FILE]

SESSION (an id or a unique prefix of one) exports the branch of its latest work; NODE exports the branch
through that node, root to the branch's end, as the conversation view shows it. Subagent runs are folded in
under the calls that spawned them.

Before anything is written, every field is scanned for secrets (API keys, tokens, private keys, passwords in
URLs, environment dumps): the findings are listed on stderr, masked, and all of them are replaced by
[REDACTED:<rule>] unless --redactions names them.

Options:
  --format F         md (default), html (one self-contained file, no script) or json (format "arbor-export" v1)
  --out FILE         Write to FILE (never replaces an existing file without --force); default: stdout
  --force            Replace FILE if it exists
  --redactions FILE  A JSON list of finding ids (as listed) to leave unredacted
  --no-redact        Write every secret as it is (a warning is printed)
  -h, --help         Show this help`,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(
      args,
      { format: { type: 'string' }, out: { type: 'string' }, force: { type: 'boolean' }, 'no-redact': { type: 'boolean' }, redactions: { type: 'string' } },
      { min: 1, max: 1 },
    );
    const format = (values.format ?? 'md') as ExportFormat;
    if (!(EXPORT_FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format must be one of ${EXPORT_FORMATS.join(', ')}`);
    const noRedact = values['no-redact'] === true;
    if (noRedact && values.redactions !== undefined) throw new UsageError('--no-redact and --redactions do not go together');
    const keep = values.redactions === undefined ? [] : await readRedactions(resolve(context.io.cwd, values.redactions));
    const service = await context.service();
    const target = await resolveTarget(context, positionals[0] as string);
    const preview = await service.api['export.preview']({ target }, { signal: context.signal });
    reportFindings(context, preview, new Set(keep), noRedact);

    const out = values.out === undefined ? null : resolve(context.io.cwd, values.out);
    const scratch = out === null ? await mkdtemp(join(tmpdir(), 'arbor-export-')) : null;
    try {
      const file = out ?? join(scratch!, `export.${format}`);
      const written = await service.api['export.write']({ target, format, out: file, keep, noRedact, overwrite: values.force === true }, { signal: context.signal });
      if (out === null) {
        for await (const chunk of createReadStream(file)) context.io.stdout(chunk as Buffer);
      } else {
        context.io.stderr(`Wrote ${written.path} (${plural(written.nodes, 'step')}, ${written.bytes} bytes, ${plural(written.redacted, 'secret')} redacted)\n`);
      }
    } finally {
      if (scratch !== null) await rm(scratch, { recursive: true, force: true });
    }
    return 0;
  },
};

/** A node id is passed as it is; anything else may be a session id's prefix. */
export async function resolveTarget(context: CliContext, typed: string): Promise<string> {
  const service = await context.service();
  try {
    await service.api['nodes.get']({ nodeId: typed }, { signal: context.signal });
    return typed;
  } catch (error) {
    if (!(error instanceof ArborError && error.code === 'NOT_FOUND')) throw error;
  }
  return findSessionId(service.api, typed, context.signal);
}

async function readRedactions(path: string): Promise<string[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`--redactions ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!Array.isArray(parsed) || !parsed.every((id) => typeof id === 'string')) throw new UsageError(`--redactions ${path}: expected a JSON list of finding ids`);
  return parsed as string[];
}

function reportFindings(context: CliContext, preview: ExportPreview, keep: ReadonlySet<string>, noRedact: boolean): void {
  const { io } = context;
  if (noRedact) {
    io.stderr(`arbor: warning: exporting without redaction: ${plural(preview.findings.length, 'secret')} found will be written as they are\n`);
  }
  if (preview.findings.length === 0) {
    io.stderr('No secrets found.\n');
    return;
  }
  io.stderr(`${plural(preview.findings.length, 'secret')} found${preview.findingsCapped ? ' (more not listed, all redacted)' : ''}:\n`);
  for (const finding of preview.findings) io.stderr(`  ${findingLine(finding, noRedact || keep.has(finding.id))}\n`);
  const unknown = [...keep].filter((id) => !preview.findings.some((finding) => finding.id === id));
  if (unknown.length > 0) io.stderr(`arbor: warning: --redactions names ${plural(unknown.length, 'id')} not found: ${unknown.slice(0, 5).join(', ')}\n`);
}

function findingLine(finding: RedactionFinding, kept: boolean): string {
  const where = finding.nodeId === null ? 'title' : `${finding.nodeId.slice(0, 8)} ${finding.field}`;
  return `${kept ? 'kept    ' : 'redacted'} ${finding.id}  ${finding.rule}  ${where}: ${finding.excerpt}`;
}
