// The admin console (client/admin/) stays a set of small files with no import cycles, so that a
// screen can be added, read or moved on its own: no cycle between its files here (between folders,
// and the length of its files: test/architecture.test.ts).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { findCycle, relativeImports, sourceFiles } from './helpers/imports.ts';

const ROOT = resolve(import.meta.dirname, '..');
const ADMIN = join(ROOT, 'client', 'admin');

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
