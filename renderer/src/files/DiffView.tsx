import { MergeView, unifiedMergeView } from '@codemirror/merge';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { readOnlyCode } from './code-theme';

export type DiffLayout = 'unified' | 'split';

const COLLAPSE = { margin: 3, minSize: 8 } as const;
/** A bound on diff work, so a pathological pair of files cannot hang the window. */
const DIFF_CONFIG = { scanLimit: 2000, timeout: 500 } as const;

/** Two versions of a file: side by side (MergeView) or interleaved (unifiedMergeView), read-only. */
export function DiffView({ before, after, layout }: { readonly before: string; readonly after: string; readonly layout: DiffLayout }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const parent = host.current;
    if (!parent) return;
    if (layout === 'split') {
      const view = new MergeView({
        parent,
        a: { doc: before, extensions: [readOnlyCode(), EditorView.editable.of(false)] },
        b: { doc: after, extensions: [readOnlyCode(), EditorView.editable.of(false)] },
        gutter: true,
        highlightChanges: true,
        collapseUnchanged: COLLAPSE,
        diffConfig: DIFF_CONFIG,
      });
      return () => view.destroy();
    }
    const view = new EditorView({
      parent,
      state: EditorState.create({
        doc: after,
        extensions: [
          readOnlyCode(),
          EditorView.editable.of(false),
          unifiedMergeView({ original: before, mergeControls: false, gutter: true, collapseUnchanged: COLLAPSE, diffConfig: DIFF_CONFIG }),
        ],
      }),
    });
    return () => view.destroy();
  }, [before, after, layout]);
  return <div className={`diff-view diff-view--${layout}`} data-testid="diff-view" data-layout={layout} ref={host} />;
}
