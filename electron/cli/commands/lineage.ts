import { basename, resolve } from 'node:path';
import type { ProjectLineage } from '../../../shared/project-lineage';
import { agentName, edgeVerb, lineageRows } from '../../../shared/project-lineage';
import { projectOf } from '../../service/project-lineage';
import { parseCommandArgs } from '../args';
import { UsageError, type CliCommand } from '../command';
import { formatDate, oneLine, plural } from '../format';

export const lineageCommand: CliCommand = {
  name: 'lineage',
  summary: "Print a project's sessions as one tree of forks and continuations",
  usage: `Usage: arbor lineage [PROJECT] [--json]

Prints every session of PROJECT (its folder, as \`arbor ls\` groups them; a folder name or a path works too),
Claude Code and Codex alike, as one tree: each session under the one it was forked from, continues or follows.
Without PROJECT, every project is printed.

Options:
  --json      Print {"projects":[{project,sessions:[…],edges:[{kind,earlierId,laterId,nodeId}]}]}
  -h, --help  Show this help`,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } }, { min: 0, max: 1 });
    const service = await context.service();
    const listed = await service.api['sessions.list']({ limit: 100_000 }, { signal: context.signal });
    const projects = [...new Set(listed.sessions.map(projectOf))].sort();
    const wanted = positionals[0] === undefined ? projects : [projectNamed(projects, positionals[0])];
    const lineages: ProjectLineage[] = [];
    for (const project of wanted) lineages.push(await service.api['sessions.projectLineage']({ project }, { signal: context.signal }));
    context.io.stdout(values.json === true ? `${JSON.stringify({ projects: lineages })}\n` : lineages.map(describeLineage).join('\n'));
    return 0;
  },
};

/** The project key `name` means: itself, the absolute path it names, or the one project whose folder is named so. */
function projectNamed(projects: readonly string[], name: string): string {
  if (projects.includes(name)) return name;
  const absolute = resolve(name);
  if (projects.includes(absolute)) return absolute;
  const named = projects.filter((project) => basename(project) === name);
  if (named.length === 1) return named[0]!;
  if (named.length > 1) throw new UsageError(`${name} names ${named.length} projects: ${named.join(', ')}`);
  throw new UsageError(`no project ${name} (arbor ls lists them)`);
}

export function describeLineage(lineage: ProjectLineage): string {
  const lines = [`${lineage.project}  (${plural(lineage.sessions.length, 'session')}, ${plural(lineage.edges.length, 'link')})`];
  for (const row of lineageRows(lineage)) {
    const session = row.session;
    const via = row.via === null ? '' : `${edgeVerb(row.via.kind)}: `;
    const indent = row.depth === 0 ? '' : `${'   '.repeat(row.depth - 1)}└─ `;
    const facts = `${agentName(session.source)}, ${plural(session.nodeCount, 'step')}, ${formatDate(session.lastActivityAt ?? session.updatedAt)}`;
    lines.push(`  ${indent}${via}${oneLine(session.title, 70)}  [${session.id.slice(0, 8)}] ${facts}`);
  }
  return `${lines.join('\n')}\n`;
}
