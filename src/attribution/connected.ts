/**
 * Connected components of sessions and commits (metrics.md §1b: a group is one), as a union–find over string
 * node ids: `link(a, b)` puts two nodes in one component, `rootOf(x)` names it (the same string for every node of a
 * component). A node is its own component until linked.
 */
export function connected(): { link: (a: string, b: string) => void; rootOf: (x: string) => string } {
  const parent = new Map<string, string>();
  const rootOf = (x: string): string => {
    if (!parent.has(x)) parent.set(x, x);
    let r = x;
    while (parent.get(r) !== r) r = parent.get(r)!;
    parent.set(x, r);
    return r;
  };
  return { link: (a, b) => parent.set(rootOf(a), rootOf(b)), rootOf };
}
