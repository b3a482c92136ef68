// The shape of the code, read from the files themselves (docs/architecture.md has the folder map):
//   - no import cycle between folders: a folder can be read, tested and changed from the ones
//     below it, and what several folders need lives in a folder below them all (shared/, or a
//     lower one of the server: base/, db/, http/, calendar/…);
//   - the browser's code and the code both sides run never pull in the server's (shared/ is
//     imported by both, so it imports neither);
//   - the screens stay files a reader takes in at once;
//   - no function is longer than a reader takes in (server/app.ts only mounts: the boot's phases
//     and each domain's module.ts make what it mounts; docs/decisions/046).
import { readFileSync } from 'node:fs';
import ts from 'typescript';
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

/** The longest a function may be, from its first line to its closing brace (nested functions count in their parent). */
const FUNCTION_MAX_LINES = 150;

/** Functions allowed past FUNCTION_MAX_LINES, each with its reason: data tables and generated code only. */
const LONG_FUNCTIONS_ALLOWED: Record<string, string> = {};

type FunctionSpan = { where: string; name: string; lines: number };

/** Every function with a body in a source text, with its length in lines (TypeScript's own parser). */
function functionSpans(file: string, source: string): FunctionSpan[] {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, kind);
  const spans: FunctionSpan[] = [];
  const nameOf = (node: ts.FunctionLikeDeclaration): string => {
    if (node.name) return node.name.getText(tree);
    const parent = node.parent;
    if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText(tree);
    return '(anonymous)';
  };
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = tree.getLineAndCharacterOfPosition(node.getStart(tree)).line;
      const last = tree.getLineAndCharacterOfPosition(node.getEnd()).line;
      spans.push({ where: `${file}:${first + 1}`, name: nameOf(node as ts.FunctionLikeDeclaration), lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return spans;
}

test('the function measurer counts a function from its first line to its closing brace, nested ones inside their parent', () => {
  const source = [
    'export function outer() {', // 1
    '  const inner = () => {', // 2
    '    return 1;', // 3
    '  };', // 4
    '  return inner;', // 5
    '}', // 6
    'const one = (x: number) => x;', // 7
  ].join('\n');
  expect(functionSpans('a.ts', source).map(({ name, lines }) => [name, lines])).toEqual([
    ['outer', 6],
    ['inner', 3],
    ['one', 1],
  ]);
});

test(`no function in server/, client/ or shared/ is longer than ${FUNCTION_MAX_LINES} lines (but the listed data tables)`, () => {
  const spans = CODE.flatMap((top) =>
    sourceFiles(join(ROOT, top)).flatMap((file) => {
      const source = readFileSync(file, 'utf8');
      // A file shorter than the budget cannot hold a function longer than it: not parsed.
      if (source.split('\n').length <= FUNCTION_MAX_LINES) return [];
      return functionSpans(relative(ROOT, file).split(sep).join('/'), source);
    }),
  );
  // The measurer read the code: createApp is there, and within the budget.
  expect(spans.find(({ where, name }) => where.startsWith('server/app.ts') && name === 'createApp')?.lines).toBeLessThanOrEqual(
    FUNCTION_MAX_LINES,
  );
  const long = spans
    .filter(({ lines, where, name }) => lines > FUNCTION_MAX_LINES && !(`${where.split(':')[0]} ${name}` in LONG_FUNCTIONS_ALLOWED))
    .map(({ where, name, lines }) => `${where} ${name}: ${lines} lines`);
  expect(long).toEqual([]);
});

/** The most lines a file of the projects service may have: split along its seams past it (reads, transitions, team…). */
const PROJECTS_FILE_MAX_LINES = 400;

test(`no file of the projects service (server/projects/) is longer than ${PROJECTS_FILE_MAX_LINES} lines`, () => {
  const long = sourceFiles(join(ROOT, 'server', 'projects'))
    .map((file) => ({ file: relative(ROOT, file), lines: readFileSync(file, 'utf8').trimEnd().split('\n').length }))
    .filter(({ lines }) => lines > PROJECTS_FILE_MAX_LINES);
  expect(long).toEqual([]);
});
