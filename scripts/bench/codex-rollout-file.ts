/**
 * The benches' generated Codex rollout (bench:import's Codex case, append-profile's --codex-mb): whole turns of a
 * prompt, reasoning, a command, a patch and a reply until the file reaches its size; the builder goes on from
 * there, so an append is the rollout going on.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { RolloutBuilder, type RolloutScope } from '../../electron/demo/codex-rollout';

/** One turn of a prompt, reasoning, a command, a patch and a reply. */
function codexTurn(builder: RolloutBuilder, turn: number): void {
  const body = `line ${turn} of the output `.repeat(20);
  builder
    .user(`Turn ${turn}: fix the failing test in module ${turn % 97}`)
    .reasoning(`Look at module ${turn % 97} first; the weekday is read in local time.`)
    .command(`npm test -- module-${turn % 97}`, { exitCode: turn % 5 === 0 ? 1 : 0, output: `${body}\n`.repeat(8) })
    .patch(`src/module-${turn % 97}.ts`, `return d.getDay(); // ${turn}`, `return d.getUTCDay(); // ${turn}`, turn % 7 !== 0)
    .agent(`Turn ${turn} done: the weekday is read in UTC in module ${turn % 97}.`)
    .complete();
}

/** Whole turns from `from` on until at least `lines` lines are written. */
export function codexTurns(builder: RolloutBuilder, from: number, lines: number): string[] {
  const taken: string[] = [];
  for (let turn = from; taken.length < lines; turn++) {
    codexTurn(builder, turn);
    taken.push(...builder.drain());
  }
  return taken;
}

/** Turns until the file reaches `targetBytes`; the builder goes on from there (an append). */
export async function writeCodexRollout(file: string, scope: RolloutScope, targetBytes: number): Promise<RolloutBuilder> {
  const out = createWriteStream(file);
  const builder = new RolloutBuilder(scope);
  let written = 0;
  for (let turn = 0; written < targetBytes; turn++) {
    codexTurn(builder, turn);
    const text = builder.drain().map((line) => `${line}\n`).join('');
    written += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return builder;
}
