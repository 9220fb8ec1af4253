/**
 * CodeMirror loads only when a file or diff is first shown: it is as large as the rest of the app, and the
 * graph must not wait for it.
 */
import { lazy, Suspense } from 'react';
import type { DiffLayout } from './DiffView';

const LazyCodeView = lazy(() => import('./CodeView').then((module) => ({ default: module.CodeView })));
const LazyDiffView = lazy(() => import('./DiffView').then((module) => ({ default: module.DiffView })));

const fallback = <div className="tt-loading">Opening the viewer…</div>;

export function CodeView(props: { readonly text: string }) {
  return (
    <Suspense fallback={fallback}>
      <LazyCodeView {...props} />
    </Suspense>
  );
}

export function DiffView(props: { readonly before: string; readonly after: string; readonly layout: DiffLayout }) {
  return (
    <Suspense fallback={fallback}>
      <LazyDiffView {...props} />
    </Suspense>
  );
}
