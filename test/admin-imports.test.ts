// The admin console (client/admin/) stays a set of small files with no import cycles, so that a
// screen can be added, read or moved on its own.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const ADMIN = join(ROOT, 'client', 'admin');
const MAX_LINES = 300;

/** Every relative module a source text imports or re-exports (static, side-effect or dynamic). */
function relativeImports(source: string): string[] {
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

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** file → the files of client/admin it imports (imports leaving the folder cannot close a cycle in it). */
function adminImportGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(ADMIN)) {
    const targets = relativeImports(readFileSync(file, 'utf8')).map((specifier) => resolve(dirname(file), specifier));
    graph.set(
      file,
      targets.filter((target) => target.startsWith(ADMIN + '/')),
    );
  }
  return graph;
}

/** The first cycle found, as a path of files from one back to itself; null when there is none. */
function findCycle(graph: ReadonlyMap<string, readonly string[]>): string[] | null {
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

test('the import parser finds static, type-only, multi-line, re-exported, side-effect and dynamic imports', () => {
  const source = [
    "import { useState } from 'react';",
    "import { a } from './a.ts';",
    "import type { B } from '../b.ts';",
    'import {',
    '  c,',
    '  type C,',
    "} from './c/c.tsx';",
    "export { d } from './d.ts';",
    "export type { E } from './e.ts';",
    "import './f.css';",
    "const lazy = () => import('./g.tsx');",
    "// a comment that says 'from ./nothing' is not an import",
  ].join('\n');
  expect(relativeImports(source).sort()).toEqual(['../b.ts', './a.ts', './c/c.tsx', './d.ts', './e.ts', './f.css', './g.tsx']);
});

test('the cycle finder reports a cycle as the files around it, and none in a tree', () => {
  expect(
    findCycle(
      new Map([
        ['a', ['b']],
        ['b', ['c']],
        ['c', ['a']],
      ]),
    ),
  ).toEqual(['a', 'b', 'c', 'a']);
  expect(findCycle(new Map([['a', ['a']]]))).toEqual(['a', 'a']);
  expect(
    findCycle(
      new Map([
        ['a', ['b', 'c']],
        ['b', ['c']],
        ['c', []],
      ]),
    ),
  ).toBeNull();
});

test('every relative import in client/admin names a file that exists', () => {
  const graph = adminImportGraph();
  expect(graph.size).toBeGreaterThan(5);
  const missing = [...graph.values()].flat().filter((target) => !existsSync(target));
  expect(missing).toEqual([]);
});

test('client/admin has no import cycles', () => {
  const graph = adminImportGraph();
  // The graph has edges: a parser that found nothing would pass any code.
  expect([...graph.values()].flat().length).toBeGreaterThan(graph.size);
  const cycle = findCycle(graph);
  expect(cycle?.map((file) => relative(ROOT, file)).join(' → ') ?? null).toBeNull();
});

test(`no file in client/admin is longer than ${MAX_LINES} lines`, () => {
  const long = sourceFiles(ADMIN)
    .map((file) => ({ file: relative(ROOT, file), lines: readFileSync(file, 'utf8').trimEnd().split('\n').length }))
    .filter(({ lines }) => lines > MAX_LINES);
  expect(long).toEqual([]);
});
