import type { MergeContinued } from '../../../shared/operations';
import { parseCommandArgs } from '../args';
import type { CliCommand } from '../command';

export const continueMergeCommand: CliCommand = {
  name: 'continue-merge',
  summary: 'Resume the agent in a merged folder: ours\u2019 conversation plus a summary of theirs',
  usage: `Usage: arbor continue-merge OPERATION [--json]

After \`arbor merge\` (or Apply in the merge view) merged two branches' files, writes a resumable transcript
for the merged folder: ours' conversation, exactly as a fork from ours' node would have it, followed by one
block, marked as Arbor's merge summary, that tells the agent what theirs did since the fork point (its
prompts, the assistant's conclusions, the files it changed) and how the merge settled each file (clean, or
a conflict resolved with ours, theirs or by hand). Prints the command that resumes it. The continuation is
a new branch below the merge node; \`arbor forks remove\` removes it (the merged folder stays).
OPERATION is the merge's operation id (\`arbor merge\` prints it; \`arbor operations\` lists them).

Options:
  --json      Print {"operation","mergeNode","branch","fork","dir","resume","resumeSessionId","transcript","summaryNode","warnings"}
  -h, --help  Show this help

Exit status: 0 written, 1 when the merge is unknown, was undone, or ours has no conversation to resume.`,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } }, { min: 1, max: 1 });
    const service = await context.service();
    const continued = await service.api['merge.continue']({ operation: positionals[0] as string }, { signal: context.signal });
    context.io.stdout(values.json === true ? `${JSON.stringify(continued)}\n` : describeContinued(continued));
    return 0;
  },
};

export function describeContinued(continued: MergeContinued): string {
  const lines = [
    `Transcript: ${continued.transcript}`,
    `Branch:     ${continued.branch} (below merge node ${continued.mergeNode})`,
    ...continued.warnings.map((warning) => `Warning: ${warning}`),
    `Resume:     cd ${JSON.stringify(continued.dir)} && ${continued.resume}`,
  ];
  return `${lines.join('\n')}\n`;
}

