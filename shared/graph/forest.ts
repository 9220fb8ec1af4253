/**
 * A forest over integer indices, stored as flat arrays (CSR children lists).
 * Sessions reach tens of thousands of nodes and chains 50k deep, so every walk here is a loop, never
 * recursion, and the arrays are typed so they cross a worker boundary cheaply.
 */

export interface Forest {
  readonly size: number;
  /** Parent index, or -1 at a root. */
  readonly parent: Int32Array;
  /** Children of i are children[childStart[i] .. childStart[i + 1]). */
  readonly childStart: Int32Array;
  readonly children: Int32Array;
  /** Roots in index order. */
  readonly roots: Int32Array;
}

/** Builds the children lists from parent pointers; children keep index order. */
export function forestFromParents(parent: Int32Array): Forest {
  const size = parent.length;
  const childStart = new Int32Array(size + 1);
  let rootCount = 0;
  for (let i = 0; i < size; i++) {
    const p = parent[i]!;
    if (p < 0) rootCount++;
    else childStart[p + 1]!++;
  }
  for (let i = 0; i < size; i++) childStart[i + 1]! += childStart[i]!;
  const fill = childStart.slice(0, size);
  const children = new Int32Array(childStart[size]!);
  const roots = new Int32Array(rootCount);
  let r = 0;
  for (let i = 0; i < size; i++) {
    const p = parent[i]!;
    if (p < 0) roots[r++] = i;
    else children[fill[p]!++] = i;
  }
  return { size, parent, childStart, children, roots };
}

export function childCount(forest: Forest, i: number): number {
  return forest.childStart[i + 1]! - forest.childStart[i]!;
}

export function firstChild(forest: Forest, i: number): number {
  return childCount(forest, i) > 0 ? forest.children[forest.childStart[i]!]! : -1;
}

/** Indices in breadth-first order from the roots; a node not reached (a cycle) is absent. */
export function breadthFirstOrder(forest: Forest): Int32Array {
  const order = new Int32Array(forest.size);
  let head = 0;
  let tail = 0;
  for (const root of forest.roots) order[tail++] = root;
  while (head < tail) {
    const node = order[head++]!;
    const end = forest.childStart[node + 1]!;
    for (let c = forest.childStart[node]!; c < end; c++) order[tail++] = forest.children[c]!;
  }
  return order.subarray(0, tail);
}

/** Subtree sizes (the node itself included), summed bottom-up over the breadth-first order. */
export function subtreeSizes(forest: Forest, order: Int32Array = breadthFirstOrder(forest)): Int32Array {
  const size = new Int32Array(forest.size).fill(1);
  for (let k = order.length - 1; k >= 0; k--) {
    const node = order[k]!;
    const p = forest.parent[node]!;
    if (p >= 0) size[p]! += size[node]!;
  }
  return size;
}

/**
 * Turns parent pointers that may contain cycles into a forest: nodes unreachable from a root sit on
 * (or hang off) a cycle; the first such node in index order is cut loose as a new root, repeatedly.
 * Mutates `parent`; returns its forest (the one built to find the cycles, when there were none).
 */
export function breakCycles(parent: Int32Array): Forest {
  const forest = forestFromParents(parent);
  const reached = new Uint8Array(parent.length);
  let reachedCount = 0;
  const stack: number[] = [];
  const mark = (start: number): void => {
    stack.push(start);
    while (stack.length > 0) {
      const node = stack.pop()!;
      reached[node] = 1;
      reachedCount++;
      const end = forest.childStart[node + 1]!;
      for (let c = forest.childStart[node]!; c < end; c++) {
        const child = forest.children[c]!;
        if (reached[child] === 0) stack.push(child);
      }
    }
  };
  for (const root of forest.roots) mark(root);
  if (reachedCount === parent.length) return forest;
  // The old children lists still hold the cut node's subtree, which is all `mark` needs.
  for (let i = 0; i < parent.length; i++) {
    if (reached[i] !== 0) continue;
    parent[i] = -1;
    mark(i);
  }
  return forestFromParents(parent);
}
