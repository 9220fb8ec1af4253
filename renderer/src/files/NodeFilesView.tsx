import { useEffect, useMemo, useState } from 'react';
import { assertNever } from '../../../shared/errors';
import type { NodeFiles, NodeId, NodeSummary } from '../../../shared/model';
import { useAppState, useArborClient } from '../app/app-context';
import { plural } from '../app/format';
import { ErrorBox } from '../time-travel/ErrorBox';
import { useNodeSummary } from '../time-travel/use-node-summary';
import type { DiffLayout } from './DiffView';
import { commonFolder, relativeTo } from './file-tree';
import { FileStatusMark } from './FileStatusMark';
import { FileTree, type DescribeUnknown } from './FileTree';
import { FileViewer, type OpenedFile } from './FileViewer';
import { UnknownFileMark, unknownSentence } from './UnknownFileMark';
import './files.css';

/** The inspector's "Files" tab: how the node's workspace state is known, what it changed, every file there. */
export function NodeFilesView({ node }: { readonly node: NodeSummary }) {
  const client = useArborClient();
  const project = useAppState((s) => s.graph?.session.project ?? null);
  const [files, setFiles] = useState<NodeFiles | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [opened, setOpened] = useState<OpenedFile | null>(null);
  const [layout, setLayout] = useState<DiffLayout>('unified');

  useEffect(() => {
    const request = new AbortController();
    client
      .call('nodes.files', { nodeId: node.id }, { signal: request.signal })
      .then((result) => !request.signal.aborted && setFiles(result))
      .catch((cause: unknown) => !request.signal.aborted && setError(cause));
    return () => request.abort();
  }, [client, node.id]);

  const root = useMemo(() => {
    if (!files) return '';
    const paths = [...files.files.map((f) => f.path), ...files.changed.map((f) => f.path)];
    if (project && paths.every((path) => path.startsWith(`${project}/`))) return project;
    return commonFolder(paths);
  }, [files, project]);

  const describeUnknown = useDescribeUnknown(files);
  // A changed file whose content here is not known is marked in the changed list too.
  const unknownOf = useMemo(
    () => new Map((files?.files ?? []).flatMap((file) => (file.known === 'unknown' ? [[file.path, { since: file.unknownSince, reason: file.reason, ...(file.ghost === undefined ? {} : { ghost: file.ghost }) }] as const] : []))),
    [files],
  );

  if (error) return <ErrorBox error={error} what="The files at this node could not be loaded." />;
  if (!files) return <div className="tt-loading files-loading">Loading the files at this node…</div>;
  if (opened)
    return (
      <FileViewer nodeId={node.id} parentId={node.parentId} file={opened} layout={layout} onLayout={setLayout} onBack={() => setOpened(null)} describeUnknown={describeUnknown} />
    );

  return (
    <div className="node-files" data-testid="node-files" data-known={files.known}>
      <StateKnown files={files} root={root} />
      <section className="inspector-section">
        <h3 className="section-title">Changed at this step {files.changed.length > 0 ? <span className="tt-count">{files.changed.length}</span> : null}</h3>
        {files.changed.length === 0 ? (
          <div className="muted">This step changed no files.</div>
        ) : (
          <ul className="changed-files" data-testid="changed-files">
            {files.changed.map((file) => {
              const relative = relativeTo(root, file.path);
              const unknown = unknownOf.get(file.path);
              return (
                <li key={file.path}>
                  <button
                    type="button"
                    className={`file-row is-${file.status}`}
                    data-testid="changed-file"
                    data-path={relative}
                    onClick={() => setOpened({ path: file.path, relative, status: file.status, unknown })}
                  >
                    <FileStatusMark status={file.status} />
                    {unknown ? <UnknownFileMark description={describeUnknown(unknown)} /> : null}
                    <span className="file-row__name">{relative}</span>
                    {file.binary ? <span className="badge">binary</span> : null}
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </section>
      <section className="inspector-section">
        <h3 className="section-title">
          All files here <span className="tt-count">{files.files.length}</span>
        </h3>
        {root ? (
          <code className="node-files__root" title={root}>
            {root}
          </code>
        ) : null}
        {files.files.length === 0 ? (
          <div className="muted">No files are known at this node.</div>
        ) : (
          <FileTree
            files={files.files}
            root={root}
            describeUnknown={describeUnknown}
            onOpen={(file) => setOpened({ path: file.path, relative: file.relative, status: file.status, unknown: file.unknown })}
          />
        )}
      </section>
    </div>
  );
}

/** The sentence for an unknown file, naming its step by label: one lookup over the graph for all the files. */
function useDescribeUnknown(files: NodeFiles | null): DescribeUnknown {
  const graph = useAppState((s) => s.graph);
  return useMemo(() => {
    const steps = new Set<NodeId>();
    for (const file of files?.files ?? []) if (file.known === 'unknown' && file.unknownSince !== null) steps.add(file.unknownSince);
    const labels = new Map<NodeId, string>();
    if (steps.size > 0) for (const node of graph?.nodes ?? []) if (steps.has(node.id)) labels.set(node.id, node.label);
    return (why) => unknownSentence(why, why.since === null ? null : labels.get(why.since));
  }, [files, graph]);
}

const KNOWN_LABEL = { exact: 'Exact', reconstructed: 'Reconstructed', unknown: 'Unknown' } as const;

function StateKnown({ files, root }: { readonly files: NodeFiles; readonly root: string }) {
  const selectNode = useAppState((s) => s.selectNode);
  const since = useNodeSummary(files.unknownSince);
  let text: string;
  switch (files.known) {
    case 'exact':
      text = `An exact snapshot: every file in the folder (${plural(files.files.length, 'file')}), byte for byte.`;
      break;
    case 'reconstructed':
      text = 'Reconstructed from the transcript: the files this session touched, as they were at this step.';
      break;
    case 'unknown': {
      const unknown = files.files.filter((file) => file.known === 'unknown').length;
      text = `Not fully known: files may have changed without a record (a shell command, say).${unknown > 0 ? ` ${plural(unknown, 'file')} marked ? here ${unknown === 1 ? 'has' : 'have'} content that is not known.` : ''}`;
      break;
    }
    default:
      return assertNever(files.known);
  }
  return (
    <div className={`state-known state-known--${files.known}`} data-testid="state-known" data-known={files.known} title={root}>
      <span className={`state-known__badge graph-state graph-state--${files.known}`} aria-hidden="true" />
      <div>
        <strong>{KNOWN_LABEL[files.known]} state.</strong> {text}
        {files.unknownSince !== null ? (
          <div className="state-known__since">
            Unknown since{' '}
            <button type="button" className="link-button" data-testid="unknown-since" onClick={() => void selectNode(files.unknownSince)}>
              {since ? since.label : 'an earlier step'}
            </button>
          </div>
        ) : null}
      </div>
    </div>
  );
}
