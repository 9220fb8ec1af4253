import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { readOnlyCode } from './code-theme';

/** One file's text, read-only in CodeMirror (which draws only the lines in view, so big files scroll fine). */
export function CodeView({ text }: { readonly text: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!host.current) return;
    const view = new EditorView({ parent: host.current, state: EditorState.create({ doc: text, extensions: readOnlyCode() }) });
    return () => view.destroy();
  }, [text]);
  return <div className="code-view" data-testid="code-view" ref={host} />;
}
