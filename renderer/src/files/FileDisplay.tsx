import { useState } from 'react';
import { formatBytes } from './format-bytes';
import type { DiffLayout } from './DiffView';
import { CodeView, DiffView } from './lazy-editors';

/** Above this, a file waits behind a "show anyway" button: diffing megabytes would freeze the window. */
export const LARGE_FILE_CHARS = 2 * 1024 * 1024;

/** One version of a file, as the service described it. */
export interface FileVersion {
  /** The text; null when absent, binary or unknown. */
  readonly text: string | null;
  readonly exists: boolean;
  readonly binary: boolean;
  /** False when the content at that node is not known. */
  readonly known: boolean;
  /** For content that is not known: why, in a sentence. `text` is then the transcript's unverified replay, if any. */
  readonly unknownWhy?: string;
}

export const ABSENT: FileVersion = { text: null, exists: false, binary: false, known: true };

/**
 * A file at a node, or its change between two nodes: the diff when both versions are text, the one text
 * when only one side has it, a plain sentence for binary, unknown or missing content. Very large texts wait
 * behind a "show anyway" button.
 */
export function FileDisplay({ before, after, layout }: { readonly before: FileVersion | null; readonly after: FileVersion; readonly layout: DiffLayout }) {
  const [forced, setForced] = useState(false);
  const size = Math.max(before?.text?.length ?? 0, after.text?.length ?? 0);
  if (size > LARGE_FILE_CHARS && !forced) {
    return (
      <div className="file-note file-note--large" data-testid="large-file-gate">
        <span>Large file ({formatBytes(size)}): drawing it may take a moment.</span>
        <button type="button" className="secondary-button" onClick={() => setForced(true)}>
          Show anyway
        </button>
      </div>
    );
  }
  if (after.binary || before?.binary) return <div className="file-note">Binary file: not shown as text.</div>;
  if (!after.known) return <Unverified version={after} before={before} layout={layout} />;
  if (before === null) return <Single version={after} />;
  if (!before.known && after.text !== null)
    return (
      <>
        <div className="file-note file-note--warning">The earlier content is not known; this is the file as it is here.</div>
        <CodeView text={after.text} />
      </>
    );
  if (before.text !== null && after.text !== null) return <DiffView before={before.text} after={after.text} layout={layout} />;
  if (after.text !== null)
    return (
      <>
        <div className="file-note file-note--added">New file.</div>
        <CodeView text={after.text} />
      </>
    );
  if (before.text !== null)
    return (
      <>
        <div className="file-note file-note--deleted">Deleted here. Its content before:</div>
        <CodeView text={before.text} />
      </>
    );
  return <Single version={after} />;
}

/** Content not known here: said first, then what replaying the transcript gives, when there is a replay. */
function Unverified({ version, before, layout }: { readonly version: FileVersion; readonly before: FileVersion | null; readonly layout: DiffLayout }) {
  const note = (
    <div className="file-note file-note--warning" data-testid="file-unknown-note">
      The content of this file at this node is not known.{version.unknownWhy ? ` ${version.unknownWhy}` : ''}
      {version.text !== null ? ' Shown: what replaying the transcript gives, which is not known to be right.' : ''}
    </div>
  );
  if (version.text === null) return note;
  return (
    <>
      {note}
      {before?.text != null ? <DiffView before={before.text} after={version.text} layout={layout} /> : <CodeView text={version.text} />}
    </>
  );
}

/** A known version on its own. */
function Single({ version }: { readonly version: FileVersion }) {
  if (!version.exists || version.text === null) return <div className="file-note">The file does not exist at this node.</div>;
  return <CodeView text={version.text} />;
}

export function LayoutToggle({ layout, onChange }: { readonly layout: DiffLayout; readonly onChange: (layout: DiffLayout) => void }) {
  return (
    <div className="segmented" role="group" aria-label="Diff layout" data-testid="diff-layout">
      <button type="button" className={layout === 'unified' ? 'is-on' : ''} aria-pressed={layout === 'unified'} onClick={() => onChange('unified')}>
        Unified
      </button>
      <button type="button" className={layout === 'split' ? 'is-on' : ''} aria-pressed={layout === 'split'} onClick={() => onChange('split')}>
        Side by side
      </button>
    </div>
  );
}
