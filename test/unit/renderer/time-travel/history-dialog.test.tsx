import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ArborError } from '../../../../shared/errors';
import type { SessionGraph } from '../../../../shared/model';
import type { OperationSummary } from '../../../../shared/operations';
import { HistoryButton } from '../../../../renderer/src/time-travel/HistoryDialog';
import { NodeActions } from '../../../../renderer/src/time-travel/NodeActions';
import { TimeTravelLayer } from '../../../../renderer/src/time-travel/TimeTravelLayer';
import { createFakeClient, deferred, nodeDetail, nodeSummary, session, type Handlers } from '../fake-client';
import { renderWithStore } from '../render';
import { applied } from './time-travel-fixtures';

afterEach(cleanup);

const WORKSPACE = '/work/demo/workspace';

function operation(over: Partial<OperationSummary> = {}): OperationSummary {
  return {
    operation: 'op-1',
    kind: 'rewind',
    status: 'applied',
    workspace: WORKSPACE,
    nodeId: 'n1',
    undoes: null,
    written: ['a.ts', 'b.ts'],
    created: ['c.ts'],
    deleted: [],
    createdAt: '2025-01-01T10:00:00.000Z',
    ...over,
  };
}

/** Newest first, like the journal: an undo of a merge, the undone merge, an applied rewind. */
const journal = (): OperationSummary[] => [
  operation({ operation: 'op-3', kind: 'undo', nodeId: null, undoes: 'op-2', written: ['x.ts'], created: [], deleted: [], createdAt: '2025-01-01T12:00:00.000Z' }),
  operation({ operation: 'op-2', kind: 'merge', status: 'undone', nodeId: 'merge-1', written: ['x.ts'], created: [], deleted: [], createdAt: '2025-01-01T11:00:00.000Z' }),
  operation({ operation: 'op-1', kind: 'rewind', nodeId: 'n1' }),
];

const graph: SessionGraph = {
  session: session('s1', { project: WORKSPACE }),
  nodes: [nodeSummary('n1', { label: 'first prompt' }), nodeSummary('merge-1', { kind: 'system', label: 'Merge into /work/demo/workspace (3 files)' })],
  workspaceNodes: [{ nodeId: 'merge-1', kind: 'merge', dir: WORKSPACE }],
};

async function openHistory(handlers: Handlers) {
  const client = createFakeClient(handlers);
  const view = renderWithStore(
    <>
      <HistoryButton />
      <TimeTravelLayer />
    </>,
    client,
  );
  await act(async () => {
    view.store.setState({ selectedSessionId: 's1', graph });
  });
  await act(async () => {
    fireEvent.click(screen.getByTestId('open-history'));
  });
  await screen.findByTestId('history-list');
  return view;
}

const row = (id: string) => screen.getAllByTestId('history-row').find((r) => r.getAttribute('data-operation-id') === id)!;
const calls = (client: ReturnType<typeof createFakeClient>, method: string) => client.calls.filter((c) => c.method === method);

describe('History', () => {
  it('lists every operation with kind, status, workspace, node, counts and time; Undo only on applied ones', async () => {
    const { client } = await openHistory({ 'operations.list': () => ({ operations: journal() }) });
    expect(calls(client, 'operations.list')[0]?.request).toEqual({ limit: 200 });
    const rows = screen.getAllByTestId('history-row');
    expect(rows.map((r) => [r.getAttribute('data-kind'), r.getAttribute('data-status')])).toEqual([
      ['undo', 'applied'],
      ['merge', 'undone'],
      ['rewind', 'applied'],
    ]);

    const rewind = within(row('op-1'));
    expect(rewind.getByTestId('history-workspace').textContent).toBe(WORKSPACE);
    expect(rewind.getByTestId('history-counts').textContent).toBe('3 files (2 written, 1 created)');
    expect(rewind.getByTestId('history-status').textContent).toBe('applied');
    expect(row('op-1').textContent).toContain('“first prompt”');
    expect(rewind.getByTestId('history-show').textContent).toBe('Show in graph');
    expect(rewind.getByTestId('history-undo').textContent).toBe('Undo');

    const merge = within(row('op-2'));
    expect(merge.getByTestId('history-status').textContent).toBe('undone');
    expect(merge.queryByTestId('history-undo')).toBeNull();
    expect(merge.getByTestId('history-merge-undone').textContent).toContain('merge node stays in the graph');
    expect(row('op-2').textContent).toContain('undone');

    expect(row('op-3').textContent).toContain('reverses the merge of');
    expect(within(row('op-3')).queryByTestId('history-show')).toBeNull(); // an undo has no node
  });

  it('Undo calls operations.undo with the row’s id, says what was put back and refreshes the list', async () => {
    let listed = journal();
    const undo = deferred<ReturnType<typeof applied>>();
    const { client } = await openHistory({
      'operations.list': () => ({ operations: listed }),
      'operations.undo': () => undo.promise,
    });
    await act(async () => {
      fireEvent.click(within(row('op-1')).getByTestId('history-undo'));
    });
    expect(calls(client, 'operations.undo').map((c) => c.request)).toEqual([{ operationId: 'op-1' }]);
    expect(within(row('op-1')).getByTestId('history-undo').textContent).toBe('Undoing…');
    expect(within(row('op-3')).getByTestId('history-undo').hasAttribute('disabled')).toBe(true); // one at a time
    expect(screen.getByTestId('operation-progress')).toBeTruthy();

    listed = [operation({ operation: 'op-4', kind: 'undo', nodeId: null, undoes: 'op-1' }), ...journal().map((op) => (op.operation === 'op-1' ? { ...op, status: 'undone' as const } : op))];
    await act(async () => undo.resolve(applied({ operation: 'op-4', kind: 'undo', written: ['a.ts', 'b.ts'], created: [], deleted: ['c.ts'] })));
    await waitFor(() => expect(row('op-1').getAttribute('data-status')).toBe('undone'));
    expect(calls(client, 'operations.list')).toHaveLength(2);
    expect(within(row('op-1')).getByTestId('history-undone').textContent).toContain('Undone: 3 files (2 written, 1 deleted) put back in /work/demo/workspace');
    expect(within(row('op-1')).queryByTestId('history-undo')).toBeNull();
    expect(row('op-1').textContent).toContain('undone');
  });

  it('a workspace that changed since the operation stops the undo, lists the files and leaves the operation applied', async () => {
    const { client } = await openHistory({
      'operations.list': () => ({ operations: journal() }),
      'operations.undo': () => ({ status: 'workspace-changed', changed: ['a.ts', 'src/b.ts'] }),
    });
    await act(async () => {
      fireEvent.click(within(row('op-1')).getByTestId('history-undo'));
    });
    const changed = await screen.findByTestId('history-workspace-changed');
    expect(changed.getAttribute('role')).toBe('alert');
    expect(changed.textContent).toContain('The workspace changed since this rewind');
    expect(changed.textContent).toContain('stopped before writing anything');
    expect(Array.from(changed.querySelectorAll('li')).map((li) => li.textContent)).toEqual(['!a.ts', '!src/b.ts']);
    expect(screen.queryByTestId('history-undone')).toBeNull();
    expect(within(row('op-1')).getByTestId('history-undo').hasAttribute('disabled')).toBe(false);
    expect(calls(client, 'operations.list')).toHaveLength(2);
    expect(calls(client, 'sessions.graph')).toHaveLength(0);
  });

  it('shows an undo that failed in the dialog, with its code', async () => {
    await openHistory({
      'operations.list': () => ({ operations: journal() }),
      'operations.undo': () => {
        throw new ArborError('BAD_REQUEST', 'Operation op-1 is undone; only an applied operation can be undone');
      },
    });
    await act(async () => {
      fireEvent.click(within(row('op-1')).getByTestId('history-undo'));
    });
    const error = await screen.findByTestId('time-travel-error');
    expect(error.getAttribute('data-code')).toBe('BAD_REQUEST');
    expect(error.textContent).toContain('The undo failed.');
  });

  it('Show in graph selects a node of the open session and closes the dialog; another session’s node opens that session', async () => {
    const { client, store } = await openHistory({
      'operations.list': () => ({ operations: [...journal(), operation({ operation: 'op-0', nodeId: 'far' })] }),
      'nodes.get': ({ nodeId }) => nodeDetail(nodeId, { node: nodeSummary(nodeId, { sessionId: nodeId === 'far' ? 's2' : 's1' }) }),
      'sessions.graph': ({ sessionId }) => ({ session: session(sessionId), nodes: [nodeSummary('far', { sessionId })] }),
    });
    await act(async () => {
      fireEvent.click(within(row('op-1')).getByTestId('history-show'));
    });
    expect(store.getState().timeTravelDialog).toBeNull();
    expect(store.getState().selectedNodeId).toBe('n1');

    await act(async () => {
      fireEvent.click(screen.getByTestId('open-history'));
    });
    await screen.findByTestId('history-list');
    await act(async () => {
      fireEvent.click(within(row('op-0')).getByTestId('history-show'));
    });
    await waitFor(() => expect(store.getState().selectedSessionId).toBe('s2'));
    expect(store.getState().selectedNodeId).toBe('far');
    expect(calls(client, 'sessions.graph').map((c) => c.request)).toEqual([{ sessionId: 's2' }]);
  });

  it('the inspector’s actions on a merge node whose merge was undone say so', async () => {
    const client = createFakeClient({ 'operations.list': () => ({ operations: journal() }) });
    const view = renderWithStore(<NodeActions nodeId="merge-1" />, client);
    await act(async () => {
      view.store.setState({ selectedSessionId: 's1', graph });
    });
    const note = await screen.findByTestId('merge-undone-note');
    expect(note.textContent).toContain('This merge was undone');
    expect(calls(client, 'operations.list')[0]?.request).toEqual({ workspace: WORKSPACE });
    fireEvent.click(within(note).getByText('History'));
    expect(view.store.getState().timeTravelDialog).toEqual({ kind: 'history' });
  });

  it('asks again when the graph is refreshed, as after an undo from the merge view', async () => {
    let merge = operation({ operation: 'op-2', kind: 'merge', nodeId: 'merge-1' });
    const client = createFakeClient({ 'operations.list': () => ({ operations: [merge] }) });
    const view = renderWithStore(<NodeActions nodeId="merge-1" />, client);
    await act(async () => {
      view.store.setState({ selectedSessionId: 's1', graph });
    });
    await waitFor(() => expect(calls(client, 'operations.list')).toHaveLength(1));
    expect(screen.queryByTestId('merge-undone-note')).toBeNull();
    merge = { ...merge, status: 'undone' };
    await act(async () => {
      view.store.setState({ graph: { ...graph } });
    });
    expect((await screen.findByTestId('merge-undone-note')).textContent).toContain('This merge was undone');
  });

  it('says nothing on a merge node whose merge is still applied, nor on other nodes', async () => {
    const client = createFakeClient({ 'operations.list': () => ({ operations: [operation({ operation: 'op-2', kind: 'merge', nodeId: 'merge-1' })] }) });
    const view = renderWithStore(
      <>
        <NodeActions nodeId="merge-1" />
        <NodeActions nodeId="n1" />
      </>,
      client,
    );
    await act(async () => {
      view.store.setState({ selectedSessionId: 's1', graph });
    });
    await waitFor(() => expect(calls(client, 'operations.list')).toHaveLength(1)); // only the merge node asks
    expect(screen.queryByTestId('merge-undone-note')).toBeNull();
  });
});
