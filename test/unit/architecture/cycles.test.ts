/**
 * No import cycle inside lib/ (docs/architecture.md#layers): the layer test forbids cycles between folders, this one
 * forbids them between files of one folder too, type-only imports included — a cycle makes the files one unit that
 * cannot be read, tested or moved apart. Each strongly connected component of the file graph is reported as one of
 * its shortest cycles.
 */
import { describe, expect, it } from '@jest/globals';
import { importEdges, sourceFiles, type ImportEdge } from './importGraph.js';

/** Adjacency lists of `edges`, restricted to `files`. */
function adjacency(files: readonly string[], edges: readonly ImportEdge[]): Map<string, string[]> {
  const known = new Set(files);
  const out = new Map<string, string[]>(files.map((f) => [f, []]));
  for (const { from, to } of edges) if (known.has(from) && known.has(to)) out.get(from)?.push(to);
  return out;
}

/** Strongly connected components with more than one file, or a file importing itself (Tarjan). */
function cyclicComponents(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string | undefined;
    do {
      w = stack.pop();
      if (w === undefined) break;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return components;
}

/** A shortest cycle through the first file of `component`, as `a → b → a` (breadth-first in the component). */
function shortestCycle(graph: Map<string, string[]>, component: readonly string[]): string {
  const start = component[0];
  const inside = new Set(component);
  const parent = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift() as string;
    for (const w of graph.get(v) ?? []) {
      if (!inside.has(w)) continue;
      if (w === start) {
        const path: string[] = [];
        for (let u: string | undefined = v; u !== undefined && u !== start; u = parent.get(u))
          path.unshift(u);
        return [start, ...path, start].join(' → ');
      }
      if (!parent.has(w)) {
        parent.set(w, v);
        queue.push(w);
      }
    }
  }
  return component.join(' ⇄ ');
}

const FILES = sourceFiles('lib');
const GRAPH = adjacency(FILES, importEdges(FILES));

describe('import cycles', () => {
  it('reads the import graph of lib/', () => {
    expect(FILES.length).toBeGreaterThan(80);
    expect([...GRAPH.values()].flat().length).toBeGreaterThan(200);
  });

  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts', 'd.ts']],
      ['d.ts', []],
    ]);
    const components = cyclicComponents(graph);
    expect(components).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    expect(shortestCycle(graph, components[0])).toBe('a.ts → b.ts → c.ts → a.ts');
  });

  it('has no import cycle inside lib/, type-only imports included', () => {
    const cycles = cyclicComponents(GRAPH).map(
      (component) => `${component.length} files: ${shortestCycle(GRAPH, component)}`,
    );
    expect(cycles).toEqual([]);
  });
});
