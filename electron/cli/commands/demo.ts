import { resolve } from 'node:path';
import { parseCommandArgs } from '../args';
import type { CliCommand } from '../command';

export const demoCommand: CliCommand = {
  name: 'demo',
  summary: 'Create a demo workspace and session to try Arbor on',
  usage: `Usage: arbor demo [DIR] [--json]

Writes a small demo workspace and an agent transcript that worked on it (into DIR, or a folder in
Arbor's data folder), imports the transcript, and prints where everything went.

Options:
  --json      Print {"sessionId","dir"}
  -h, --help  Show this help`,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(args, { json: { type: 'boolean' } }, { min: 0, max: 1 });
    const dir = positionals[0] === undefined ? undefined : resolve(context.io.cwd, positionals[0]);
    const service = await context.service();
    const result = await service.api['demo.create'](dir === undefined ? {} : { dir }, { signal: context.signal });
    await service.idle();
    if (values.json === true) {
      context.io.stdout(`${JSON.stringify(result)}\n`);
      return 0;
    }
    context.io.stdout(
      [
        `Demo written to ${result.dir}`,
        `Session: ${result.sessionId}`,
        '',
        `Try:  arbor tree ${result.sessionId.slice(0, 8)}`,
        '      arbor serve',
        '',
      ].join('\n'),
    );
    return 0;
  },
};
