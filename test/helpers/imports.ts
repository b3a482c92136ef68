// How the structure tests read the code: the relative imports of a source text, the source files
// of a folder, and the first cycle of a graph (test/architecture.test.ts, test/admin-imports.test.ts).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Every relative module a source text imports or re-exports (static, type-only, side-effect or dynamic). */
export function relativeImports(source: string): string[] {
  const found: string[] = [];
  const patterns = [
    // import x from './a'; import type { X } from '../b'; export { y } from './c' (over lines)
    /^\s*(?:import|export)\b[^;'"]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]/gm,
    // import './side-effect.css'
    /^\s*import\s*['"](\.{1,2}\/[^'"]+)['"]/gm,
    // import('./lazy.tsx')
    /\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const match of source.matchAll(pattern)) found.push(match[1]!);
  return found;
}

/** The relative modules a source text imports as types only (`import type … from`): erased, no code follows them. */
export function typeOnlyImports(source: string): string[] {
  return [...source.matchAll(/^\s*import\s+type\b[^;'"]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]/gm)].map((match) => match[1]!);
}

/** The .ts and .tsx files under a folder, as paths joined to it. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The first cycle found, as a path of nodes from one back to itself; null when there is none. */
export function findCycle(graph: ReadonlyMap<string, Iterable<string>>): string[] | null {
  const done = new Set<string>();
  const path: string[] = [];
  function visit(node: string): string[] | null {
    const at = path.indexOf(node);
    if (at !== -1) return [...path.slice(at), node];
    if (done.has(node)) return null;
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    done.add(node);
    return null;
  }
  for (const node of graph.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return null;
}
