import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { FileUnknownReason, NodeFileContent, NodeFiles } from '../../../../shared/model';
import { FileDisplay } from '../../../../renderer/src/files/FileDisplay';
import { NodeFilesView } from '../../../../renderer/src/files/NodeFilesView';
import { buildFileTree, commonFolder } from '../../../../renderer/src/files/file-tree';
import { createFakeClient, nodeSummary, session } from '../fake-client';
import { renderWithStore } from '../render';

afterEach(cleanup);

const ROOT = '/home/dev/projects/arbor';
const node = nodeSummary('n2', { parentId: 'n1' });

function files(over: Partial<NodeFiles> = {}): NodeFiles {
  return {
    node,
    known: 'unknown',
    changed: [{ path: `${ROOT}/src/index.ts`, status: 'modified' }],
    files: [
      { path: `${ROOT}/src/index.ts`, status: 'modified', ...known(120) },
      { path: `${ROOT}/src/count.ts`, ...known(64) },
      { path: `${ROOT}/README.md`, ...known(2048) },
    ],
    unknownSince: 'n0',
    ...over,
  };
}

function known(size: number) {
  return { known: 'reconstructed', oid: 'a'.repeat(40), size } as const;
}

function unknown(unknownSince: string | null, reason: FileUnknownReason) {
  return { known: 'unknown', unknownSince, reason, unknown: true } as const;
}

function content(path: string, text: string | null): NodeFileContent {
  return { path, content: text, exists: text !== null, binary: false, known: 'reconstructed' };
}

async function show(result: NodeFiles) {
  const client = createFakeClient({
    'nodes.files': () => result,
    'nodes.file': ({ nodeId, path }) => content(path, `${nodeId} version of ${path.split('/').pop()}\n`),
    'nodes.get': () => {
      throw new Error('not needed');
    },
  });
  const view = renderWithStore(<NodeFilesView node={node} />, client);
  await act(async () => {
    view.store.setState({
      selectedSessionId: 's1',
      graph: { session: session('s1', { project: ROOT }), nodes: [nodeSummary('n0', { label: 'Bash: npm run build' }), nodeSummary('n1'), node] },
    });
  });
  await screen.findByTestId('node-files');
  return view;
}

describe('NodeFilesView', () => {
  it('says how the state is known and links to the step it is unknown since', async () => {
    const { store } = await show(files());
    expect(screen.getByTestId('state-known').textContent).toContain('Unknown state.');
    const since = screen.getByTestId('unknown-since');
    expect(since.textContent).toBe('Bash: npm run build');
    await act(async () => {
      fireEvent.click(since);
    });
    expect(store.getState().selectedNodeId).toBe('n0');
  });

  it('lists changed files and the tree relative to the workspace, and loads no file until one is opened', async () => {
    const { client } = await show(files());
    expect(screen.getAllByTestId('changed-file').map((e) => e.getAttribute('data-path'))).toEqual(['src/index.ts']);
    expect(screen.getAllByTestId('tree-file').map((e) => e.getAttribute('data-path'))).toEqual(['src/count.ts', 'src/index.ts', 'README.md']);
    expect(client.calls.filter((c) => c.method === 'nodes.file')).toHaveLength(0);

    // An unchanged file: only its content here.
    await act(async () => {
      fireEvent.click(screen.getAllByTestId('tree-file')[0]!);
    });
    await waitFor(() => expect(screen.getByTestId('code-view').textContent).toContain('n2 version of count.ts'));
    expect(client.calls.filter((c) => c.method === 'nodes.file').map((c) => c.request)).toEqual([{ nodeId: 'n2', path: `${ROOT}/src/count.ts`, replayed: true }]);
    await act(async () => {
      fireEvent.click(screen.getByTestId('file-back'));
    });

    // A changed file: its diff against the parent step, unified by default, side by side on request.
    await act(async () => {
      fireEvent.click(screen.getByTestId('changed-file'));
    });
    await waitFor(() => expect(screen.getByTestId('diff-view').getAttribute('data-layout')).toBe('unified'));
    expect(client.calls.filter((c) => c.method === 'nodes.file').slice(1).map((c) => c.request)).toEqual([
      { nodeId: 'n2', path: `${ROOT}/src/index.ts`, replayed: true },
      { nodeId: 'n1', path: `${ROOT}/src/index.ts`, replayed: true },
    ]);
    expect(screen.getByTestId('diff-view').textContent).toContain('n2 version of index.ts');
    await act(async () => {
      fireEvent.click(screen.getByText('Side by side'));
    });
    await waitFor(() => expect(screen.getByTestId('diff-view').querySelectorAll('.cm-editor')).toHaveLength(2));
    const split = screen.getByTestId('diff-view');
    expect(split.getAttribute('data-layout')).toBe('split');
    expect(split.textContent).toContain('n1 version of index.ts');
  });

  it('puts a very large file behind a "show anyway" button', async () => {
    const big = 'x'.repeat(2 * 1024 * 1024 + 10);
    const client = createFakeClient({
      'nodes.files': () => files({ known: 'exact', unknownSince: null, changed: [] }),
      'nodes.file': ({ path }) => content(path, big),
    });
    renderWithStore(<NodeFilesView node={node} />, client);
    const first = (await screen.findAllByTestId('tree-file'))[0]!;
    await act(async () => {
      fireEvent.click(first);
    });
    expect((await screen.findByTestId('large-file-gate')).textContent).toContain('2 MB');
    expect(screen.queryByTestId('code-view')).toBeNull();
    await act(async () => {
      fireEvent.click(screen.getByText('Show anyway'));
    });
    expect(await screen.findByTestId('code-view')).toBeTruthy();
  });
});

describe('NodeFilesView marks files whose content is not known', () => {
  const marked = () => files({
    files: [
      { path: `${ROOT}/src/index.ts`, status: 'modified', ...unknown('n0', 'shell') },
      { path: `${ROOT}/src/count.ts`, ...known(64) },
      { path: `${ROOT}/src/new.ts`, ...unknown(null, 'no-pre-state') },
      { path: `${ROOT}/README.md`, ...known(2048) },
    ],
  });
  const row = (relative: string) => screen.getAllByTestId('tree-file').find((e) => e.getAttribute('data-path') === relative)!;

  it('in the tree before any click, with the step and the reason, beside the status mark', async () => {
    const { client } = await show(marked());
    const index = row('src/index.ts');
    expect(index.getAttribute('data-known')).toBe('unknown');
    const mark = within(index).getByTestId('file-unknown');
    expect(mark.getAttribute('title')).toBe('Content not known here since “Bash: npm run build”: a shell command may have changed it.');
    expect(mark.getAttribute('aria-label')).toBe(mark.getAttribute('title'));
    expect(index.querySelector('[data-status="modified"]')?.textContent).toBe('M');
    expect(within(row('src/new.ts')).getByTestId('file-unknown').getAttribute('title')).toBe('Content not known here: no step on the path tells its content.');
    // Known files carry no mark, and show their size instead.
    for (const known of ['src/count.ts', 'README.md']) {
      expect(row(known).getAttribute('data-known')).toBe('known');
      expect(within(row(known)).queryByTestId('file-unknown')).toBeNull();
    }
    expect(row('README.md').textContent).toContain('2 KB');
    // A folder says how many below it are not known, for when it is closed.
    expect(screen.getByText('src/').parentElement!.textContent).toContain('1 changed · 2 not known · 3');
    expect(screen.getByTestId('state-known').textContent).toContain('2 files marked ? here have content that is not known.');
    // The changed list marks it too.
    const changed = screen.getByTestId('changed-file');
    expect(within(changed).getByTestId('file-unknown').getAttribute('title')).toContain('“Bash: npm run build”');
    expect(client.calls.filter((c) => c.method === 'nodes.file')).toHaveLength(0);
  });

  async function open(relative: string, file: (nodeId: string, path: string) => NodeFileContent) {
    const client = createFakeClient({ 'nodes.files': () => marked(), 'nodes.file': ({ nodeId, path }) => file(nodeId, path) });
    const view = renderWithStore(<NodeFilesView node={node} />, client);
    await act(async () => {
      view.store.setState({ graph: { session: session('s1', { project: ROOT }), nodes: [nodeSummary('n0', { label: 'Bash: npm run build' }), nodeSummary('n1'), node] } });
    });
    await screen.findByTestId('node-files');
    await act(async () => {
      fireEvent.click(row(relative));
    });
    return screen.findByTestId('file-unknown-note');
  }
  const notKnown = (path: string, replayed?: string | null): NodeFileContent => ({
    path,
    content: null,
    exists: false,
    binary: false,
    known: 'unknown',
    unknownSince: 'n0',
    reason: 'shell',
    ...(replayed === undefined ? {} : { replayed }),
  });

  it('and opening one still says its content is not known, since which step and why', async () => {
    const note = await open('src/new.ts', (_, path) => notKnown(path));
    expect(note.textContent).toBe('The content of this file at this node is not known. Content not known here since “Bash: npm run build”: a shell command may have changed it.');
    expect(within(screen.getByTestId('file-viewer')).getByTestId('file-unknown')).toBeTruthy();
    expect(screen.queryByTestId('code-view')).toBeNull();
  });

  it('and a changed one shows the replayed change under that warning, labelled as not known to be right', async () => {
    const note = await open('src/index.ts', (nodeId, path) => (nodeId === 'n2' ? notKnown(path, 'replayed after\n') : content(path, 'known before\n')));
    expect(note.textContent).toContain('a shell command may have changed it. Shown: what replaying the transcript gives, which is not known to be right.');
    await waitFor(() => expect(screen.getByTestId('diff-view').textContent).toContain('replayed after'));
    expect(screen.getByTestId('diff-view').textContent).toContain('known before');
  });
});

describe('FileDisplay', () => {
  it('does not call a file deleted when its content here is not known and its earlier content is', () => {
    render(<FileDisplay before={{ text: 'earlier\n', exists: true, binary: false, known: true }} after={{ text: null, exists: false, binary: false, known: false }} layout="unified" />);
    expect(screen.getByTestId('file-unknown-note').textContent).toBe('The content of this file at this node is not known.');
    expect(screen.queryByText(/Deleted here/)).toBeNull();
  });
});

describe('file tree', () => {
  it('finds the common folder and nests files under folders, folders first', () => {
    expect(commonFolder(['/a/b/c.txt', '/a/b/d/e.txt', '/a/bx/f'])).toBe('/a');
    expect(commonFolder(['/a/b/c.txt'])).toBe('/a/b');
    const tree = buildFileTree(
      [
        { path: '/w/z.txt', ...known(1) },
        { path: '/w/src/a.ts', status: 'added', ...known(2) },
        { path: '/w/src/lib/b.ts', ...unknown('n0', 'shell') },
      ],
      '/w',
    );
    expect(tree.children.map((c) => c.name)).toEqual(['src', 'z.txt']);
    const src = tree.children[0]!;
    expect(src.type === 'folder' && [src.count, src.changed, src.unknown, src.children.map((c) => c.name)]).toEqual([2, 1, 1, ['lib', 'a.ts']]);
  });
});
