import { EditorState, type StateEffect } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import type { PaneHighlights } from './conflict-locations';
import { baseEditorSetup, paneHighlights, readOnlyPane, setCurrentConflict } from './editor-setup';

export interface CodePaneProps {
  readonly side: 'ours' | 'base' | 'theirs';
  readonly title: string;
  readonly subtitle?: string;
  /** Null when this side has no such file. */
  readonly text: string | null;
  readonly absent: string;
  readonly highlights: PaneHighlights;
  /** The conflict the user is on: ringed and scrolled into view. */
  readonly current: number | null;
}

/** One read-only version of the file (ours, base or theirs) with its changes and conflicts highlighted. */
export function CodePane({ side, title, subtitle, text, absent, highlights, current }: CodePaneProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);

  useEffect(() => {
    if (host.current === null || text === null) return;
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({ doc: text, extensions: [baseEditorSetup(), readOnlyPane(), paneHighlights(highlights)] }),
    });
    view.current = editor;
    return () => {
      view.current = null;
      editor.destroy();
    };
  }, [text, highlights]);

  useEffect(() => {
    const editor = view.current;
    if (editor === null) return;
    const span = current === null ? undefined : highlights.conflicts[current];
    const effects: StateEffect<unknown>[] = [setCurrentConflict.of(current)];
    if (span !== undefined && editor.state.doc.lines > 0) {
      const line = editor.state.doc.line(Math.min(editor.state.doc.lines, span.line + 1));
      effects.push(EditorView.scrollIntoView(line.from, { y: 'center' }));
    }
    editor.dispatch({ effects });
  }, [current, highlights, text]);

  return (
    <section className={`merge-pane merge-pane--${side}`} data-testid={`merge-pane-${side}`} aria-label={title}>
      <header className="merge-pane__head">
        <span className={`merge-side-dot merge-side-dot--${side}`} aria-hidden="true" />
        <span className="merge-pane__title">{title}</span>
        {subtitle ? (
          <span className="merge-pane__subtitle" title={subtitle}>
            {subtitle}
          </span>
        ) : null}
      </header>
      {text === null ? <div className="merge-pane__absent">{absent}</div> : <div className="merge-pane__editor" ref={host} />}
    </section>
  );
}
