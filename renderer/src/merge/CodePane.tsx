import { EditorState, type StateEffect } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { useEffect, useId, useRef } from 'react';
import { useStore } from 'zustand';
import type { PaneHighlights } from './conflict-locations';
import { baseEditorSetup, paneHighlights, paneWordMarks, readOnlyPane, setCurrentConflict, wrapCompartment, wrapping } from './editor-setup';
import type { VersionTitle } from './side-titles';
import { VersionHeading } from './VersionHeading';
import type { TextRange } from './word-changes';
import { mergeWrap } from './wrap-preference';

export interface CodePaneProps {
  readonly side: 'ours' | 'base' | 'theirs';
  readonly heading: VersionTitle;
  /** Null when this side has no such file. */
  readonly text: string | null;
  readonly absent: string;
  readonly highlights: PaneHighlights;
  /** The words this pane's side changed (for the base: the words either side replaced). */
  readonly words: readonly TextRange[];
  /** The conflict the user is on: ringed and scrolled into view. */
  readonly current: number | null;
}

/** One read-only version of the file (ours, base or theirs) with its changes and conflicts highlighted. */
export function CodePane({ side, heading, text, absent, highlights, words, current }: CodePaneProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const wrap = useStore(mergeWrap, (s) => s.wrap);
  const headingId = useId();

  useEffect(() => {
    if (host.current === null || text === null) return;
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: text,
        extensions: [baseEditorSetup(mergeWrap.getState().wrap), readOnlyPane(), paneHighlights(highlights), paneWordMarks(words, side), // Focusable though read-only, so the keyboard can scroll it (and a screen reader reads it by its title).
          EditorView.contentAttributes.of({ 'aria-labelledby': headingId, tabindex: '0' })],
      }),
    });
    view.current = editor;
    return () => {
      view.current = null;
      editor.destroy();
    };
  }, [text, highlights, words, side, headingId]);

  useEffect(() => {
    view.current?.dispatch({ effects: wrapCompartment.reconfigure(wrapping(wrap)) });
  }, [wrap]);

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
    <section className={`merge-pane merge-pane--${side}`} data-testid={`merge-pane-${side}`} aria-labelledby={headingId}>
      <VersionHeading id={headingId} version={side} heading={heading} />
      {text === null ? <div className="merge-pane__absent">{absent}</div> : <div className="merge-pane__editor" ref={host} />}
    </section>
  );
}
