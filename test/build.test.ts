// Cold start (docs/decisions/007): what the build leaves for the server's start (the suite's global setup
// builds when the build is stale).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { PATHS } from '../server/base/paths.ts';

const SERVER_DIST = join(PATHS.root, 'dist', 'server');

test('the build primes the compile cache beside the bundle, so that a deployed build starts without compiling', () => {
  const files = readdirSync(join(SERVER_DIST, '.compile-cache'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  expect(files.length).toBeGreaterThan(0);
});

test('the entry turns the compile cache on before it loads the bundle', () => {
  const entry = readFileSync(join(SERVER_DIST, 'main.js'), 'utf8');
  expect(entry.indexOf('enableCompileCache')).toBeGreaterThan(-1);
  expect(entry.indexOf('enableCompileCache')).toBeLessThan(entry.indexOf("import('./server.js')"));
});

test('the server bundle carries its dependencies, except the native, lazily loaded and React ones', () => {
  const bundle = readFileSync(join(SERVER_DIST, 'server.js'), 'utf8');
  const imported = [...bundle.matchAll(/\bfrom\s*"([^"./][^"]*)"|\bimport\(\s*"([^"./][^"]*)"\s*\)/g)].map((m) => m[1] ?? m[2]);
  const packages = new Set(imported.filter((name) => name && !name.startsWith('node:')).map((name) => name!.split('/')[0]));
  expect([...packages].sort()).toEqual(expect.arrayContaining(['better-sqlite3', 'react', 'react-dom']));
  for (const bundled of ['express', 'zod', 'i18next', 'helmet', 'pino', 'jose', 'marked', 'sanitize-html'])
    expect(packages).not.toContain(bundled);
});

test('the server bundle takes Node built-ins from process.getBuiltinModule, never by an ES import (whose facade read every export: node:http loaded undici, ~60 ms of a start)', () => {
  const bundle = readFileSync(join(SERVER_DIST, 'server.js'), 'utf8');
  const esImports = [...bundle.matchAll(/\bfrom\s*"(node:[^"]+)"|\bimport\(\s*"(node:[^"]+)"\s*\)/g)].map((m) => m[1] ?? m[2]);
  // The banner's createRequire is the one ES import of a built-in left.
  expect(esImports.filter((name) => name !== 'node:module')).toEqual([]);
  expect(bundle).toContain('process.getBuiltinModule("node:http")');
});

// React Router's package maps every import to its development build (remix-run/react-router#14102):
// developer warnings on every render, printed in production. Both builds use dist/production.
test("the production builds use React Router's production build on both sides, never its development warnings", () => {
  const bundle = readFileSync(join(SERVER_DIST, 'server.js'), 'utf8');
  expect(bundle).toMatch(/ENABLE_DEV_WARNINGS\s*=\s*(false|!1)/);
  expect(bundle).not.toMatch(/ENABLE_DEV_WARNINGS\s*=\s*(true|!0)/);
  const map = JSON.parse(readFileSync(join(SERVER_DIST, 'server.js.map'), 'utf8')) as { sources: string[] };
  // Bundled (not left to Node, whose resolution gives the development build)…
  expect(map.sources.some((source) => source.includes('node_modules/react-router-dom/'))).toBe(true);
  const routerSources = map.sources.filter((source) => source.includes('node_modules/react-router/dist/'));
  expect(routerSources.length).toBeGreaterThan(0);
  expect(routerSources.filter((source) => !source.includes('/dist/production/'))).toEqual([]);

  const manifest = JSON.parse(readFileSync(join(PATHS.root, 'dist', 'client', 'manifest.json'), 'utf8')) as unknown;
  const files = new Set([...JSON.stringify(manifest).matchAll(/\/assets\/([\w.-]+\.js)/g)].map((m) => m[1]!));
  expect(files.size).toBeGreaterThan(0);
  const client = [...files]
    .filter((file) => existsSync(join(PATHS.root, 'dist', 'client', 'assets', file)))
    .map((file) => readFileSync(join(PATHS.root, 'dist', 'client', 'assets', file), 'utf8'))
    .join('\n');
  // React Router is there (an invariant both builds keep)…
  expect(client).toContain('may be used only in the context of a <Router>');
  // The development build's texts: the default error boundary's note and useRoutes' warning.
  expect(client).not.toContain('Hey developer');
  expect(client).not.toContain('descendant <Routes>');
});
