/**
 * Dependencies point inward (docs/architecture.md#layers): every relative import of every file under lib/ and
 * functions/ is read with the TypeScript parser and checked against the layer of its folder. A file may import its
 * own folder or a folder of a lower layer, never a folder of its own layer or a higher one. The pod-set toolkit
 * (lib/podset) imports no package that could do I/O. The Lambda entry points must not reach the emulator or the
 * local application, even indirectly.
 */
import { describe, expect, it } from '@jest/globals';
import { importEdges, importsOf, packagesOf, sourceFiles } from './importGraph.js';

/** Layer of each top-level folder: higher may import lower. */
const LAYERS: Record<string, number> = {
  'lib/core': 0,
  'lib/api': 1,
  // the pod-set toolkit every pod-managing kind shares (pure, knows no kind)
  'lib/podset': 2,
  // the planner and the adapters are siblings: the planner does no I/O, the adapters make no decisions
  'lib/cloneset': 3,
  'lib/kube': 3,
  'lib/state': 3,
  'lib/requests': 3,
  'lib/reconcile': 4,
  'lib/source': 4,
  // the registrations: each controller's watches, pass, access and settings over the kind-neutral layers below
  'lib/controllers': 5,
  'lib/runtime': 6,
  'lib/admin': 6,
  'lib/emulator': 7,
  'lib/cli': 7,
  infra: 7,
  'lib/local': 8,
  functions: 8,
};

/** `lib/<folder>` or the repository's top-level folder of a path relative to the root. */
function folderOf(path: string): string {
  const parts = path.split('/');
  return parts[0] === 'lib' ? `lib/${parts[1]}` : parts[0];
}

const FILES = [...sourceFiles('lib'), ...sourceFiles('functions')];
const EDGES = importEdges(FILES);

describe('import layers', () => {
  it('reads a non-trivial import graph', () => {
    expect(FILES.length).toBeGreaterThan(80);
    expect(EDGES.length).toBeGreaterThan(200);
  });

  it('gives every folder a layer', () => {
    const unknown = [...new Set(FILES.map(folderOf))].filter((f) => LAYERS[f] === undefined);
    expect(unknown).toEqual([]);
  });

  it('has no import outward or sideways between folders', () => {
    const outward = EDGES.filter(({ from, to }) => {
      const a = folderOf(from);
      const b = folderOf(to);
      return a !== b && !((LAYERS[b] ?? Infinity) < (LAYERS[a] ?? -Infinity));
    }).map(({ from, to }) => `${from} → ${to}`);
    expect(outward).toEqual([]);
  });

  it('keeps the pod-set toolkit pure: no package or built-in module beyond the JSON-patch diff', () => {
    const pure = new Set(['fast-json-patch']);
    const io = sourceFiles('lib/podset')
      .flatMap((file) => packagesOf(file).map((name) => `${file} → ${name}`))
      .filter((edge) => !pure.has(edge.slice(edge.indexOf(' → ') + 3)));
    expect(io).toEqual([]);
  });

  it('keeps the emulator, the local application and the tooling out of every Lambda bundle', () => {
    const reached = new Set<string>();
    const queue = sourceFiles('functions');
    while (queue.length > 0) {
      const file = queue.pop() as string;
      if (reached.has(file)) continue;
      reached.add(file);
      queue.push(...importsOf(file));
    }
    const leaked = [...reached].filter((f) => /^(lib\/emulator|lib\/local|infra)\//.test(f)).sort();
    expect(leaked).toEqual([]);
    expect(reached.has('lib/reconcile/reconcile.ts')).toBe(true);
  });
});
