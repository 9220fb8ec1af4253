import { resolve } from 'node:path';
import { ArborError } from '../../../shared/errors';
import { hookCommandLine, HOOK_MATCHER } from '../../hooks/hook-settings';
import { arborLauncher } from '../../hooks/launcher';
import { installHook, settingsPath, uninstallHook } from '../../hooks/settings-file';
import { parseCommandArgs } from '../args';
import { type CliCommand, UsageError } from '../command';

export const hookCommand: CliCommand = {
  name: 'hook',
  summary: 'Install or remove the Claude Code hook that snapshots after every file change',
  usage: `Usage: arbor hook install [--project DIR]
       arbor hook uninstall [--project DIR]

install    Adds a PostToolUse hook to Claude Code's settings.json that runs \`arbor snapshot --hook\`
           after each ${HOOK_MATCHER.split('|').join(', ')} call: an exact snapshot of the
           session's folder, linked to the tool call. Installing again changes nothing.
uninstall  Removes exactly what install added; other hooks and settings are kept.

The user's settings ($CLAUDE_CONFIG_DIR/settings.json, else ~/.claude/settings.json) unless --project
names a project, whose .claude/settings.json is used. A settings.json that is not valid JSON is refused.

Options:
  --project DIR  Use DIR/.claude/settings.json
  -h, --help     Show this help`,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(args, { project: { type: 'string' } }, { min: 1, max: 1 });
    const action = positionals[0];
    if (action !== 'install' && action !== 'uninstall') throw new UsageError(`unknown action ${JSON.stringify(action)} (install or uninstall)`);
    const { homeDir, dataDir } = context;
    if (homeDir === undefined || dataDir === undefined) throw new ArborError('INTERNAL', 'The CLI did not resolve the home and data folders');
    const file = settingsPath({
      homeDir,
      env: context.io.env,
      ...(values.project === undefined ? {} : { project: resolve(context.io.cwd, values.project) }),
    });
    if (action === 'install') {
      const command = hookCommandLine(arborLauncher(), dataDir);
      const { changed } = await installHook(file, command);
      context.io.stdout(changed ? `Installed Arbor's PostToolUse hook in ${file}\nIt runs: ${command}\n` : `Arbor's hook is already installed in ${file}\n`);
      return 0;
    }
    const { removed } = await uninstallHook(file);
    context.io.stdout(removed > 0 ? `Removed Arbor's PostToolUse hook from ${file}\n` : `Arbor's hook was not installed in ${file}\n`);
    return 0;
  },
};
