/**
 * Browsing real transcripts in Chromium against `arbor serve`: the sessions list, a session's graph,
 * the inspector for a selected node, and search jumping to a hit.
 */
import { existsSync } from 'node:fs';
import { CORPUS_DIR, expect, test } from '../fixtures/arbor-server';
import { ArborApp } from '../pages/arbor-app';

// The worktrees experiment (Claude Code 2.1.114): Agent calls, subagent files, many tool kinds.
const SESSION = 'ef958aa1-0e93-49f0-bb71-150f63befcd1';

test.describe('browsing the corpus', () => {
  test.skip(!existsSync(CORPUS_DIR), `the transcript corpus is not at ${CORPUS_DIR}; skipping the corpus browsing spec`);
  test.use({ arborOptions: { imports: [CORPUS_DIR] } });

  test('lists sessions, draws a graph, inspects a node and jumps to a search hit', async ({ page, arbor }) => {
    const imported = arbor.importReport as { sessions: { id: string }[] };
    expect(imported.sessions.some((s) => s.id === SESSION)).toBe(true);
    const app = new ArborApp(page);
    await app.open(arbor.url);

    await expect(app.sessions.rows.first()).toBeVisible();
    expect(await app.sessions.rows.count()).toBeGreaterThan(5);
    await app.screenshot('corpus-01-sessions');

    await app.sessions.open(SESSION, 'little experiment');
    await app.graph.waitForNodes();
    await expect(app.graph.nodesOfKind('user').first()).toBeVisible();
    await app.screenshot('corpus-02-graph');

    const call = app.graph.nodesOfKind('tool_call').first();
    const callTitle = (await call.getAttribute('title')) ?? '';
    const nodeId = await app.graph.select(call);
    expect(await app.inspector.kindName()).toBe('tool_call');
    await expect(app.inspector.root).toContainText(nodeId);
    await expect(app.inspector.root).toContainText(callTitle.split(/[\s:(]/)[0] ?? '');
    await expect(app.inspector.toolOutcomes.first()).toHaveText(/^(ok|error|outcome not recorded)$/);
    await app.screenshot('corpus-03-inspector');

    await app.search.search('Beads');
    await app.screenshot('corpus-04-search');
    const target = await app.search.choose(app.search.hits.first());
    expect(target.sessionId).not.toBe('');
    await expect(app.sessions.row(target.sessionId)).toHaveAttribute('aria-selected', 'true');
    await expect(app.graph.node(target.nodeId)).toHaveAttribute('data-selected', 'true');
    await expect(app.inspector.root).toContainText(target.nodeId);
    await expect(app.inspector.root).toContainText(/beads/i);
    await app.screenshot('corpus-05-search-hit');
    await app.expectNoError();
  });
});
