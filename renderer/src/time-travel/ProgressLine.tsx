import type { OperationProgress } from './use-operation-progress';

/** "Writing files 12 / 40" with a bar, or an indeterminate line before the first event. */
export function ProgressLine({ label, progress }: { readonly label: string; readonly progress: OperationProgress | null }) {
  const determinate = progress !== null && progress.total > 0;
  return (
    <div className="tt-progress" role="status" data-testid="operation-progress">
      <span className="tt-progress__label">
        {label}
        {progress ? ` — ${progress.phase}` : '…'}
        {determinate ? ` ${progress.done} / ${progress.total}` : ''}
      </span>
      {determinate ? <progress className="tt-progress__bar" max={progress.total} value={progress.done} /> : <progress className="tt-progress__bar" />}
    </div>
  );
}
