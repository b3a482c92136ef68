// The shape of the code, read from the files themselves (docs/architecture.md has the folder map):
//   - no import cycle between folders: a folder can be read, tested and changed from the ones
//     below it, and what several folders need lives in a folder below them all (shared/, or a
//     lower one of the server: base/, db/, http/, calendar/…);
//   - the browser's code and the code both sides run never pull in the server's (shared/ is
//     imported by both, so it imports neither);
//   - the screens stay files a reader takes in at once;
//   - server/app.ts only composes: whatever it needs is made in a module of its own.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from '../scripts/build-state.ts';
import { findCycle, relativeImports, sourceFiles, typeOnlyImports } from './helpers/imports.ts';

/** The folders whose imports make the graph. */
const CODE = ['server', 'client', 'shared'] as const;

/**
 * A folder as the graph knows it: the first two segments under server/ and client/
 * (`server/projects`, `client/admin`), the root's own files as `server` and `client`, shared/ as
 * one node; anything else (locales/, brand/…) by its first segment.
 */
function folderOf(path: string): string {
  const segments = path.split('/');
  if (segments[0] === 'server' || segments[0] === 'client') return segments.length > 2 ? `${segments[0]}/${segments[1]}` : segments[0];
  return segments[0]!;
}

type Import = { from: string; to: string; typeOnly: boolean };

/** Every relative import of server/, client/ and shared/, as repository paths. */
function codeImports(): Import[] {
  return CODE.flatMap((top) =>
    sourceFiles(join(ROOT, top)).flatMap((file) => {
      const source = readFileSync(file, 'utf8');
      const from = relative(ROOT, file).split(sep).join('/');
      const typeOnly = typeOnlyImports(source);
      return relativeImports(source).map((specifier) => {
        const to = relative(ROOT, resolve(dirname(file), specifier))
          .split(sep)
          .join('/');
        const at = typeOnly.indexOf(specifier);
        if (at !== -1) typeOnly.splice(at, 1);
        return { from, to, typeOnly: at !== -1 };
      });
    }),
  );
}

/** folder → the folders it imports, and for each edge the first import that makes it. */
function folderGraph(imports: readonly Import[]) {
  const graph = new Map<string, Set<string>>();
  const example = new Map<string, Import>();
  for (const item of imports) {
    const [a, b] = [folderOf(item.from), folderOf(item.to)];
    if (!graph.has(a)) graph.set(a, new Set());
    if (a === b) continue;
    graph.get(a)!.add(b);
    if (!example.has(`${a} ${b}`)) example.set(`${a} ${b}`, item);
  }
  return { graph, example };
}

test('the import reader finds static, type-only, multi-line, re-exported, side-effect and dynamic imports', () => {
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
  // `import { type C }` keeps an import of the module at run time: only `import type` is erased.
  expect(typeOnlyImports(source)).toEqual(['../b.ts']);
});

test('the cycle finder reports a cycle as the nodes around it, and none in a tree', () => {
  const cycle = findCycle(
    new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
    ]),
  );
  expect(cycle).toEqual(['a', 'b', 'c', 'a']);
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

test('a folder is its first two segments under server/ and client/, the root files their own node, shared/ one node', () => {
  expect(folderOf('server/projects/service.ts')).toBe('server/projects');
  expect(folderOf('server/db/legacy-sqlite/x.ts')).toBe('server/db');
  expect(folderOf('server/app.ts')).toBe('server');
  expect(folderOf('client/admin/users/user-row.tsx')).toBe('client/admin');
  expect(folderOf('client/entry.tsx')).toBe('client');
  expect(folderOf('shared/routes.ts')).toBe('shared');
});

test('no import cycle between the folders of server/, client/ and shared/', () => {
  const { graph, example } = folderGraph(codeImports());
  // The graph is the code's: a reader that found nothing would pass any code.
  expect(graph.get('server')).toContain('server/render');
  expect(graph.get('client/pages')).toContain('client/runtime');
  expect(graph.get('server/projects')).toContain('shared');
  const cycle = findCycle(graph);
  const because = cycle?.slice(1).map((to, i) => {
    const edge = example.get(`${cycle[i]} ${to}`)!;
    return `${cycle[i]} → ${to} (${edge.from} imports ${edge.to})`;
  });
  expect(because ?? null).toBeNull();
});

test('shared/ imports neither server/ nor client/: both sides run it', () => {
  const outside = codeImports().filter(({ from, to }) => from.startsWith('shared/') && !to.startsWith('shared/'));
  expect(outside.map(({ from, to }) => `${from} → ${to}`)).toEqual([]);
});

test("client/ imports no server code: only a page's loader, as a type (erased; docs/decisions/025)", () => {
  const fromClient = codeImports().filter(({ from, to }) => from.startsWith('client/') && to.startsWith('server/'));
  // The pages are typed by their loaders: the rule has something to hold.
  expect(fromClient.length).toBeGreaterThan(0);
  const refused = fromClient.filter(({ to, typeOnly }) => !typeOnly || !/^server\/pages\/[a-z0-9-]+\.ts$/.test(to));
  expect(refused.map(({ from, to }) => `${from} → ${to}`)).toEqual([]);
});

/** The longest a file of a screen may be. */
const SCREEN_MAX_LINES = 300;

/**
 * The folders of client/ that are not screens: what the screens run on (runtime/) and the service
 * worker (sw/). Every other folder of client/ holds screens — the pages and their parts (admin/,
 * projects/, my-account/, account-links/, two-factor/, blog/) and the components they share.
 */
const NOT_SCREENS = ['client/runtime/', 'client/sw/'];

test(`no file of a screen (a folder of client/ but ${NOT_SCREENS.join(' and ')}) is longer than ${SCREEN_MAX_LINES} lines`, () => {
  const screens = sourceFiles(join(ROOT, 'client'))
    .map((file) => relative(ROOT, file).split(sep).join('/'))
    .filter((file) => file.split('/').length > 2 && !NOT_SCREENS.some((folder) => file.startsWith(folder)));
  expect(screens).toContain('client/pages/home.tsx');
  expect(screens).toContain('client/admin/users/users-screen.tsx');
  const long = screens
    .map((file) => ({ file, lines: readFileSync(join(ROOT, file), 'utf8').trimEnd().split('\n').length }))
    .filter(({ lines }) => lines > SCREEN_MAX_LINES);
  expect(long).toEqual([]);
});

/** The names of the functions a module declares at its top level (`function f`, `const f = (…) =>`, `const f = function`). */
function topLevelFunctions(source: string): string[] {
  const declared = /^(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([\w$]+)/gm;
  const bound =
    /^(?:export\s+)?(?:const|let|var)\s+([\w$]+)\s*(?::[^=\n]+)?=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=\n]+)?=>|[\w$]+\s*=>)/gm;
  return [...source.matchAll(declared), ...source.matchAll(bound)].map((match) => match[1]!);
}

test('the function reader finds declared functions and arrows bound at the top level, not nested ones', () => {
  const source = [
    'function a() {}',
    'export async function b(x: number) {}',
    'const c = (x: string): number => 1;',
    'export const d = async () => {};',
    'const e = x => x;',
    'const f = function () {};',
    'const g: number = 1;',
    'const h = compute(1);',
    'export async function main() {',
    '  function nested() {}',
    '  const inner = () => 1;',
    '}',
  ].join('\n');
  expect(topLevelFunctions(source).sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'main']);
});

test('server/app.ts defines no function but createApp: it composes the modules, whose helpers live with them', () => {
  expect(topLevelFunctions(readFileSync(join(ROOT, 'server', 'app.ts'), 'utf8'))).toEqual(['createApp']);
});
