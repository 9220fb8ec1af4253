/**
 * One line of work across four sessions, written with Arbor's transcript generator (issue 13/14): a parent,
 * a fork of its first turn (`forkedFrom`), the session it continues in (`continued-in`), and a session that
 * follows the continuation (its file opens with the continuation's lines: a plan accepted, the context cleared).
 */
import { join } from 'node:path';
import { builder, editTurn, random, talkTurn, writeLines } from './lineage-fixtures';

export const PARENT = '2a7c0000-0000-4000-8000-0000000000a1';
export const FORK = '2b7c0000-0000-4000-8000-0000000000b2';
export const CONTINUATION = '2c7c0000-0000-4000-8000-0000000000c3';
export const FOLLOWER = '2d7c0000-0000-4000-8000-0000000000d4';

export function lineageFamily(options: { parentPrompt?: string } = {}) {
  const r = random(77);
  const parent = builder(r, PARENT);
  const first = editTurn(parent, options.parentPrompt ?? 'write the parser', 'parser.ts', 'export const parse = 1;\n');
  const prefix = parent.take();
  talkTurn(parent, 'and its tests?', 'Later.');
  parent.continuedIn(CONTINUATION);
  const parentLines = [...prefix, ...parent.take()];
  const fork = builder(r, FORK, { startMinutes: 20 });
  fork.forkCopies(prefix, PARENT);
  const forkOwn = editTurn(fork, 'try a streaming parser instead', 'parser.ts', 'export const parse = 2;\n', 'export const parse = 1;\n');
  const continuation = builder(r, CONTINUATION, { startMinutes: 40 });
  const continued = talkTurn(continuation, 'keep going in the background', 'Going on.');
  const follower = builder(r, FOLLOWER, { startMinutes: 60 });
  follower.withSessionId(CONTINUATION, () => talkTurn(follower, 'Implement the following plan: tests', 'On it.'));
  const followerOwn = talkTurn(follower, 'now the tests', 'Done.');
  return {
    first,
    forkOwn,
    continued,
    followerOwn,
    files: { [PARENT]: parentLines, [FORK]: fork.take(), [CONTINUATION]: continuation.take(), [FOLLOWER]: follower.take() } as Record<string, string[]>,
  };
}

/** Writes the family's files under `projects/-home-dev-app/`; returns their paths by session. */
export function writeLineageFamily(projects: string, family: ReturnType<typeof lineageFamily>, only?: readonly string[]): Record<string, string> {
  const paths: Record<string, string> = {};
  for (const [id, lines] of Object.entries(family.files)) {
    if (only !== undefined && !only.includes(id)) continue;
    paths[id] = join(projects, '-home-dev-app', `${id}.jsonl`);
    writeLines(paths[id], lines);
  }
  return paths;
}
