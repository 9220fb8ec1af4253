import { useCallback, useRef, type PointerEvent } from 'react';

interface PaneSplitterProps {
  readonly label: string;
  /** +1 when dragging right grows the pane (left pane), -1 when it shrinks it (right pane). */
  readonly direction: 1 | -1;
  readonly width: number;
  readonly onResize: (width: number) => void;
}

/** A vertical drag handle between two panes; arrow keys resize too. */
export function PaneSplitter({ label, direction, width, onResize }: PaneSplitterProps) {
  const start = useRef<{ x: number; width: number } | null>(null);
  const onPointerDown = useCallback(
    (e: PointerEvent<HTMLDivElement>) => {
      start.current = { x: e.clientX, width };
      e.currentTarget.setPointerCapture(e.pointerId);
    },
    [width],
  );
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!start.current) return;
    onResize(start.current.width + direction * (e.clientX - start.current.x));
  };
  const onPointerUp = () => {
    start.current = null;
  };
  return (
    <div
      className="pane-splitter"
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={Math.round(width)}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={(e) => {
        if (e.key === 'ArrowLeft') onResize(width - direction * 24);
        else if (e.key === 'ArrowRight') onResize(width + direction * 24);
      }}
    />
  );
}
