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

/** A file as `nodes.file` (asked with `replayed`) gave it: for content not known, the unverified replay's text. */
export function versionOf(content: NodeFileContent): FileVersion {
  const text = content.known === 'unknown' && typeof content.replayed === 'string' ? content.replayed : content.content;
  return { text, exists: content.exists, binary: content.binary, known: content.known !== 'unknown' };
}

/** Why the service says a file's content is not known, in a sentence; undefined when it is known. */
function unknownWhy(content: NodeFileContent, describeUnknown: DescribeUnknown): string | undefined {
  if (content.known !== 'unknown') return undefined;
  if (content.notCovered) return 'The state here does not cover it (a reconstruction covers only the files the session touched).';
  return content.reason === undefined ? undefined : describeUnknown({ since: content.unknownSince ?? null, reason: content.reason, ...(content.ghost === undefined ? {} : { ghost: content.ghost }) });
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
  const [loaded, setLoaded] = useState<{ before: FileVersion | null; after: FileVersion; here: NodeFileContent } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const compared = file.status !== undefined && file.status !== 'added' && parentId !== null;

  useEffect(() => {
    const request = new AbortController();
    setLoaded(null);
    setError(null);
    const options = { signal: request.signal };
    // With the replay of content that is not known, so the view can still show what the step did (labelled).
    void Promise.all([
      client.call('nodes.file', { nodeId, path: file.path, replayed: true }, options),
      compared ? client.call('nodes.file', { nodeId: parentId, path: file.path, replayed: true }, options) : Promise.resolve(null),
    ])
      .then(([here, before]) => {
        if (request.signal.aborted) return;
        setLoaded({ here, after: versionOf(here), before: before ? versionOf(before) : file.status === 'added' ? ABSENT : null });
      })
      .catch((cause: unknown) => {
        if (!request.signal.aborted) setError(cause);
      });
    return () => request.abort();
  }, [client, nodeId, parentId, file.path, file.status, compared]);

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
        {loaded ? <FileDisplay before={loaded.before} after={{ ...loaded.after, unknownWhy: unknownWhy(loaded.here, describeUnknown) }} layout={layout} /> : null}
      </div>
    </div>
  );
}
