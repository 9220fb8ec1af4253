import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectFolderOf } from '../../../electron/db/session-queries';
import { openSessionStore, type SessionStore } from '../../../electron/db/session-store';
import type { ParsedNode, TranscriptFile } from '../../../electron/importers/transcript';
import { inOrder, parsedNode, transcriptFile } from './parsed-fixtures';

let dir: string;
let store: SessionStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'arbor-session-queries-'));
  store = openSessionStore(join(dir, 'arbor.sqlite'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function importFile(file: TranscriptFile, nodes: readonly ParsedNode[]): void {
  const writer = store.beginFile(file);
  for (const node of nodes) writer.node(node);
  writer.finish({ endOffset: file.size, endLine: nodes.length + 1 });
  store.linkChangedSessions();
}

const listed = (id: string) => store.listSessions({}).sessions.find((session) => session.id === id);

describe('the sessions list summary', () => {
  it('a session with its subagent: bytes of both files, grouped by its working directory, not an orphan', () => {
    importFile(
      transcriptFile('/p/-repo/S1.jsonl', { sessionHint: 'S1', size: 1200 }),
      inOrder([parsedNode('u1', null, { kind: 'user', label: 'fix it', cwd: '/repo', timestamp: '2026-01-01T10:00:00Z' })]),
    );
    importFile(
      transcriptFile('/p/-repo/S1/subagents/agent-a1.jsonl', { role: 'subagent', sessionHint: 'S1', agentId: 'a1', size: 300 }),
      inOrder([parsedNode('x1', null, { kind: 'user', sidechain: true, agentId: 'a1', timestamp: '2026-01-01T10:05:00Z' })]),
    );
    expect(listed('S1')).toMatchObject({
      projectKey: '/repo',
      bytes: 1500,
      orphanSubagent: false,
      lastActivityAt: '2026-01-01T10:05:00Z',
    });
    expect(store.getSession('S1')).toMatchObject({ bytes: 1500, orphanSubagent: false });
  });

  it('a subagent file whose parent session was never imported is an orphan subagent, grouped by its project folder', () => {
    importFile(
      transcriptFile('/p/-work-app/GONE/subagents/agent-b2.jsonl', { role: 'subagent', sessionHint: 'GONE', agentId: 'b2', size: 80 }),
      inOrder([parsedNode('y1', null, { kind: 'user', sidechain: true, agentId: 'b2', sessionSourceId: 'GONE' })]),
    );
    expect(listed('GONE')).toMatchObject({ orphanSubagent: true, projectKey: '/p/-work-app', bytes: 80 });
  });

  it('a session file holding sidechain lines only is an orphan subagent', () => {
    importFile(
      transcriptFile('/p/-repo/S3.jsonl', { sessionHint: 'S3' }),
      inOrder([parsedNode('z1', null, { sidechain: true, sessionSourceId: 'S3', cwd: '/repo' }), parsedNode('z2', 'z1', { sidechain: true, sessionSourceId: 'S3' })]),
    );
    expect(listed('S3')?.orphanSubagent).toBe(true);
  });

  it('the orphan mark goes once the parent session is imported', () => {
    importFile(
      transcriptFile('/p/-repo/S4/subagents/agent-c3.jsonl', { role: 'subagent', sessionHint: 'S4', agentId: 'c3' }),
      inOrder([parsedNode('w1', null, { sidechain: true, agentId: 'c3', sessionSourceId: 'S4' })]),
    );
    expect(listed('S4')?.orphanSubagent).toBe(true);
    importFile(transcriptFile('/p/-repo/S4.jsonl', { sessionHint: 'S4' }), inOrder([parsedNode('m1', null, { kind: 'user', sessionSourceId: 'S4' })]));
    expect(listed('S4')?.orphanSubagent).toBe(false);
  });

  it('a session without timestamps has its last activity from its file modification time', () => {
    const mtimeMs = Date.UTC(2026, 1, 2, 3, 4, 5);
    importFile(transcriptFile('/p/-repo/S5.jsonl', { sessionHint: 'S5', mtimeMs }), inOrder([parsedNode('v1', null, { sessionSourceId: 'S5' })]));
    expect(listed('S5')).toMatchObject({ updatedAt: null, lastActivityAt: '2026-02-02T03:04:05.000Z' });
  });
});

describe('projectFolderOf', () => {
  it('names the folder holding a session file, and the one above the session for subagent files', () => {
    expect(projectFolderOf('/home/u/.claude/projects/-repo/S1.jsonl')).toBe('/home/u/.claude/projects/-repo');
    expect(projectFolderOf('/home/u/.claude/projects/-repo/S1/subagents/agent-a.jsonl')).toBe('/home/u/.claude/projects/-repo');
    expect(projectFolderOf('/home/u/.claude/projects/-repo/S1/subagents/workflows/w1/agent-a.jsonl')).toBe('/home/u/.claude/projects/-repo');
    expect(projectFolderOf('C:\\Users\\u\\.claude\\projects\\C--repo\\S1.jsonl')).toBe('C:\\Users\\u\\.claude\\projects\\C--repo');
    expect(projectFolderOf(null)).toBeNull();
  });
});

describe('sessions listed while an import runs', () => {
  it('regression: a session linked while its file still imported was grouped under its transcript folder, not its working directory', () => {
    const writer = store.beginFile(transcriptFile('/p/-home-dev-repo/S7.jsonl', { sessionHint: 'S7', size: 400_000 }));
    let parent: string | null = null;
    // More than a first batch, so some lines are stored (and linked, as a big file is) before the file ends.
    for (let index = 0; index < 700; index++) {
      const id = `s7-${index}`;
      writer.node(parsedNode(id, parent, { kind: 'user', label: `step ${index}`, sessionSourceId: 'S7', cwd: '/home/dev/repo' }));
      parent = id;
    }
    store.linkChangedSessions();
    expect(store.listSessions({}).sessions.map((s) => [s.id, s.project])).toEqual([['S7', '/home/dev/repo']]);
    writer.finish({ endOffset: 400_000, endLine: 701 });
    store.linkChangedSessions();
    expect(store.listSessions({}).sessions.map((s) => [s.id, s.project])).toEqual([['S7', '/home/dev/repo']]);
  });

  it('regression: a session stored but not linked yet was listed with its id as title and 0 nodes; it is listed once linked', () => {
    const writer = store.beginFile(transcriptFile('/p/-repo/S6.jsonl', { sessionHint: 'S6' }));
    writer.node(parsedNode('t1', null, { kind: 'user', label: 'tidy the build', sessionSourceId: 'S6', cwd: '/repo' }));
    writer.finish({ endOffset: 100, endLine: 2 });
    expect(store.listSessions({})).toEqual({ sessions: [], total: 0 });
    store.linkChangedSessions();
    expect(store.listSessions({}).sessions.map((s) => [s.id, s.title, s.nodeCount])).toEqual([['S6', 'tidy the build', 1]]);
    // More nodes arriving: the linked session stays listed, under its title, before the next link.
    const more = store.beginFile(transcriptFile('/p/-repo/S6.jsonl', { sessionHint: 'S6', size: 200 }));
    more.node(parsedNode('t2', 't1', { sessionSourceId: 'S6' }));
    more.finish({ endOffset: 200, endLine: 3 });
    expect(store.listSessions({}).sessions.map((s) => [s.id, s.title])).toEqual([['S6', 'tidy the build']]);
    store.linkChangedSessions();
    expect(store.listSessions({ query: 'tidy' }).sessions.map((s) => [s.id, s.nodeCount])).toEqual([['S6', 2]]);
  });
});
