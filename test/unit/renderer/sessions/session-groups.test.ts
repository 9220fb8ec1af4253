import { describe, expect, it } from 'vitest';
import { firstStop, groupSessions, lastStop, listRows, projectKeyOf, projectName, stepCursor } from '../../../../renderer/src/sessions/session-groups';
import { createSessionListPrefs } from '../../../../renderer/src/sessions/session-list-prefs';
import { session } from '../fake-client';

describe('session groups', () => {
  it('names a project by its folder, on any platform, and groups a session without a project key by its path', () => {
    expect(projectName('/home/dev/work/arbor')).toBe('arbor');
    expect(projectName('C:\\Users\\dev\\arbor\\')).toBe('arbor');
    expect(projectName('/p/-home-dev-old')).toBe('-home-dev-old');
    expect(projectKeyOf(session('a', { project: '/x/y' }))).toBe('/x/y');
    expect(projectKeyOf(session('a', { project: null }))).toBe('unknown project');
  });

  it('↑/↓ stops are sessions of unfolded projects and headers of folded ones; the ends stay put', () => {
    const sessions = [
      session('a1', { projectKey: '/a', lastActivityAt: '2025-01-03T00:00:00Z' }),
      session('b1', { projectKey: '/b', lastActivityAt: '2025-01-02T00:00:00Z' }),
      session('c1', { projectKey: '/c', lastActivityAt: '2025-01-01T00:00:00Z' }),
      session('c2', { projectKey: '/c', lastActivityAt: '2024-12-01T00:00:00Z' }),
    ];
    const rows = listRows(groupSessions(sessions, 'activity', (key) => key === '/b'));
    const names = rows.map((row) => (row.type === 'group' ? `[${row.group.name}]` : row.session.id));
    expect(names).toEqual(['[a]', 'a1', '[b]', '[c]', 'c1', 'c2']);
    const walk: string[] = [];
    for (let index = firstStop(rows), guard = 0; guard < 10; guard++) {
      walk.push(names[index]!);
      const next = stepCursor(rows, index, 1);
      if (next === index) break;
      index = next;
    }
    expect(walk).toEqual(['a1', '[b]', 'c1', 'c2']);
    expect(names[lastStop(rows)]).toBe('c2');
    expect(stepCursor(rows, firstStop(rows), -1)).toBe(firstStop(rows));
    expect(firstStop([])).toBe(-1);
    expect(lastStop([])).toBe(-1);
  });

  it('sessions without activity sort last; ties keep a stable order by id', () => {
    const groups = groupSessions(
      [session('z', { projectKey: '/a', lastActivityAt: null, updatedAt: null, startedAt: null }), session('b', { projectKey: '/a', lastActivityAt: '2025-01-01T00:00:00Z' }), session('a', { projectKey: '/a', lastActivityAt: '2025-01-01T00:00:00Z' })],
      'activity',
      () => false,
    );
    expect(groups[0]!.sessions.map((s) => s.id)).toEqual(['a', 'b', 'z']);
  });
});

describe('session list preferences', () => {
  it('a corrupt or foreign saved entry falls back to last activity and nothing folded', () => {
    for (const saved of ['{not json', JSON.stringify({ sort: 'random', collapsed: 'x' }), JSON.stringify({ collapsed: [1, '/ok'] })]) {
      const storage = { getItem: () => saved, setItem: () => {} } as unknown as Storage;
      const prefs = createSessionListPrefs(storage).getState();
      expect(prefs.sort).toBe('activity');
      expect([...prefs.collapsed].every((key) => key === '/ok')).toBe(true);
    }
  });

  it('a storage that refuses writes only loses the remembered choice', () => {
    const storage = { getItem: () => null, setItem: () => { throw new Error('QuotaExceededError'); } } as unknown as Storage;
    const prefs = createSessionListPrefs(storage);
    prefs.getState().setSort('size');
    prefs.getState().setCollapsed('/a', true);
    expect(prefs.getState()).toMatchObject({ sort: 'size' });
    expect(prefs.getState().collapsed.has('/a')).toBe(true);
  });
});
