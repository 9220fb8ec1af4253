import { describe, expect, it } from 'vitest';
import { encodeProjectDir } from '../../../../electron/forks/claude-projects';
import { movedCwd } from '../../../../electron/forks/resumable-transcript';
import { memberText, rewriteTopLevel, topLevelMembers } from '../../../../electron/forks/transcript-line';

// Escapes, a nested sessionId, odd spacing and a number spelled 1.0: JSON.stringify(JSON.parse(line)) changes all of them.
const LINE =
  '{"type":"assistant", "sessionId" : "old","message":{"id":"m","content":[{"type":"thinking","thinking":"caf\\u00e9 \\/ \\"q\\" {]","signature":"c2ln"}],"sessionId":"nested","usage":{"x":1.0}},"cwd":"/repo","parentUuid":null}';

describe('rewriteTopLevel', () => {
  it('replaces only the named top-level values and keeps every other byte', () => {
    const rewritten = rewriteTopLevel(LINE, { sessionId: 'new', cwd: '/fork', parentUuid: 'p1' });
    expect(rewritten).toBe(LINE.replace('"old"', '"new"').replace('"/repo"', '"/fork"').replace('"parentUuid":null', '"parentUuid":"p1"'));
    expect(memberText(rewritten, 'message')).toBe(memberText(LINE, 'message'));
    expect((JSON.parse(rewritten) as { message: { sessionId: string } }).message.sessionId).toBe('nested');
  });

  it('adds a missing field only when asked to', () => {
    const line = '{"type":"user","uuid":"u"}';
    expect(rewriteTopLevel(line, { sessionId: 'new' })).toBe(line);
    expect(JSON.parse(rewriteTopLevel(line, { sessionId: 'new' }, new Set(['sessionId'])))).toEqual({ type: 'user', uuid: 'u', sessionId: 'new' });
    expect(JSON.parse(rewriteTopLevel('{}', { a: 1 }, new Set(['a'])))).toEqual({ a: 1 });
  });

  it('finds members the way JSON.parse reads them, and rejects what is not an object', () => {
    const members = topLevelMembers(LINE);
    expect([...members.keys()]).toEqual(['type', 'sessionId', 'message', 'cwd', 'parentUuid']);
    for (const [key, span] of members) expect(JSON.parse(LINE.slice(span.start, span.end))).toEqual((JSON.parse(LINE) as Record<string, unknown>)[key]);
    expect(() => topLevelMembers('[1]')).toThrow(SyntaxError);
    expect(() => topLevelMembers('{"a":"unterminated}')).toThrow(SyntaxError);
  });
});

describe('where the copy lives and runs', () => {
  it('encodes the project folder as Claude Code does, hashing long names', () => {
    expect(encodeProjectDir('/home/me/my_project.v2')).toBe('-home-me-my-project-v2');
    const long = `/${'a'.repeat(250)}`;
    expect(encodeProjectDir(long)).toMatch(/^-a{199}-[0-9a-z]+$/);
    expect(encodeProjectDir(long)).not.toBe(encodeProjectDir(`${long}b`));
  });

  it('moves cwds inside the old workspace into the fork and everything else to its root', () => {
    expect(movedCwd('/repo', '/repo', '/fork')).toBe('/fork');
    expect(movedCwd('/repo/src/x', '/repo', '/fork')).toBe('/fork/src/x');
    expect(movedCwd('/repository', '/repo', '/fork')).toBe('/fork');
    expect(movedCwd('/elsewhere', null, '/fork')).toBe('/fork');
  });
});
