import { useEffect, useMemo, useState } from 'react';
import type { FileDiffEntry, NodeDiff, NodeId } from '../../../shared/model';
import { useAppState, useArborClient } from '../app/app-context';
import { plural } from '../app/format';
import type { DiffLayout } from '../files/DiffView';
import { ABSENT, FileDisplay, LayoutToggle, type FileVersion } from '../files/FileDisplay';
import { commonFolder, relativeTo } from '../files/file-tree';
import { FileStatusMark } from '../files/FileStatusMark';
import '../files/files.css';
import { ErrorBox } from './ErrorBox';
import { Modal } from './Modal';
import { NodeName, useNodeSummary } from './use-node-summary';

function side(text: string | null, present: boolean, entry: FileDiffEntry): FileVersion {
  if (!present) return ABSENT;
  return { text, exists: true, binary: entry.binary === true, known: !(entry.unknown === true && text === null) };
}

/** Both versions of a differing file; `nodes.diff` already carries them, the diff is drawn only when chosen. */
export function diffSides(entry: FileDiffEntry): { before: FileVersion; after: FileVersion } {
  return { before: side(entry.before, entry.status !== 'added', entry), after: side(entry.after, entry.status !== 'deleted', entry) };
}

/** Compare two nodes' workspace states: the files that differ, and one file's diff at a time. */
export function CompareDialog({ nodeIdA, nodeIdB, onClose }: { readonly nodeIdA: NodeId; readonly nodeIdB: NodeId; readonly onClose: () => void }) {
  const client = useArborClient();
  const openTimeTravel = useAppState((s) => s.openTimeTravel);
  const project = useAppState((s) => s.graph?.session.project ?? null);
  const nodeA = useNodeSummary(nodeIdA);
  const nodeB = useNodeSummary(nodeIdB);
  const [diff, setDiff] = useState<NodeDiff | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [layout, setLayout] = useState<DiffLayout>('split');

  useEffect(() => {
    const request = new AbortController();
    setDiff(null);
    setError(null);
    client
      .call('nodes.diff', { nodeIdA, nodeIdB }, { signal: request.signal })
      .then((result) => {
        if (request.signal.aborted) return;
        setDiff(result);
        setChosen(result.files[0]?.path ?? null);
      })
      .catch((cause: unknown) => !request.signal.aborted && setError(cause));
    return () => request.abort();
  }, [client, nodeIdA, nodeIdB]);

  const root = useMemo(() => {
    const paths = diff?.files.map((f) => f.path) ?? [];
    if (project && paths.every((path) => path.startsWith(`${project}/`))) return project;
    return paths.length === 1 ? paths[0]!.slice(0, paths[0]!.lastIndexOf('/')) : commonFolder(paths);
  }, [diff, project]);
  const entry = diff?.files.find((f) => f.path === chosen) ?? null;
  const counts = useMemo(() => {
    const c = { added: 0, modified: 0, deleted: 0 };
    for (const f of diff?.files ?? []) c[f.status]++;
    return c;
  }, [diff]);

  const title = (
    <>
      Compare <NodeName node={nodeA} nodeId={nodeIdA} /> → <NodeName node={nodeB} nodeId={nodeIdB} />
    </>
  );
  return (
    <Modal
      title={title}
      onClose={onClose}
      size="wide"
      testId="compare-dialog"
      footer={
        <>
          <button type="button" className="secondary-button" data-testid="compare-swap" onClick={() => openTimeTravel({ kind: 'compare', nodeIdA: nodeIdB, nodeIdB: nodeIdA })}>
            Swap sides
          </button>
          <button type="button" className="primary-button" data-autofocus onClick={onClose}>
            Close
          </button>
        </>
      }
    >
      {error ? <ErrorBox error={error} what="The two states could not be compared." /> : null}
      {!error && diff === null ? <div className="tt-loading">Comparing the two workspace states…</div> : null}
      {diff && diff.files.length === 0 ? <div className="tt-empty">The two nodes have the same files with the same content.</div> : null}
      {diff && diff.files.length > 0 ? (
        <div className="compare" data-testid="compare-view">
          <div className="compare__files">
            <div className="compare__summary muted">
              {plural(diff.files.length, 'file')}: {counts.added} added, {counts.modified} modified, {counts.deleted} deleted
            </div>
            <ul className="changed-files" data-testid="compare-files">
              {diff.files.map((file) => (
                <li key={file.path}>
                  <button
                    type="button"
                    className={`file-row is-${file.status}${file.path === chosen ? ' is-chosen' : ''}`}
                    data-testid="compare-file"
                    data-path={relativeTo(root, file.path)}
                    aria-current={file.path === chosen}
                    onClick={() => setChosen(file.path)}
                    title={file.path}
                  >
                    <FileStatusMark status={file.status} unknown={file.unknown} />
                    <span className="file-row__name">{relativeTo(root, file.path)}</span>
                  </button>
                </li>
              ))}
            </ul>
          </div>
          <div className="compare__diff">
            {entry ? (
              <>
                <div className="file-viewer__bar">
                  <FileStatusMark status={entry.status} unknown={entry.unknown} />
                  <code className="file-viewer__path">{relativeTo(root, entry.path)}</code>
                  {entry.unknown ? <span className="badge badge--missing">content not known on one side</span> : null}
                  <LayoutToggle layout={layout} onChange={setLayout} />
                </div>
                <div className="file-viewer__body">
                  <FileDisplay key={entry.path} {...diffSides(entry)} layout={layout} />
                </div>
              </>
            ) : null}
          </div>
        </div>
      ) : null}
    </Modal>
  );
}
