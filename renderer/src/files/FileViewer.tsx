import { useEffect, useState } from 'react';
import type { FileChangeStatus, NodeFileContent, NodeId } from '../../../shared/model';
import { useArborClient } from '../app/app-context';
import { ErrorBox } from '../time-travel/ErrorBox';
import type { DiffLayout } from './DiffView';
import { ABSENT, FileDisplay, LayoutToggle, type FileVersion } from './FileDisplay';
import { FileStatusMark } from './FileStatusMark';
import type { DescribeUnknown } from './FileTree';
import { UnknownFileMark, type UnknownWhy } from './UnknownFileMark';

export interface OpenedFile {
  /** As `nodes.files` lists it. */
  readonly path: string;
  readonly relative: string;
  readonly status?: FileChangeStatus | undefined;
  /** Set when the listing said its content here is not known. */
  readonly unknown?: UnknownWhy | undefined;
}

export function versionOf(content: NodeFileContent, describeUnknown?: DescribeUnknown): FileVersion {
  const version = { text: content.content, exists: content.exists, binary: content.binary, known: content.known !== 'unknown' };
  if (content.known !== 'unknown' || describeUnknown === undefined) return version;
  if (content.notCovered) return { ...version, unknownWhy: 'This state covers only the files the session touched.' };
  return content.reason === undefined ? version : { ...version, unknownWhy: describeUnknown({ since: content.unknownSince ?? null, reason: content.reason }) };
}

/**
 * One file at a node, loaded only when opened: its content, or for a file the node changed, the diff
 * against the node's parent.
 */
export function FileViewer({
  nodeId,
  parentId,
  file,
  layout,
  onLayout,
  onBack,
  describeUnknown,
}: {
  readonly nodeId: NodeId;
  readonly parentId: NodeId | null;
  readonly file: OpenedFile;
  readonly layout: DiffLayout;
  readonly onLayout: (layout: DiffLayout) => void;
  readonly onBack: () => void;
  readonly describeUnknown: DescribeUnknown;
}) {
  const client = useArborClient();
  const [loaded, setLoaded] = useState<{ before: FileVersion | null; after: FileVersion } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const compared = file.status !== undefined && file.status !== 'added' && parentId !== null;

  useEffect(() => {
    const request = new AbortController();
    setLoaded(null);
    setError(null);
    const options = { signal: request.signal };
    void Promise.all([
      client.call('nodes.file', { nodeId, path: file.path }, options),
      compared ? client.call('nodes.file', { nodeId: parentId, path: file.path }, options) : Promise.resolve(null),
    ])
      .then(([here, before]) => {
        if (request.signal.aborted) return;
        const after = versionOf(here, describeUnknown);
        setLoaded({ after, before: before ? versionOf(before, describeUnknown) : file.status === 'added' ? ABSENT : null });
      })
      .catch((cause: unknown) => {
        if (!request.signal.aborted) setError(cause);
      });
    return () => request.abort();
  }, [client, nodeId, parentId, file.path, file.status, compared, describeUnknown]);

  return (
    <div className="file-viewer" data-testid="file-viewer" data-path={file.relative}>
      <div className="file-viewer__bar">
        <button type="button" className="link-button file-viewer__back" onClick={onBack} data-testid="file-back">
          ← Files
        </button>
        <FileStatusMark status={file.status} />
        {file.unknown ? <UnknownFileMark description={describeUnknown(file.unknown)} /> : null}
        <code className="file-viewer__path" title={file.path}>
          {file.relative}
        </code>
        {compared ? <LayoutToggle layout={layout} onChange={onLayout} /> : null}
      </div>
      {file.status && compared ? <div className="file-viewer__caption muted">Changes this step made (against its parent step).</div> : null}
      <div className="file-viewer__body">
        {error ? <ErrorBox error={error} what="The file could not be loaded." /> : null}
        {!error && loaded === null ? <div className="tt-loading">Loading…</div> : null}
        {loaded ? <FileDisplay before={loaded.before} after={loaded.after} layout={layout} /> : null}
      </div>
    </div>
  );
}
