/**
 * Side-effect classification, table driven: shell commands (per pipeline / list / subshell / substitution
 * part), tool names, and the steps counted as "since" a node.
 */
import { describe, expect, it } from 'vitest';
import { classifyShellCommand, classifyToolCall, parseShell, sideEffectsSince } from '../../../../electron/snapshots/side-effects';
import type { NodeSummary, ToolCallRef } from '../../../../shared/model';
import type { SideEffectKind } from '../../../../shared/operations';

const CWD = '/home/dev/project';

/** command → the kinds it must yield ([] = no side effect). */
const COMMANDS: readonly (readonly [string, readonly SideEffectKind[]])[] = [
  // read-only and local
  ['ls -la', []],
  ['cat README.md | grep foo | wc -l', []],
  ['git status && git diff HEAD~1', []],
  ['git add -A && git commit -m "fix: parser"', []],
  ['git checkout -b feature && git stash && git rebase main', []],
  ['git remote add origin git@github.com:me/repo.git', []],
  ['npm test', []],
  ['npm run build && npm run lint', []],
  ['pnpm typecheck', []],
  ['yarn test:unit --watch=false', []],
  ['npx tsc --noEmit', []],
  ['npx vitest run test/unit', []],
  ['pnpm exec eslint src', []],
  ['cargo build --release && cargo test', []],
  ['go test ./... && go vet ./...', []],
  ['make', []],
  ['make test', []],
  ['python -m pytest -q tests/', []],
  ['pytest -x', []],
  ['mkdir -p src/utils && touch src/utils/index.ts', []],
  ['rm -rf dist build', []],
  ['cp src/a.ts src/b.ts', []],
  [`rm ${CWD}/tmp.txt`, []],
  ['echo hello > notes.txt', []],
  ['echo hello > /tmp/scratch.txt 2>&1', []],
  ['node --version', []],
  ['for f in src/*.ts; do wc -l "$f"; done', []],
  ['if [ -f package.json ]; then cat package.json; fi', []],
  ["cat > src/x.ts <<'EOF'\ncurl http://example.com\nrm -rf /\nEOF", []],
  ['cd src && ls', []],
  ['FOO=1 npm test', []],
  ['sed -i "s/a/b/" src/x.ts', []],
  ['find . -name "*.log" -delete', []],
  ['docker ps', []],
  ['terraform fmt', []],
  ['# just a comment', []],
  // git remotes
  ['git push origin main', ['git-push']],
  ['git push --force-with-lease', ['git-push']],
  ['git -C . push', ['git-push']],
  ['git fetch --all', ['git-remote']],
  ['git pull --rebase', ['git-remote']],
  ['git clone https://github.com/x/y.git', ['git-remote']],
  ['git remote update', ['git-remote']],
  ['git submodule update --init', ['git-remote']],
  ['git add . && git commit -m x && git push', ['git-push']],
  // network
  ['curl -s https://api.example.com/v1/items', ['network']],
  ['wget https://example.com/file.tar.gz', ['network']],
  ['ssh deploy@host "uptime"', ['network']],
  ['scp build.tar.gz me@host:/srv/', ['network']],
  ['rsync -av dist/ me@host:/var/www/', ['network']],
  ['npm install', ['network']],
  ['pnpm add zod', ['network']],
  ['pip install requests', ['network']],
  ['gh pr create --fill', ['network']],
  ['ls && (cd src && curl -O http://x/y)', ['network']],
  ['echo $(curl -s http://x/ip)', ['network']],
  ['diff <(curl -s http://a) local.txt', ['network']],
  ['cat file | `which curl` http://x', ['unknown']],
  // publish
  ['npm publish --access public', ['publish']],
  ['pnpm publish', ['publish']],
  ['yarn npm publish', ['publish']],
  ['cargo publish', ['publish']],
  ['twine upload dist/*', ['publish']],
  ['python -m twine upload dist/*', ['publish']],
  ['gh release create v1.2.0 dist/*', ['publish']],
  ['docker push registry.example.com/app:1.0', ['publish']],
  ['npm run release', ['publish']],
  // database
  ['psql -c "DROP TABLE users"', ['database']],
  ['mysql -u root < dump.sql', ['database']],
  ['sqlite3 app.db "DELETE FROM t"', ['database']],
  ['mongosh --eval "db.dropDatabase()"', ['database']],
  ['redis-cli FLUSHALL', ['database']],
  ['npx prisma migrate dev', ['database']],
  ['npx prisma generate', []],
  ['alembic upgrade head', ['database']],
  ['python manage.py migrate', ['database']],
  ['rails db:migrate', ['database']],
  // deploy
  ['kubectl apply -f k8s/', ['deploy']],
  ['kubectl get pods', ['network']],
  ['terraform apply -auto-approve', ['deploy']],
  ['terraform plan', ['network']],
  ['helm upgrade --install app ./chart', ['deploy']],
  ['fly deploy', ['deploy']],
  ['vercel --prod', ['deploy']],
  ['netlify deploy --prod', ['network']],
  ['npm run deploy', ['deploy']],
  ['aws s3 sync dist/ s3://bucket', ['deploy']],
  ['aws s3 ls', ['network']],
  // unknown
  ['bash -c "rm -rf ~/x"', ['unknown']],
  ['sh deploy.sh', ['unknown']],
  ['./scripts/release.sh', ['unknown']],
  ['eval "$CMD"', ['unknown']],
  ['python script.py', ['unknown']],
  ['node scripts/seed.js', ['unknown']],
  ['$EDITOR file', ['unknown']],
  ['frobnicate --all', ['unknown']],
  ['npm run mystery', ['unknown']],
  ['rm -rf ~/.cache/thing', ['unknown']],
  ['rm ../sibling/file', ['unknown']],
  ['cp config.json /etc/app/config.json', ['unknown']],
  ['echo x >> ~/.bashrc', ['unknown']],
  ['cd /opt/other && rm -rf build', ['unknown']],
  ['git config --global user.name Bot', ['unknown']],
  ['echo "unterminated', ['unknown']],
  ['case $x in a) echo a;; esac', ['unknown']],
  ['find . -exec rm {} \\;', ['unknown']],
  ['sudo apt-get install -y jq', ['network']],
  ['timeout 60 npm test', []],
  ['xargs -n 1 curl < urls.txt', ['network']],
  ['docker run --rm alpine echo hi', ['unknown']],
];

describe('classifyShellCommand', () => {
  it.each(COMMANDS)('%s', (command, kinds) => {
    expect(classifyShellCommand(command, { cwd: CWD })).toEqual(kinds);
  });

  it('classifies every part of a list, not only the first', () => {
    expect(classifyShellCommand('npm test; curl http://x; npm publish', { cwd: CWD })).toEqual(['network', 'publish']);
    expect(classifyShellCommand('npm test || git push', { cwd: CWD })).toEqual(['git-push']);
    expect(classifyShellCommand('npm test & git push &', { cwd: CWD })).toEqual(['git-push']);
  });

  it('treats absolute paths as outside the workspace when the workspace is not known', () => {
    expect(classifyShellCommand(`rm ${CWD}/tmp.txt`, { cwd: null })).toEqual(['unknown']);
  });
});

describe('parseShell', () => {
  it('keeps quoted words whole and separates substitutions and redirections', () => {
    const parsed = parseShell(`echo "a; b" 'c | d' $(date +%s) > out.txt 2>&1`);
    expect(parsed.unparseable).toBe(false);
    expect(parsed.commands).toEqual([
      { words: ['date', '+%s'], writesTo: [] },
      { words: ['echo', 'a; b', 'c | d', '$(…)'], writesTo: ['out.txt'] },
    ]);
  });

  it('skips heredoc bodies up to the delimiter and continues after it', () => {
    const parsed = parseShell('cat <<EOF > a.txt\nrm -rf /\nEOF\ngit push');
    expect(parsed.commands.map((command) => command.words[0])).toEqual(['cat', 'git']);
  });
});

describe('classifyToolCall', () => {
  const cases: readonly (readonly [string, unknown, readonly SideEffectKind[]])[] = [
    ['Read', { file_path: '/x' }, []],
    ['Edit', { file_path: '/x' }, []],
    ['Task', { prompt: 'go' }, []],
    ['TodoWrite', { todos: [] }, []],
    ['WebFetch', { url: 'https://x' }, ['network']],
    ['WebSearch', { query: 'x' }, ['network']],
    ['mcp__github__create_issue', { title: 'x' }, ['mcp']],
    ['mcp__postgres__query', { sql: 'select 1' }, ['mcp']],
    ['Bash', { command: 'git push' }, ['git-push']],
    ['Bash', { command: 'ls' }, []],
    ['Bash', {}, ['unknown']],
    ['Bash', undefined, ['unknown']],
    ['PowerShell', { command: 'Get-ChildItem' }, ['unknown']],
    ['SomeFutureTool', {}, ['unknown']],
  ];
  it.each(cases)('%s %j', (name, input, kinds) => {
    expect(classifyToolCall(name, input, { cwd: CWD })).toEqual(kinds);
  });
});

describe('sideEffectsSince', () => {
  const call = (id: string, name: string): ToolCallRef => ({ id, name, outcome: 'ok' });
  const node = (id: string, parentId: string | null, calls: ToolCallRef[] = [], extra: Partial<NodeSummary> = {}): NodeSummary => ({
    id,
    sessionId: 's',
    sourceId: id,
    parentSourceId: parentId,
    parentId,
    extraEdges: [],
    kind: calls.length > 0 ? 'tool_call' : 'user',
    timestamp: null,
    label: id,
    toolCalls: calls,
    sidechain: false,
    agentId: null,
    model: null,
    ...extra,
  });
  const line = (calls: Record<string, string>): string =>
    JSON.stringify({ message: { content: Object.entries(calls).map(([id, command]) => ({ type: 'tool_use', id, name: 'Bash', input: { command } })) } });
  // a → b(push) → c(curl) → d ; b → x (an abandoned branch with a publish) ; c spawns a subagent run s1 → s2(psql)
  const nodes: NodeSummary[] = [
    node('a', null),
    node('b', 'a', [call('t-push', 'Bash')]),
    node('x', 'b', [call('t-publish', 'Bash')]),
    node('c', 'b', [call('t-curl', 'Bash'), call('t-task', 'Task')]),
    node('s1', null, [], { sidechain: true, extraEdges: [{ kind: 'subagent', nodeId: 'c' }] }),
    node('s2', 's1', [call('t-psql', 'Bash')], { sidechain: true }),
    node('d', 'c'),
  ];
  const lines: Record<string, string> = {
    b: line({ 't-push': 'git push' }),
    x: line({ 't-publish': 'npm publish' }),
    c: line({ 't-curl': 'curl http://x' }),
    s2: line({ 't-psql': 'psql -c "delete from t"' }),
  };
  const readLine = (id: string): string | null => lines[id] ?? null;
  const kindsSince = (target: { step: string } | { after: string | null }): string[] =>
    sideEffectsSince({ nodes, node: target, readLine, cwd: CWD }).map((effect) => `${effect.nodeId}:${effect.kind}`);

  it('lists the calls after the node on the way to the newest step, its own calls and spawned subagent runs', () => {
    expect(kindsSince({ step: 'a' })).toEqual(['b:git-push', 'c:network', 's2:database']);
    expect(kindsSince({ step: 'b' })).toEqual(['b:git-push', 'c:network', 's2:database']);
    expect(kindsSince({ step: 'd' })).toEqual([]);
  });

  it('for a snapshot below a step, leaves out that step’s calls', () => {
    expect(kindsSince({ after: 'b' })).toEqual(['c:network', 's2:database']);
    expect(kindsSince({ after: 'd' })).toEqual([]);
  });

  it('for a node on an abandoned branch, lists the newest path after the fork point', () => {
    expect(kindsSince({ step: 'x' })).toEqual(['x:publish', 'c:network', 's2:database']);
  });

  it('classifies a call whose line cannot be read as unknown', () => {
    const effects = sideEffectsSince({ nodes, node: { step: 'a' }, readLine: () => null, cwd: CWD });
    expect(effects.map((effect) => effect.kind)).toEqual(['unknown', 'unknown', 'unknown']);
    expect(effects[0]).toMatchObject({ nodeId: 'b', toolUseId: 't-push', tool: 'Bash', summary: 'Bash' });
  });
});
