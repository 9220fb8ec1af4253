/**
 * Live tail through the real service: a transcript growing in the default location (watched), a new session
 * file appearing there, and a transcript imported from elsewhere (polled) each reach `sessions.changed` with
 * their new nodes, fast. Latencies are printed; the assertions leave room for a loaded machine.
 */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createArborService } from '../../../electron/service/arbor-service';
import type { LiveTail } from '../../../electron/service/live-tail';
import type { ArborService } from '../../../electron/service/service-types';
import { jsonl, prompt, reply, toolCall, toolResult, writeTranscript } from '../service/claude-lines';

const SESSION = 'a11ce000-0000-4000-8000-00000000000a';
const OTHER = 'b0b00000-0000-4000-8000-00000000000b';
const ELSEWHERE = 'c0c00000-0000-4000-8000-00000000000c';

let root: string;
let home: string;
let service: ArborService;
let tail: LiveTail | undefined;

const projects = (): string => join(home, '.claude', 'projects', '-repo');

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'arbor-live-tail-'));
  home = join(root, 'home');
  writeTranscript(join(projects(), `${SESSION}.jsonl`), [prompt('u1', null, 'Start', SESSION, 0), reply('a1', 'u1', 'Hello', SESSION, 1)]);
  writeTranscript(join(root, 'elsewhere', `${ELSEWHERE}.jsonl`), [prompt('e1', null, 'Imported by path', ELSEWHERE, 0)]);
  service = await createArborService({ dataDir: join(root, 'data'), host: 'cli', version: 'test', homeDir: home, env: {} });
  await service.api['import.run']({});
  await service.api['import.run']({ paths: [join(root, 'elsewhere')] });
});
afterEach(async () => {
  await tail?.stop();
  tail = undefined;
});
afterAll(async () => {
  await service?.close();
  rmSync(root, { recursive: true, force: true });
});

/** Resolves with the latency once `sessions.changed` names the session and its graph holds `nodes` nodes. */
function changeOf(sessionId: string, nodes: number, since: () => number): Promise<number> {
  return new Promise((resolve) => {
    const stop = service.events.on('sessions.changed', ({ sessionIds }) => {
      if (!sessionIds.includes(sessionId)) return;
      void service.api['sessions.graph']({ sessionId }).then((graph) => {
        if (graph.nodes.length < nodes) return;
        stop();
        resolve(performance.now() - since());
      });
    });
  });
}

describe('live tail', () => {
  it('imports lines appended to a watched transcript within a second', { timeout: 15_000 }, async () => {
    tail = service.tail();
    await tail.ready;
    let appendedAt = 0;
    const changed = changeOf(SESSION, 4, () => appendedAt);
    appendedAt = performance.now();
    appendFileSync(
      join(projects(), `${SESSION}.jsonl`),
      jsonl([toolCall('a2', 'a1', 'toolu_live_1', 'Bash', { command: 'make' }, SESSION, 2), toolResult('r2', 'a2', 'toolu_live_1', 'ok', { session: SESSION, at: 3 })]),
    );
    const latency = await changed;
    console.log(`live tail latency (watched transcript): ${latency.toFixed(0)} ms`);
    expect(latency).toBeLessThan(3000);
    const graph = await service.api['sessions.graph']({ sessionId: SESSION });
    expect(graph.nodes.map((node) => node.sourceId)).toEqual(['u1', 'a1', 'a2', 'r2']);
  });

  it('imports a new session file that appears in the watched location', { timeout: 15_000 }, async () => {
    tail = service.tail();
    await tail.ready;
    let writtenAt = 0;
    const changed = changeOf(OTHER, 2, () => writtenAt);
    writtenAt = performance.now();
    writeTranscript(join(home, '.claude', 'projects', '-other', `${OTHER}.jsonl`), [prompt('o1', null, 'New', OTHER, 0), reply('o2', 'o1', 'Hi', OTHER, 1)]);
    const latency = await changed;
    console.log(`live tail latency (new session file in a new project folder): ${latency.toFixed(0)} ms`);
    expect(latency).toBeLessThan(3000);
    expect((await service.api['sessions.list']({})).sessions.map((session) => session.id)).toContain(OTHER);
  });

  it('polls a transcript imported from outside the watched locations', { timeout: 15_000 }, async () => {
    tail = service.tail();
    await tail.ready;
    let appendedAt = 0;
    const changed = changeOf(ELSEWHERE, 2, () => appendedAt);
    appendedAt = performance.now();
    appendFileSync(join(root, 'elsewhere', `${ELSEWHERE}.jsonl`), jsonl([reply('e2', 'e1', 'Polled', ELSEWHERE, 1)]));
    const latency = await changed;
    console.log(`live tail latency (polled transcript): ${latency.toFixed(0)} ms`);
    expect(latency).toBeLessThan(3000);
  });

  it('stops: nothing is imported after stop()', { timeout: 15_000 }, async () => {
    tail = service.tail();
    await tail.ready;
    await tail.stop();
    let changes = 0;
    const off = service.events.on('sessions.changed', () => void changes++);
    appendFileSync(join(projects(), `${SESSION}.jsonl`), jsonl([reply('a3', 'r2', 'After stop', SESSION, 4)]));
    await new Promise((resolve) => setTimeout(resolve, 1200));
    off();
    expect(changes).toBe(0);
    expect((await service.api['sessions.graph']({ sessionId: SESSION })).nodes).toHaveLength(4);
  });
});
