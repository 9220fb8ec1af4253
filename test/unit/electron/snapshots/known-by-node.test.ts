/**
 * Reconstruction.knownByNode (known-by-node.ts): how every node is known, as a view over the reconstruction's marks.
 * It was a new Map of every node for each `sessions.states`, copied at once into the answer: one more structure of
 * every node (370k entries on a 1 GB session) at the moment the answer is made.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { reconstructSession } from '../../../../electron/snapshots/reconstruct';
import { Session } from './session-builder';

describe('knownByNode', () => {
  it('answers for every node in transcript order without a map of every node', async () => {
    const session = new Session();
    let parent = session.prompt('p0', null);
    for (let i = 1; i < 50_000; i++) parent = session.prompt(`p${i}`, parent);
    parent = session.tool('bash', parent, 'Bash', { command: 'make' }, { value: { stdout: '' } });
    session.prompt('after', parent);
    const reconstruction = await reconstructSession(session.nodes, (id) => session.raws.get(id) ?? null);
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const before = process.memoryUsage().heapUsed;
    const known = reconstruction.knownByNode();
    gc();
    // A Map of 50k entries is ~2 MB; the view is a few objects.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(300_000);
    expect(known.size).toBe(session.nodes.length);
    expect([...known.keys()].slice(0, 3)).toEqual(['p0', 'p1', 'p2']);
    expect(known.get('p7')).toBe('reconstructed');
    expect(known.get('after')).toBe('unknown');
    expect(known.get('nowhere')).toBeUndefined();
    expect(known.has('bash.r')).toBe(true);
    const seen: [string, string][] = [];
    known.forEach((state, nodeId) => seen.push([nodeId, state]));
    expect(seen).toEqual([...known]);
    expect(new Map(known)).toEqual(new Map(session.nodes.map((node) => [node.id, reconstruction.knownAt(node.id)])));
  });

  it('gives the same view with some nodes replaced, and leaves the first as it was', async () => {
    const session = new Session();
    const first = session.prompt('a', null);
    session.prompt('b', first);
    const known = (await reconstructSession(session.nodes, (id) => session.raws.get(id) ?? null)).knownByNode();
    const exact = known.with(new Map([['b', 'exact' as const]]));
    expect([...exact]).toEqual([
      ['a', 'reconstructed'],
      ['b', 'exact'],
    ]);
    expect(known.get('b')).toBe('reconstructed');
    expect(known.with(new Map())).toBe(known);
  });
});
