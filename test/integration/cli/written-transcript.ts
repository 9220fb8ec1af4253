/** A Claude Code transcript made with Arbor's generator: one prompt, then one step per file the agent writes. */
import { DemoSession } from '../../../electron/demo/demo-session';
import { TranscriptBuilder } from '../../../electron/demo/transcript-builder';
import { Random } from '../../../shared/random';

export function writingTranscript(cwd: string, writes: readonly (readonly [path: string, content: string])[], seed = 1014): string {
  const random = new Random(seed);
  const builder = new TranscriptBuilder({ sessionId: random.uuid(), cwd, version: '2.1.7', gitBranch: 'main', slug: 'written-files' }, random, new Date('2026-03-01T10:00:00Z'));
  const agent = new DemoSession(builder, new Map(), random, 'claude-sonnet-4-5');
  agent.prompt('Set the files up.', 1);
  for (const [path, content] of writes) agent.step({ text: `Writing ${path}.` }, [agent.write(path, content)]);
  agent.reply('Done.');
  return `${builder.take().join('\n')}\n`;
}
