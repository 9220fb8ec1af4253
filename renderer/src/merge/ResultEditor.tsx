import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { EditorView, keymap } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { useStore } from 'zustand';
import { currentConflict, editorCompartment } from './merge-document';
import type { MergeSession } from './merge-session';
import { baseEditorSetup, wrapCompartment, wrapping } from './editor-setup';
import { resultEditorExtensions } from './result-editor';
import { mergeWrap } from './wrap-preference';

export interface ResultEditorProps {
  readonly session: MergeSession;
  readonly path: string;
  /** The conflict the cursor is on (or the next open one), whenever it changes. */
  onCurrentChange(ordinal: number | null): void;
  /** The live editor, for the toolbar's actions (null when it goes away). */
  onView(view: EditorView | null): void;
  /** The id of the result's heading, which names the editor for screen readers. */
  readonly labelledBy: string;
}

/**
 * The editable merge result. Its document lives in the session (so undo history and edits survive
 * switching files); every change is handed back there, and the view itself keeps no copy.
 */
export function ResultEditor({ session, path, onCurrentChange, onView, labelledBy }: ResultEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const callbacks = useRef({ onCurrentChange, onView });
  callbacks.current = { onCurrentChange, onView };
  const view = useRef<EditorView | null>(null);
  const wrap = useStore(mergeWrap, (s) => s.wrap);

  useEffect(() => {
    const document = session.document(path);
    if (host.current === null || document === undefined) return;
    let lastCurrent: number | null = null;
    const report = (ordinal: number | null) => {
      if (ordinal === lastCurrent) return;
      lastCurrent = ordinal;
      callbacks.current.onCurrentChange(ordinal);
    };
    const onScreen = [
      baseEditorSetup(mergeWrap.getState().wrap),
      history(),
      resultEditorExtensions(),
      keymap.of([...defaultKeymap, ...historyKeymap]),
      EditorView.contentAttributes.of({ 'aria-labelledby': labelledBy }),
      EditorView.updateListener.of((update) => {
        if (!update.docChanged && !update.selectionSet) return;
        session.store.getState().documentChanged(path, update.state);
        report(currentConflict(update.state)?.ordinal ?? null);
      }),
    ];
    const state = document.update({ effects: editorCompartment.reconfigure(onScreen) }).state;
    const editor = new EditorView({ parent: host.current, state });
    view.current = editor;
    callbacks.current.onView(editor);
    report(currentConflict(state)?.ordinal ?? null);
    return () => {
      // Keep the newest state (selection, history) for when the file opens again.
      session.store.getState().documentChanged(path, editor.state);
      callbacks.current.onView(null);
      view.current = null;
      editor.destroy();
    };
  }, [session, path, labelledBy]);

  useEffect(() => {
    view.current?.dispatch({ effects: wrapCompartment.reconfigure(wrapping(wrap)) });
  }, [wrap]);

  return <div className="merge-result__editor" data-testid="merge-result" ref={host} />;
}
