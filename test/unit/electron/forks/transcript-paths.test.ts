import { describe, expect, it } from 'vitest';
import { movePaths, relocateMessagePaths } from '../../../../electron/forks/transcript-paths';
import { arrayElements, memberText } from '../../../../electron/forks/transcript-line';

type Json = Record<string, unknown>;

describe('movePaths', () => {
  it('moves the folder itself and paths below it, and nothing that only starts the same way', () => {
    expect(movePaths('/repo', '/repo', '/fork')).toBe('/fork');
    expect(movePaths('cd /repo && cat /repo/src/a.ts', '/repo', '/fork')).toBe('cd /fork && cat /fork/src/a.ts');
    expect(movePaths('"/repo/x", (/repo), /repo: done, /repo.', '/repo', '/fork')).toBe('"/fork/x", (/fork), /fork: done, /fork.');
    for (const other of ['/repository/a', '/repo-2/a', '/repo_old', '/repo.bak/a', '/other/repo/a', 'x/repo', '~/repo', '/repo..']) {
      expect(movePaths(other, '/repo', '/fork')).toBe(other);
    }
    expect(movePaths('C:\\work\\repo\\src\\a.ts and C:\\work\\repository', 'C:\\work\\repo', 'D:\\fork')).toBe('D:\\fork\\src\\a.ts and C:\\work\\repository');
  });
});

describe('relocateMessagePaths', () => {
  const thinking = '{"type":"thinking","thinking":"I will edit /repo/src/a.ts \\u00e9","signature":"c2lnbmF0dXJl"}';
  const assistant =
    '{"type":"assistant","cwd":"/fork","message":{"id":"m1","content":[' +
    thinking +
    ',{"type":"text","text":"Editing /repo/src/a.ts"},{"type":"tool_use","id":"t1","name":"Edit","input":{"file_path":"/repo/src/a.ts","edits":[{"old":"/repo/x","n":1}],"flag":true}}]},"toolUseResult":{"filePath":"/repo/src/a.ts","originalFile":"root = \'/repo\'"}}';

  it('moves paths in text and tool inputs, and keeps thinking blocks and everything outside the message byte for byte', () => {
    const moved = relocateMessagePaths(assistant, '/repo', '/fork');
    const json = JSON.parse(moved) as { message: { content: Json[] }; toolUseResult: Json };
    expect(json.message.content[1]).toEqual({ type: 'text', text: 'Editing /fork/src/a.ts' });
    expect(json.message.content[2]!.input).toEqual({ file_path: '/fork/src/a.ts', edits: [{ old: '/fork/x', n: 1 }], flag: true });
    expect(moved).toContain(thinking);
    expect(memberText(moved, 'toolUseResult')).toBe(memberText(assistant, 'toolUseResult'));
  });

  it('moves paths in prompts and tool results, plain or as blocks', () => {
    const prompt = '{"type":"user","message":{"role":"user","content":"look at /repo/README.md"}}';
    expect((JSON.parse(relocateMessagePaths(prompt, '/repo/', '/fork')) as { message: Json }).message.content).toBe('look at /fork/README.md');
    const result =
      '{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"/repo/a.ts:1: x"},{"type":"tool_result","tool_use_id":"t2","content":[{"type":"text","text":"/repo/b.ts"},{"type":"image","source":{"data":"L3JlcG8v/repo/"}}]}]}}';
    const content = (JSON.parse(relocateMessagePaths(result, '/repo', '/fork')) as { message: { content: Json[] } }).message.content;
    expect(content[0]!.content).toBe('/fork/a.ts:1: x');
    expect(content[1]!.content).toEqual([
      { type: 'text', text: '/fork/b.ts' },
      { type: 'image', source: { data: 'L3JlcG8v/repo/' } },
    ]);
  });

  it('returns lines that do not name the folder unchanged, and never moves a filesystem root', () => {
    const line = '{"type":"assistant","message":{"content":[{"type":"text","text":"/elsewhere/a"}]},"n":1.0}';
    expect(relocateMessagePaths(line, '/repo', '/fork')).toBe(line);
    expect(relocateMessagePaths(assistant, null, '/fork')).toBe(assistant);
    expect(relocateMessagePaths(assistant, '/', '/fork')).toBe(assistant);
    expect(relocateMessagePaths('{"type":"summary","summary":"/repo/a"}', '/repo', '/fork')).toBe('{"type":"summary","summary":"/repo/a"}');
  });

  it('finds Windows folders through their JSON escaping', () => {
    const line = '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t","name":"Read","input":{"file_path":"C:\\\\w\\\\repo\\\\a.ts"}}]}}';
    const input = (JSON.parse(relocateMessagePaths(line, 'C:\\w\\repo', 'C:\\w\\fork')) as { message: { content: Json[] } }).message.content[0]!.input;
    expect(input).toEqual({ file_path: 'C:\\w\\fork\\a.ts' });
  });
});

describe('arrayElements', () => {
  it('splits an array the way JSON.parse reads it, scalars included', () => {
    const text = '[1, "a]b" ,{"x":[2]},[],null,-0.5e3]';
    const spans = arrayElements(text, 0);
    expect(spans.map((span) => JSON.parse(text.slice(span.start, span.end)) as unknown)).toEqual(JSON.parse(text));
    expect(arrayElements('[]', 0)).toEqual([]);
    expect(() => arrayElements('{}', 0)).toThrow(SyntaxError);
  });
});
