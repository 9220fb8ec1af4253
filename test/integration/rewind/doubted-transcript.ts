/**
 * A Claude Code transcript made with Arbor's generator in which, at one step, one file's replay is only in
 * doubt and another's is known to be stale:
 * - `doubt.txt` is written, then `npm run format` runs (it may have changed any file), then it is edited;
 * - `stale.txt` is written, then changed by hand outside the session, then edited: that edit read the hand's
 *   contents, so the replay between the write and the edit is known to be stale.
 * The step is the shell command's result; the workspace files are as the session left them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DemoSession } from '../../../electron/demo/demo-session';
import { TranscriptBuilder } from '../../../electron/demo/transcript-builder';
import { Random } from '../../../shared/random';

export interface DoubtedSession {
  readonly transcript: string;
  /** What the replay says at the shell command's result. */
  readonly atCommand: { readonly doubt: string; readonly stale: string };
}

export function writeDoubtedSession(transcriptPath: string, workspace: string, seed = 1010): DoubtedSession {
  const random = new Random(seed);
  const builder = new TranscriptBuilder({ sessionId: random.uuid(), cwd: workspace, version: '2.1.7', gitBranch: 'main', slug: 'doubted-files' }, random, new Date('2026-03-01T10:00:00Z'));
  const agent = new DemoSession(builder, new Map(), random, 'claude-sonnet-4-5');
  agent.prompt('Set the files up and format them.', 1);
  agent.step({ text: 'Writing the files.' }, [agent.write('stale.txt', 'stale one\n')]);
  agent.step({}, [agent.write('doubt.txt', 'doubt one\n')]);
  agent.step({ text: 'Formatting.' }, [agent.bash('npm run format', 'Format the files', '\n> format\n> prettier --write .\n')]);
  // The user edits stale.txt by hand; the next Edit's recorded pre-state shows it.
  agent.files.set('stale.txt', 'stale by hand\n');
  agent.step({ text: 'Updating both.' }, [agent.edit('stale.txt', 'stale by hand', 'stale two'), agent.edit('doubt.txt', 'doubt one', 'doubt two')]);
  agent.reply('Done.');
  mkdirSync(join(transcriptPath, '..'), { recursive: true });
  writeFileSync(transcriptPath, `${builder.take().join('\n')}\n`);
  mkdirSync(workspace, { recursive: true });
  for (const [path, content] of agent.files) writeFileSync(join(workspace, path), content);
  return { transcript: transcriptPath, atCommand: { doubt: 'doubt one\n', stale: 'stale one\n' } };
}
