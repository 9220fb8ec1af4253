/**
 * Which rows' details to have ready around the mounted ones. The window's edges snap to blocks of `block`
 * rows, so a scroll asks for a block at a time as it crosses an edge, not for a row or two every frame
 * (each ask is a message to encode and send: in a profiled scroll the sends cost nearly as much script time
 * as rendering the rows' markdown).
 */
export function prefetchWindow(first: number, last: number, count: number, block: number): { from: number; to: number } {
  if (count <= 0 || last < first) return { from: 0, to: -1 };
  const from = Math.max(0, Math.floor((first - block) / block) * block);
  const to = Math.min(count - 1, (Math.floor((last + block) / block) + 1) * block - 1);
  return { from, to };
}
