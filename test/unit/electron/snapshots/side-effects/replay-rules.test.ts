/**
 * The replay keys, table driven: two requests of one effect with the same identifying arguments share a key,
 * however the options are spelled or ordered; a different message, ref, title or URL is another effect; reads
 * (git status, gh issue list, curl GET, MCP get/list) have no key at all.
 */
import { describe, expect, it } from 'vitest';
import { shellReplayKeys, toolReplayKeys } from '../../../../../electron/snapshots/side-effects';

const keysOf = (command: string) => shellReplayKeys(command).map((key) => key.key);
const effectsOf = (command: string) => shellReplayKeys(command).map((key) => key.effect);

/** Pairs of commands that request the same effect: same key. */
const SAME: readonly (readonly [string, string, string])[] = [
  ['git commit', 'git commit -m "fix: parser"', "git commit --message='fix:   parser'"],
  ['git commit', 'git commit -am "fix: parser"', 'git commit -a -m "fix: parser"'],
  ['git commit', 'git commit -m "fix: parser"', 'git -C . commit --message=fix:\\ parser'],
  ['git push', 'git push origin main', 'git push origin main'],
  ['git push', 'git push --force origin main', 'git push -f origin main'],
  ['npm publish', 'npm publish --tag next', 'NPM_TOKEN=x npm publish --tag=next'],
  ['gh issue create', 'gh issue create --title "Parser drops quotes" --body "a"', 'gh issue create -t "Parser drops quotes" -b "another body"'],
  ['gh pr create', 'gh pr create --title "Fix parser" --base main', 'gh pr create -B main -t "Fix parser" --fill'],
  ['POST request', 'curl -X POST https://api.example.com/hooks -d \'{"a":1}\'', 'curl -s -d \'{"a":1}\' https://api.example.com/hooks'],
  ['image push', 'sudo docker push ghcr.io/me/app:1.2', 'docker push ghcr.io/me/app:1.2'],
];

/** Pairs that are different effects of one kind: different keys. */
const DIFFERENT: readonly (readonly [string, string])[] = [
  ['git commit -m "fix: parser"', 'git commit -m "fix: lexer"'],
  ['git commit -m "fix: parser"', 'git commit --amend -m "fix: parser"'],
  ['git push origin main', 'git push origin release'],
  ['git push origin main', 'git push upstream main'],
  ['gh issue create --title "A"', 'gh issue create --title "B"'],
  ['curl -X POST https://api.example.com/a', 'curl -X POST https://api.example.com/b'],
  ['curl -X POST https://api.example.com/a', 'curl -X DELETE https://api.example.com/a'],
  ['cargo publish -p core', 'cargo publish -p cli'],
];

/** Reads and local steps: no replay hazard, whatever else the classifier says of them. */
const NO_KEY: readonly string[] = [
  'git status',
  'git log --oneline -5',
  'git add -A',
  'git fetch origin',
  'gh issue list',
  'gh pr view 12',
  'curl https://example.com/api/items',
  'curl -I https://example.com',
  'curl -X GET https://example.com/api',
  'wget https://example.com/file.tgz',
  'http GET example.com/api',
  'npm install',
  'npm test',
  "psql -c 'select 1'",
];

describe('replay keys', () => {
  it.each(SAME)('%s: two spellings of one request share a key', (effect, a, b) => {
    expect(effectsOf(a)).toEqual([effect]);
    expect(keysOf(a)).toEqual(keysOf(b));
  });

  it.each(DIFFERENT)('%s and %s are different effects', (a, b) => {
    expect(keysOf(a)).toHaveLength(1);
    expect(keysOf(b)).toHaveLength(1);
    expect(keysOf(a)).not.toEqual(keysOf(b));
  });

  it.each(NO_KEY)('%s is not a replay hazard', (command) => {
    expect(keysOf(command)).toEqual([]);
  });

  it('finds every effect of a command line, each once', () => {
    expect(effectsOf('git add -A && git commit -m "wip" && git push origin main && git push origin main')).toEqual(['git commit', 'git push']);
  });

  it('keys a message computed when the command runs by the whole line', () => {
    const heredoc = (body: string) => `git commit -m "$(cat <<'EOF'\n${body}\nEOF\n)"`;
    expect(keysOf(heredoc('fix: parser'))).toEqual(keysOf(heredoc('fix: parser')));
    expect(keysOf(heredoc('fix: parser'))).not.toEqual(keysOf(heredoc('fix: lexer')));
  });

  it('takes database writes by their statement, not reads', () => {
    expect(effectsOf("psql postgres://db/app -c 'insert into users values (1)'")).toEqual(['psql write']);
    expect(keysOf("sqlite3 app.db 'select * from users'")).toEqual([]);
  });

  it('flags MCP tools named for a change, with their input, and not reads', () => {
    const create = toolReplayKeys('mcp__github__create_issue', { title: 'A', repo: 'me/app' });
    expect(create.map((key) => key.effect)).toEqual(['github/create_issue']);
    expect(toolReplayKeys('mcp__github__create_issue', { repo: 'me/app', title: 'A' })).toEqual(create);
    expect(toolReplayKeys('mcp__github__create_issue', { repo: 'me/app', title: 'B' })).not.toEqual(create);
    expect(toolReplayKeys('mcp__github__get_issue', { number: 1 })).toEqual([]);
    expect(toolReplayKeys('mcp__github__list_issues', {})).toEqual([]);
    expect(toolReplayKeys('WebFetch', { url: 'https://example.com' })).toEqual([]);
  });
});
