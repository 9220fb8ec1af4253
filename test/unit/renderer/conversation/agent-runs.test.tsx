import { act, cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { NodeSummary } from '../../../../shared/model';
import { AppProvider } from '../../../../renderer/src/app/app-context';
import { AgentRuns } from '../../../../renderer/src/conversation/AgentRunBlock';
import { buildConversationStructure } from '../../../../renderer/src/conversation/branch-path';
import { createConversationStore } from '../../../../renderer/src/conversation/conversation-store';
import { createAppStore } from '../../../../renderer/src/state/store';
import { createFakeClient, nodeSummary } from '../fake-client';

afterEach(cleanup);

const at = (second: number) => new Date(Date.UTC(2025, 0, 1, 10, 0, second)).toISOString();
const node = (id: string, parentId: string | null, kind: NodeSummary['kind'], second: number, over: Partial<NodeSummary> = {}) =>
  nodeSummary(id, { parentId, parentSourceId: parentId, kind, timestamp: at(second), ...over });

describe('subagent runs under a call', () => {
  it('mark the selected step of an open run from the app’s selection, read inside the run (the row holding it is not re-rendered for it)', () => {
    const nodes = [
      node('u1', null, 'user', 0),
      node('c1', 'u1', 'tool_call', 1, { toolCalls: [{ id: 't1', name: 'Agent', outcome: 'ok' }] }),
      node('s1', null, 'user', 2, { sidechain: true, extraEdges: [{ kind: 'subagent', nodeId: 'c1' }] }),
      node('s2', 's1', 'assistant', 3, { sidechain: true }),
    ];
    const structure = buildConversationStructure(nodes);
    const client = createFakeClient({ 'nodes.details': () => ({ details: [], missing: [] }) });
    const app = createAppStore(client);
    const store = createConversationStore(client);
    const root = structure.session.indexById.get('s1')!;
    const view = render(
      <AppProvider store={app} client={client}>
        <AgentRuns structure={structure} roots={[root]} store={store} onSelect={() => undefined} />
      </AppProvider>,
    );
    expect(view.getByTestId('conversation-agent').textContent).toContain('2 steps');
    act(() => store.getState().setOpen('s1', true));
    const step = () => view.container.querySelector('[data-node-id="s2"]');
    expect(step()?.getAttribute('data-selected')).toBe('false');
    act(() => app.setState({ selectedNodeId: 's2' }));
    expect(step()?.getAttribute('data-selected')).toBe('true');
    act(() => app.setState({ selectedNodeId: 'u1' }));
    expect(step()?.getAttribute('data-selected')).toBe('false');
  });
});
