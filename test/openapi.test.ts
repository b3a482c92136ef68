// docs/openapi.json is the API's contract (and the one an external API must implement): these
// tests keep it in step with the routes the built-in router really has.
import type { Router } from 'express';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { createApiRouter, type ApiDeps } from '../server/api/router.ts';
import { openDatabase } from '../server/db/index.ts';
import { createLogger } from '../server/base/logger.ts';
import { PATHS } from '../server/base/paths.ts';
import { LOCALE_CODES } from '../shared/locales.ts';
import { createTestApp } from './helpers/app.ts';

type OpenApi = {
  openapi: string;
  servers?: { url: string }[];
  paths: Record<string, Record<string, { parameters?: { name: string; in: string }[]; responses?: Record<string, unknown> }>>;
  components?: { schemas?: Record<string, unknown> };
};

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function readDocument(): OpenApi {
  return JSON.parse(readFileSync(join(PATHS.root, 'docs', 'openapi.json'), 'utf8')) as OpenApi;
}

type Layer = { route?: { path: string | string[]; methods: Record<string, boolean> }; handle?: { stack?: Layer[] } };

/**
 * `METHOD /path` for every route of an Express 5 router, with `:param` written `{param}`: its own
 * routes and those of the routers it mounts without a path (one router per API resource).
 */
function routesOf(router: Router): string[] {
  const routes: string[] = [];
  for (const layer of (router as unknown as { stack: Layer[] }).stack) {
    if (!layer.route && layer.handle?.stack) routes.push(...routesOf(layer.handle as unknown as Router));
    if (!layer.route) continue;
    const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
    for (const path of paths) {
      expect(typeof path, 'route paths are strings').toBe('string');
      const openApiPath = path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      for (const [method, on] of Object.entries(layer.route.methods)) {
        if (on) routes.push(`${method === '_all' ? 'ALL' : method.toUpperCase()} ${openApiPath}`);
      }
    }
  }
  return routes.sort();
}

function documentedRoutes(doc: OpenApi): string[] {
  return Object.entries(doc.paths)
    .flatMap(([path, item]) =>
      Object.keys(item)
        .filter((key) => HTTP_METHODS.includes(key))
        .map((method) => `${method.toUpperCase()} ${path}`),
    )
    .sort();
}

async function apiRouter() {
  const deps = { db: await openDatabase({ file: ':memory:' }), logger: createLogger('silent') } as unknown as ApiDeps;
  return createApiRouter(deps);
}

test('docs/openapi.json parses and is an OpenAPI 3 document served at /api', () => {
  const doc = readDocument();
  expect(doc.openapi).toMatch(/^3\./);
  expect(doc.servers?.map((s) => s.url)).toEqual(['/api']);
  expect(Object.keys(doc.paths).length).toBeGreaterThan(0);
});

test('the document has exactly the routes of the built-in API router (method and path)', async () => {
  const implemented = routesOf(await apiRouter());
  expect(implemented).toContain('POST /login');
  expect(new Set(implemented).size).toBe(implemented.length);
  expect(documentedRoutes(readDocument())).toEqual(implemented);
});

test('the app mounts that router at /api', async () => {
  const { app } = await createTestApp();
  const layers = (app as unknown as { router: { stack: (Layer & { matchers?: ((path: string) => unknown)[] })[] } }).router.stack;
  const mounted = layers.filter((layer) => layer.handle?.stack && routesOf(layer.handle as unknown as Router).includes('POST /login'));
  expect(mounted).toHaveLength(1);
  const matches = (path: string) => mounted[0]!.matchers!.some((match) => Boolean(match(path)));
  expect(matches('/api/login')).toBe(true);
  expect(matches('/login')).toBe(false);
  expect(routesOf(mounted[0]!.handle as unknown as Router)).toEqual(routesOf(await apiRouter()));
});

test('every path parameter is declared, and every declared path parameter is in the path', () => {
  const doc = readDocument();
  for (const [path, item] of Object.entries(doc.paths)) {
    const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
    for (const [method, operation] of Object.entries(item)) {
      if (!HTTP_METHODS.includes(method)) continue;
      const declared = (operation.parameters ?? [])
        .filter((p) => p.in === 'path')
        .map((p) => p.name)
        .sort();
      expect(declared, `${method.toUpperCase()} ${path}`).toEqual(inPath);
    }
  }
});

test('every 4xx and 5xx answer of the document is the Error schema', () => {
  const doc = readDocument();
  const text = JSON.stringify(doc);
  const refs = [...text.matchAll(/"\$ref":"#\/components\/(schemas|responses|headers)\/([^"]+)"/g)];
  const components = doc as unknown as { components: Record<string, Record<string, unknown>> };
  for (const [, kind, name] of refs) expect(components.components[kind!]?.[name!], `#/components/${kind}/${name}`).toBeDefined();
  const responses = components.components.responses as Record<string, { content?: Record<string, { schema: unknown }> }>;
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!HTTP_METHODS.includes(method)) continue;
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (Number(status) < 400) continue;
        const ref = (response as { $ref?: string }).$ref;
        const resolved = (ref ? responses[ref.split('/').pop()!] : response) as { content?: Record<string, { schema: unknown }> };
        expect(resolved.content?.['application/json']?.schema, `${method.toUpperCase()} ${path} ${status}`).toEqual({
          $ref: '#/components/schemas/Error',
        });
      }
    }
  }
});

test('429 answers document a Retry-After header', () => {
  const doc = readDocument();
  const login = doc.paths['/login']!.post!.responses!['429'] as { $ref: string };
  const name = login.$ref.split('/').pop()!;
  const response = (doc as unknown as { components: { responses: Record<string, { headers?: Record<string, unknown> }> } }).components
    .responses[name]!;
  expect(Object.keys(response.headers ?? {})).toContain('Retry-After');
});

test('an operation that answers 401 is documented as needing the Bearer token or the session cookie (no `security: []`)', () => {
  const doc = readDocument();
  const open: string[] = [];
  for (const [path, item] of Object.entries(
    doc.paths as Record<string, Record<string, { security?: unknown[]; responses?: Record<string, unknown> }>>,
  )) {
    for (const [method, op] of Object.entries(item)) {
      // POST /login is open by nature: its 401 is a wrong password, not a missing token.
      if (path === '/login') continue;
      if (op.responses?.['401'] && Array.isArray(op.security) && op.security.length === 0) open.push(`${method.toUpperCase()} ${path}`);
    }
  }
  expect(open).toEqual([]);
});

/** Every `enum` in the document that lists locale codes, with where it is. */
function localeEnums(node: unknown, where = '#'): { where: string; values: unknown[] }[] {
  if (!node || typeof node !== 'object') return [];
  const found: { where: string; values: unknown[] }[] = [];
  const record = node as Record<string, unknown>;
  if (Array.isArray(record.enum) && record.enum.some((value) => (LOCALE_CODES as readonly unknown[]).includes(value)))
    found.push({ where, values: record.enum as unknown[] });
  for (const [key, value] of Object.entries(record)) if (key !== 'enum') found.push(...localeEnums(value, `${where}/${key}`));
  return found;
}

test('every locale enum of the document lists the locale table’s codes, in its order', () => {
  const enums = localeEnums(readDocument());
  expect(enums.length).toBeGreaterThan(0);
  for (const { where, values } of enums) expect(values, where).toEqual([...LOCALE_CODES]);
});
