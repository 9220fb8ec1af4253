import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { homedir } from 'node:os';
import { mergeFormatReports, type FormatReport } from '../../../shared/format-report';
import { defaultTranscriptLocations, discoverTranscripts, importerFor, type FormatChecker } from '../../importers/registry';
import { parseCommandArgs } from '../args';
import type { CliCommand } from '../command';
import { plural, table } from '../format';

export const doctorCommand: CliCommand = {
  name: 'doctor',
  summary: 'Report what of the transcripts Arbor does not understand yet',
  usage: `Usage: arbor doctor [PATH...] [--json]

Reads Claude Code transcripts and Codex rollouts (files, or folders searched for them; default: the
folders \`arbor import\` reads, e.g. ~/.claude/projects and ~/.codex/sessions), each by its own format's
doctor, and lists every record type, system subtype, content block, progress and attachment type (Codex:
line, response item, event and item type) Arbor does not model yet, with how many lines hold it, the agent
versions that wrote them and where it first appears, then the lines that could not be read. Nothing is
imported. When a new agent release changes its format, this report says exactly what Arbor missed.

Options:
  --json      Print the report as JSON: {"files","lines","bytes","unmodelled":[{category,name,lines,versions,first:{file,line}}],
              "unreadable":{"count","examples":[{file,line,reason}]},"tooLarge"}
  -h, --help  Show this help`,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } }, { min: 0, max: Infinity });
    const { io, signal } = context;
    const paths =
      positionals.length > 0
        ? positionals.map((p) => resolve(io.cwd, p))
        : await existing(defaultTranscriptLocations(context.homeDir ?? homedir(), io.env));
    // Files are claimed by content (as `arbor import` does), each checked by its format's doctor.
    const { files, problems } = await discoverTranscripts(paths, { signal });
    const doctors = new Map<string, FormatChecker>();
    const total = (await Promise.all(files.map((file) => stat(file.path).then((info) => info.size, () => 0)))).reduce((a, b) => a + b, 0);
    let done = 0;
    let lastShown = 0;
    const progress = (bytes: number): void => {
      const now = Date.now();
      if (!io.interactive || now - lastShown < 200) return;
      lastShown = now;
      io.stderr(`\r\x1b[KChecking ${percent(done + bytes, total)} of ${plural(files.length, 'transcript')}…`);
    };
    try {
      for (const file of files) {
        let read = 0;
        let doctor = doctors.get(file.format);
        if (doctor === undefined) {
          const importer = importerFor(file.format);
          if (importer === null) continue;
          doctor = importer.formatDoctor();
          doctors.set(file.format, doctor);
        }
        await doctor.checkFile(file.path, {
          signal,
          onBytes: (bytes) => {
            read = bytes;
            progress(bytes);
          },
        });
        done += read;
      }
    } finally {
      if (io.interactive && lastShown > 0) io.stderr('\r\x1b[K');
    }
    for (const problem of problems) io.stderr(`arbor: ${problem.file}: ${problem.reason}\n`);
    const report = mergeFormatReports([...doctors.values()].map((doctor) => doctor.report()));
    io.stdout(values.json === true ? `${JSON.stringify(report)}\n` : describeReport(report, io.cwd));
    return 0;
  },
};

async function existing(paths: readonly string[]): Promise<string[]> {
  const found = await Promise.all(paths.map((path) => stat(path).then(() => path, () => null)));
  return found.filter((path): path is string => path !== null);
}

function percent(done: number, total: number): string {
  return total === 0 ? '100%' : `${Math.min(100, Math.floor((done / total) * 100))}%`;
}

/** The report for a terminal; paths relative to where the command ran when they are below it. */
export function describeReport(report: FormatReport, cwd: string): string {
  const where = (file: string, line: number): string => `${file.startsWith(`${cwd}/`) ? file.slice(cwd.length + 1) : file}:${line}`;
  const lines: string[] = [
    `Checked ${plural(report.files, 'transcript')}, ${plural(report.lines, 'line')} (${formatBytes(report.bytes)}).`,
  ];
  if (report.unmodelled.length === 0) lines.push('', 'Everything in them is modelled.');
  else {
    lines.push('', `Not modelled yet (${plural(report.unmodelled.length, 'name')}):`);
    const rows = report.unmodelled.map((finding) => [
      `  ${finding.category}`,
      finding.name,
      String(finding.lines),
      finding.versions.length === 0 ? '-' : abbreviate(finding.versions),
      where(finding.first.file, finding.first.line),
    ]);
    lines.push(table(['  WHAT', 'NAME', 'LINES', 'VERSIONS', 'FIRST SEEN'], rows, [2]).trimEnd());
  }
  if (report.unreadable.count > 0) {
    lines.push('', `Lines that could not be read: ${report.unreadable.count}`);
    for (const line of report.unreadable.examples) lines.push(`  ${where(line.file, line.line)}  ${line.reason}`);
    if (report.unreadable.count > report.unreadable.examples.length) lines.push(`  … and ${report.unreadable.count - report.unreadable.examples.length} more`);
  }
  if (report.tooLarge > 0) lines.push('', `${plural(report.tooLarge, 'line')} too large to check.`);
  return `${lines.join('\n')}\n`;
}

/** Versions as `2.1.7–2.1.30 (12)` when many, else listed. */
function abbreviate(versions: readonly string[]): string {
  if (versions.length <= 3) return versions.join(', ');
  return `${versions[0]}–${versions[versions.length - 1]} (${versions.length})`;
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${Math.ceil(bytes / 1024)} KB`;
}
