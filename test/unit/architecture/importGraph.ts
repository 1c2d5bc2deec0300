/**
 * The repository's import graph as the architecture tests read it (docs/architecture.md#layers): every `.ts` file of
 * a folder, and each file's imports (static, type-only, re-exports and dynamic) parsed with the TypeScript parser —
 * relative ones as root-relative `.ts` paths, packages as written. One reader, so the layer test and the cycle test
 * see the same edges.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** One import: `from` imports `to` (both root-relative `.ts` paths). */
export interface ImportEdge {
  from: string;
  to: string;
}

/** Every `.ts` file under `dir` (root-relative), sorted. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)))
    .sort();
}

/** Every module specifier (static, type-only, re-exports and dynamic) one file imports, as written. */
function specifiersOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true);
  return info.importedFiles.map((f) => f.fileName);
}

/** Relative imports (static, type-only, re-exports and dynamic) of one file, as root-relative `.ts` paths. */
export function importsOf(file: string): string[] {
  return specifiersOf(file)
    .filter((name) => name.startsWith('.'))
    .map((name) => relative(ROOT, resolve(ROOT, dirname(file), name)).replace(/\.js$/, '.ts'));
}

/** Packages and built-in modules one file imports (every specifier that is not relative), as written. */
export function packagesOf(file: string): string[] {
  return specifiersOf(file).filter((name) => !name.startsWith('.'));
}

/** The import edges of `files`. */
export function importEdges(files: readonly string[]): ImportEdge[] {
  return files.flatMap((from) => importsOf(from).map((to) => ({ from, to })));
}
