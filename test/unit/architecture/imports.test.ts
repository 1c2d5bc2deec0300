/**
 * Dependencies point inward (docs/architecture.md#layers): every relative import of every file under lib/ and
 * functions/ is read with the TypeScript parser and checked against the layer of its folder. A file may import its
 * own folder or a folder of a lower layer, never a folder of its own layer or a higher one. The pod-set toolkit
 * (lib/podset) imports no package that could do I/O; no controller folder imports another (the registry,
 * lib/controllers/index.ts, lists them all), and nothing under a controller's plan/ does I/O. The Lambda entry points must not reach the emulator or the
 * local application, even indirectly.
 */
import { describe, expect, it } from '@jest/globals';
import { importEdges, importsOf, packagesOf, sourceFiles } from './importGraph.js';

/** Layer of each top-level folder: higher may import lower. */
const LAYERS: Record<string, number> = {
  'lib/core': 0,
  'lib/api': 1,
  // the pure pod-set toolkit and the adapters are siblings: the toolkit does no I/O, the adapters make no decisions
  'lib/podset': 2,
  'lib/kube': 2,
  'lib/state': 2,
  'lib/requests': 2,
  // the kind-neutral machinery: the sources (given watch specs) and the reconcile loop (given a pass)
  'lib/source': 3,
  'lib/reconcile': 3,
  // the registrations: each controller's watches, pass, access and settings; lib/controllers/index.ts lists them
  'lib/controllers': 4,
  'lib/runtime': 5,
  'lib/admin': 5,
  'lib/emulator': 6,
  'lib/cli': 6,
  infra: 6,
  'lib/local': 7,
  functions: 7,
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

  it('keeps controller folders apart: no lib/controllers/<a> imports lib/controllers/<b>', () => {
    const controllerOf = (path: string): string | undefined => {
      const m = /^lib\/controllers\/([^/]+)\//.exec(path);
      return m ? m[1] : undefined;
    };
    const across = EDGES.filter(({ from, to }) => {
      const a = controllerOf(from);
      const b = controllerOf(to);
      return a !== undefined && b !== undefined && a !== b;
    }).map(({ from, to }) => `${from} → ${to}`);
    expect(across).toEqual([]);
  });

  it("keeps every controller's plan/ pure: no I/O folder, built-in I/O module or I/O package", () => {
    const IO_FOLDERS = /^lib\/(kube|state|requests|source)\//;
    const IO_PACKAGES =
      /^(node:)?(fs|net|http|https|child_process)(\/|$)|^@aws-sdk\/|^@kubernetes\/client-node$/;
    const plans = FILES.filter((f) => /^lib\/controllers\/[^/]+\/plan\//.test(f));
    expect(plans.length).toBeGreaterThan(10);
    const io = [
      ...EDGES.filter(({ from, to }) => plans.includes(from) && IO_FOLDERS.test(to)).map(
        ({ from, to }) => `${from} → ${to}`,
      ),
      ...plans.flatMap((file) =>
        packagesOf(file)
          .filter((name) => IO_PACKAGES.test(name))
          .map((name) => `${file} → ${name}`),
      ),
    ];
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
