/**
 * Sessions for the side-effect ledger, written with Arbor's own generators (electron/demo): a Claude Code
 * session that commits with no outcome recorded, is resumed, and commits the same again (a replay), pushes with
 * no outcome, reads a URL twice (not a replay), and publishes on a branch the user rewound away from and again
 * on the kept one (a retry); and a Codex rollout with the same commit replayed over its exec calls.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RolloutBuilder } from '../../../electron/demo/codex-rollout';
import { DemoSession } from '../../../electron/demo/demo-session';
import { encodeProjectDir } from '../../../electron/demo/synthetic';
import { TranscriptBuilder } from '../../../electron/demo/transcript-builder';
import { Random } from '../../../shared/random';

export const LEDGER_SESSION_ID = '1ed6e500-0000-4000-8000-00000000ed6e';
export const LEDGER_CODEX_ID = '019e0000-0000-7000-8000-00000000ed6e';
export const LEDGER_CWD = '/home/dev/parser';
export const COMMIT = 'git add -A && git commit -m "fix: parser keeps quoted commas"';
export const PUSH = 'git push origin main';
export const PUBLISH = 'npm publish --tag next';
export const READ_URL = 'curl -fsS https://registry.npmjs.org/parser-kit';

export interface WrittenLedgerSession {
  readonly projectsDir: string;
  /** The prompt of the branch the user rewound away from, and the kept one's. */
  readonly abandonedPrompt: string;
  readonly keptPrompt: string;
}

/** Writes the Claude Code session under `<home>/.claude/projects`. */
export function writeLedgerSession(home: string): WrittenLedgerSession {
  const random = new Random(2815);
  const scope = { sessionId: LEDGER_SESSION_ID, cwd: LEDGER_CWD, version: '2.1.39', gitBranch: 'main', slug: 'steady-ledger-heron' };
  const builder = new TranscriptBuilder(scope, random, new Date('2026-11-24T10:00:00.000Z'));
  const agent = new DemoSession(builder, new Map([['src/split.ts', 'export const split = (line: string) => line.split(",");\n']]), random, 'claude-opus-4-6');

  agent.prompt('Fix the CSV split so quoted commas stay, then commit and push.', 1);
  agent.step({ text: 'Checking what the registry has first.' }, [agent.read('src/split.ts'), agent.bash(READ_URL, 'Look up the package', '{"name":"parser-kit"}')]);
  agent.step({}, [agent.edit('src/split.ts', 'line.split(",")', 'line.match(/("[^"]*"|[^,]+)/g) ?? []')]);
  // The terminal closed while the commit ran: no result was ever written.
  agent.step({ text: 'Committing.' }, [agent.unanswered('Bash', { command: COMMIT, description: 'Commit the fix' })]);

  // `claude --resume`: the conversation goes on in the same file.
  agent.prompt('Carry on where you stopped.', 40);
  agent.step({ text: 'Committing the fix again.' }, [agent.bash(COMMIT, 'Commit the fix', '[main 4f2c1aa] fix: parser keeps quoted commas\n 1 file changed')]);
  agent.step({}, [agent.bash('git status --short', 'Check the tree', ''), agent.bash(READ_URL, 'Look up the package again', '{"name":"parser-kit"}')]);
  agent.step({ text: 'Pushing.' }, [agent.unanswered('Bash', { command: PUSH, description: 'Push main' })]);
  agent.reply('Committed and pushed (the push did not report back).');
  const forkPoint = builder.last;

  const abandonedPrompt = 'Publish it under the next tag.';
  agent.prompt(abandonedPrompt, 3);
  agent.step({ text: 'Publishing.' }, [agent.bash(PUBLISH, 'Publish', '+ parser-kit@2.0.0')]);
  agent.reply('Published parser-kit@2.0.0 under next.');

  // The user rewound to before the publish and asked again, in other words.
  builder.parentNextOn(forkPoint);
  const keptPrompt = 'Release it as next, please.';
  agent.prompt(keptPrompt, 5);
  agent.step({ text: 'Publishing.' }, [agent.bash(PUBLISH, 'Publish', '+ parser-kit@2.0.0')]);
  agent.reply('Released parser-kit@2.0.0 under next.');

  const projectsDir = join(home, '.claude', 'projects');
  const projectDir = join(projectsDir, encodeProjectDir(LEDGER_CWD));
  mkdirSync(projectDir, { recursive: true });
  writeFileSync(join(projectDir, `${LEDGER_SESSION_ID}.jsonl`), builder.take().join('\n') + '\n');
  return { projectsDir, abandonedPrompt, keptPrompt };
}

/** Writes the Codex rollout into `folder`: exec calls commit without output, then again; an MCP call creates an issue. */
export async function writeLedgerRollout(folder: string): Promise<string> {
  mkdirSync(folder, { recursive: true });
  const builder = new RolloutBuilder({ id: LEDGER_CODEX_ID, cwd: LEDGER_CWD })
    .user('Commit the parser fix and open an issue for the follow-up.')
    .command(COMMIT, null)
    .complete()
    .user('Continue.')
    .command(COMMIT, { exitCode: 0, output: '[main 4f2c1aa] fix: parser keeps quoted commas' })
    .command('git log --oneline -1', { exitCode: 0, output: '4f2c1aa fix: parser keeps quoted commas' })
    .tool('mcp__github__create_issue', { repo: 'dev/parser', title: 'Quoted newlines' }, '{"number": 7}')
    .command(PUSH, null)
    .agent('Committed; the push gave no answer.')
    .complete();
  const file = join(folder, `rollout-2026-11-30T09-00-00-${LEDGER_CODEX_ID}.jsonl`);
  await builder.write(file);
  return file;
}
