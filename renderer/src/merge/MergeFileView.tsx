import type { EditorView } from '@codemirror/view';
import { useCallback, useId, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import type { MergeFileEntry, MergePreview } from '../../../shared/operations';
import { CodePane } from './CodePane';
import { conflictsOf, type HunkChoice } from './merge-document';
import type { MergeSession } from './merge-session';
import { ResultEditor } from './ResultEditor';
import { chooseCurrentHunk, goToConflict, HUNK_CHOICE_KEYS, HUNK_CHOICE_LABELS } from './result-editor';
import { SideChoicePanel } from './SideChoicePanel';
import { FileStatusBadges } from './MergeFileList';
import { mergeTitles } from './side-titles';
import { VersionHeading } from './VersionHeading';
import { WrapToggle } from './WrapToggle';

const keyHint = (key: string) => key.replace('Alt-', 'Alt+').replace('Arrow', '');

/** The open file: three read-only versions above the editable result, or a side to choose. */
export function MergeFileView({
  session,
  preview,
  entry,
  onResultView,
}: {
  session: MergeSession;
  preview: MergePreview;
  entry: MergeFileEntry;
  /** The open result editor (null when none), for the view-wide shortcuts. */
  onResultView(view: EditorView | null): void;
}) {
  const progress = useStore(session.store, (s) => s.files[entry.path]);
  const [resultView, setResultView] = useState<EditorView | null>(null);
  const [current, setCurrent] = useState<number | null>(null);
  const onView = useCallback(
    (view: EditorView | null) => {
      setResultView(view);
      onResultView(view);
    },
    [onResultView],
  );
  const material = session.material(entry.path);
  const titles = useMemo(() => mergeTitles(preview), [preview]);
  const resultHeading = useId();

  let body: React.ReactNode;
  if (progress === undefined || progress.load === 'loading') body = <div className="pane-empty">Loading {entry.path}…</div>;
  else if (progress.load === 'error' || material === null) body = <div className="pane-empty is-error">This file could not be loaded.</div>;
  else if (progress.view === 'choice') body = <SideChoicePanel session={session} preview={preview} entry={entry} sides={material.sides} choice={progress.choice} />;
  else if (progress.view === 'notice') body = <FileNotice preview={preview} entry={entry} />;
  else if (material.layout !== null && material.words !== null) {
    const { sides, layout, words } = material;
    body = (
      <div className="merge-file__text">
        <div className="merge-file__panes">
          <CodePane side="ours" heading={titles.ours} text={sides.ours} absent="Ours has no such file." highlights={layout.ours} words={words.ours} current={current} />
          <CodePane side="base" heading={titles.base} text={sides.base} absent="The base has no such file." highlights={layout.base} words={words.base} current={current} />
          <CodePane side="theirs" heading={titles.theirs} text={sides.theirs} absent="Theirs has no such file." highlights={layout.theirs} words={words.theirs} current={current} />
        </div>
        <section className="merge-result" aria-labelledby={resultHeading}>
          <VersionHeading id={resultHeading} version="result" heading={{ ...titles.result, detail: `editable · Apply writes it to ${entry.path} there` }} />
          <ResultEditor key={entry.path} session={session} path={entry.path} onCurrentChange={setCurrent} onView={onView} labelledBy={resultHeading} />
        </section>
      </div>
    );
  }

  const open = progress?.view === 'text' ? progress.openConflicts : 0;
  const total = material?.initial ? conflictsOf(material.initial).length : 0;
  return (
    <div className="merge-file" data-testid="merge-file" data-path={entry.path}>
      <div className="merge-file__toolbar">
        <span className="merge-file__path" title={entry.path}>
          {entry.path}
        </span>
        <FileStatusBadges entry={entry} />
        {progress?.view === 'text' ? (
          <span className={`merge-file__left ${open === 0 ? 'is-done' : ''}`} data-testid="file-conflicts-left">
            {open === 0 ? (total > 0 ? 'All conflicts resolved ✓' : 'Merged cleanly') : `${open} conflict${open === 1 ? '' : 's'} left`}
          </span>
        ) : null}
        <span className="merge-file__spacer" />
        {progress?.view === 'text' ? <WrapToggle /> : null}
        {progress?.view === 'text' && total > 0 ? (
          <div className="merge-file__nav" role="group" aria-label="Conflicts">
            <span className="merge-file__current">{current === null ? '' : `Conflict ${current + 1} of ${total}`}</span>
            <button type="button" className="secondary-button small" title="Previous conflict (Shift+F7 or Alt+↑)" disabled={resultView === null || open === 0} onClick={() => resultView && goToConflict(resultView, -1)} data-testid="conflict-previous">
              ↑ Previous
            </button>
            <button type="button" className="secondary-button small" title="Next conflict (F7 or Alt+↓)" disabled={resultView === null || open === 0} onClick={() => resultView && goToConflict(resultView, 1)} data-testid="conflict-next">
              ↓ Next
            </button>
          </div>
        ) : null}
      </div>
      {progress?.view === 'text' && total > 0 ? (
        <div className="merge-file__actions" role="group" aria-label="Resolve the current conflict">
          <span className="merge-file__actions-label">Current conflict:</span>
          {(Object.keys(HUNK_CHOICE_LABELS) as HunkChoice[]).map((choice) => (
            <button
              key={choice}
              type="button"
              className="secondary-button small"
              title={`${HUNK_CHOICE_LABELS[choice]} for the current conflict (${keyHint(HUNK_CHOICE_KEYS[choice])})`}
              disabled={resultView === null || (current === null && open === 0)}
              onClick={() => resultView && chooseCurrentHunk(resultView, choice)}
              data-testid={`current-${choice}`}
            >
              {HUNK_CHOICE_LABELS[choice]}
            </button>
          ))}
          <span className="merge-file__keys">
            <kbd>Alt</kbd>+<kbd>1</kbd>…<kbd>5</kbd> take · <kbd>F7</kbd> next · <kbd>⇧F7</kbd> previous
          </span>
        </div>
      ) : null}
      {body}
    </div>
  );
}

function FileNotice({ preview, entry }: { preview: MergePreview; entry: MergeFileEntry }) {
  const by = entry.changedBy === 'both' ? 'Both sides' : entry.changedBy === 'ours' ? `Ours (${preview.ours.label})` : `Theirs (${preview.theirs.label})`;
  const text =
    entry.status === 'deleted'
      ? `${by} deleted this file and the other side left it unchanged: the merge deletes it.`
      : `${by} changed this binary file: the merge takes that version.`;
  return <div className="merge-notice">{text}</div>;
}
