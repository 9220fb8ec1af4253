/**
 * Where the splitters may be: the sessions list and the inspector keep their widths as the user set them,
 * but never so wide that the graph between them is squeezed below CENTRE_MIN or a pane is pushed off-screen;
 * a narrow window shrinks both sides in proportion, down to their floors.
 */
export interface PaneWidths {
  readonly left: number;
  readonly right: number;
}

export const SPLITTERS = 10;
export const CENTRE_MIN = 240;
export const LEFT_RANGE = { min: 200, max: 600, floor: 150 } as const;
export const RIGHT_RANGE = { min: 280, max: 900, floor: 200 } as const;
export const DEFAULT_PANES: PaneWidths = { left: 300, right: 440 };

const clamp = (n: number, min: number, max: number) => Math.max(min, Math.min(max, n));

/** The widths to show in a window `width` wide: the user's own, or as close to them as fits. */
export function fitPanes(panes: PaneWidths, width: number): PaneWidths {
  const left = clamp(panes.left, LEFT_RANGE.min, LEFT_RANGE.max);
  const right = clamp(panes.right, RIGHT_RANGE.min, RIGHT_RANGE.max);
  const room = Math.max(0, width - SPLITTERS - CENTRE_MIN);
  if (left + right <= room) return { left, right };
  const scale = room / (left + right);
  return { left: Math.max(LEFT_RANGE.floor, Math.floor(left * scale)), right: Math.max(RIGHT_RANGE.floor, Math.floor(right * scale)) };
}

/** A splitter drag: the dragged side follows the pointer as far as the other side and the graph allow. */
export function resizePane(panes: PaneWidths, side: 'left' | 'right', wanted: number, width: number): PaneWidths {
  const shown = fitPanes(panes, width);
  const other = side === 'left' ? shown.right : shown.left;
  const range = side === 'left' ? LEFT_RANGE : RIGHT_RANGE;
  const most = Math.max(range.floor, Math.min(range.max, width - SPLITTERS - CENTRE_MIN - other));
  const next = Math.round(clamp(wanted, Math.min(range.min, most), most));
  return side === 'left' ? { left: next, right: shown.right } : { left: shown.left, right: next };
}
