// Every operation of docs/openapi.json against what the server does, table-driven over the
// document itself: each unsafe operation documents the CSRF check's 403; each JSON body is
// as strict in the document as on the server — the same bounds, options and required fields
// as the zod schema the route parses it with, and no key it does not list
// (`additionalProperties: false`), refused by the server with a 400 naming the key; each query
// documents the bounds and options of the server's schema; a method a
// path does not have is a 405 whose `Allow` names the methods the document gives it.
import type { Express } from 'express';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { colleagueBody, companiesQuery, moveBody, renameBody } from '../server/api/company.ts';
import { markBody } from '../server/api/notifications.ts';
import { documentsQuery, expertsQuery, historyQuery, messagesQuery as conversationQuery } from '../server/api/projects.ts';
import {
  brandingBody,
  deletionRequestsQuery,
  listQuery,
  loginBody,
  messagesQuery,
  messageUpdateBody,
  adminNewUserBody,
  replyBody,
  passwordBody,
  profileBody,
  resetPasswordBody,
  updateUserBody,
} from '../server/api/schemas.ts';
import { PATHS } from '../server/base/paths.ts';
import { auditQuery } from '../server/audit/query.ts';
import { cursorPageQuery, numberedPageQuery } from '../server/http/paging.ts';
import { mailPreferencesBody } from '../server/mail/preferences.ts';
import {
  actionSchema,
  briefSchema,
  expertSchema,
  expertiseSchema,
  listQuerySchema,
  messageSchema,
  milestoneDoneSchema,
  milestoneSchema,
} from '../server/projects/schemas.ts';
import { createTestApp } from './helpers/app.ts';
import { addUser, loginToken } from './helpers/users.ts';

type Schema = Record<string, unknown>;
type Operation = {
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, unknown>;
  parameters?: { name: string; in: string }[];
};
type Doc = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

const doc = JSON.parse(readFileSync(join(PATHS.root, 'docs', 'openapi.json'), 'utf8')) as Doc;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const UNSAFE = ['put', 'post', 'delete', 'patch'];

const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => METHODS.includes(method))
    .map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, method, path, operation })),
);

/** What each operation's JSON body is parsed with on the server. */
const BODY_SCHEMAS: Record<string, z.ZodType> = {
  'POST /login': loginBody,
  'PATCH /me': profileBody,
  'POST /me/password': passwordBody,
  'POST /admin/users': adminNewUserBody,
  'PATCH /admin/users/{userName}': updateUserBody,
  'POST /admin/users/{userName}/password': resetPasswordBody,
  'PUT /admin/branding/{userName}': brandingBody,
  'PATCH /admin/messages/{id}': messageUpdateBody,
  'POST /admin/messages/{id}/replies': replyBody,
  'POST /projects': briefSchema,
  'PATCH /projects/{id}': actionSchema,
  'POST /projects/{id}/experts': expertSchema,
  'POST /projects/{id}/milestones': milestoneSchema,
  'PATCH /projects/{id}/milestones/{milestoneId}': milestoneDoneSchema,
  'POST /projects/{id}/messages': messageSchema,
  'PUT /me/expertise': expertiseSchema,
  'PATCH /company': renameBody,
  'POST /company/members': colleagueBody,
  'PUT /admin/users/{userName}/company': moveBody,
  'POST /notifications/read': markBody,
  'PUT /me/mail-preferences': mailPreferencesBody,
};

/** What each operation's query is parsed with on the server. */
const QUERY_SCHEMAS: Record<string, z.ZodType> = {
  'GET /admin/users': listQuery,
  'GET /admin/messages': messagesQuery,
  'GET /projects': listQuerySchema,
  'GET /projects/{id}/events': historyQuery,
  'GET /projects/{id}/messages': conversationQuery,
  'GET /projects/{id}/documents': documentsQuery,
  'GET /experts': expertsQuery,
  'GET /admin/audit': auditQuery,
  'GET /admin/deletion-requests': deletionRequestsQuery,
  'GET /company': numberedPageQuery('members'),
  'GET /admin/companies': companiesQuery,
  'GET /admin/companies/{id}/members': numberedPageQuery('members'),
  'GET /notifications': cursorPageQuery('notifications'),
};

/** The query parameters an operation documents, as one object schema (the server's are objects too). */
function queryOf(op: Operation): Schema {
  const params = (op.parameters ?? []).filter((p) => p.in === 'query') as unknown as { name: string; schema: Schema; required?: boolean }[];
  return {
    type: 'object',
    additionalProperties: false,
    required: params.filter((p) => p.required).map((p) => p.name),
    properties: Object.fromEntries(params.map((p) => [p.name, p.schema])),
  };
}

const jsonBodies = operations.filter((op) => op.operation.requestBody?.content['application/json']);

/** A node with its `$ref`s followed. */
function resolved(node: Schema): Schema {
  let current = node;
  while (typeof current.$ref === 'string') current = doc.components.schemas[current.$ref.split('/').pop()!]!;
  return current;
}

/** The keywords compared, with the values a JSON Schema of a whole safe integer says by itself left out. */
const BOUNDS = ['minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minItems', 'maxItems', 'pattern'];
const IMPLIED = new Set([Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER]);

/**
 * The facts a schema states, flattened: `title.maxLength: 200`, `proposal.required: [...]`,
 * `.additionalProperties: false`, `practice.enum: [...]`. The branches of oneOf/anyOf/allOf
 * are merged (null, and the empty string a form sends for "none", are no option nor bound).
 */
function facts(node: Schema, at = '', into = new Map<string, string>()): Map<string, string> {
  const schema = resolved(node);
  for (const key of ['oneOf', 'anyOf', 'allOf'] as const) {
    for (const branch of (schema[key] as Schema[] | undefined) ?? []) {
      const inner = resolved(branch);
      if (inner.type === 'null' || inner.const === '') continue;
      facts(inner, at, into);
    }
  }
  for (const keyword of BOUNDS) {
    const value = schema[keyword];
    if (value !== undefined && !IMPLIED.has(value as number)) into.set(`${at}.${keyword}`, JSON.stringify(value));
  }
  if (Array.isArray(schema.enum)) {
    const options = (schema.enum as unknown[]).filter((option) => option !== null && option !== '');
    into.set(`${at}.enum`, JSON.stringify(options.map(String).sort()));
  }
  if (schema.const !== undefined && schema.const !== '') into.set(`${at}.enum`, JSON.stringify([String(schema.const)]));
  const properties = schema.properties as Record<string, Schema> | undefined;
  if (properties) {
    into.set(`${at}.additionalProperties`, JSON.stringify(schema.additionalProperties ?? true));
    into.set(`${at}.required`, JSON.stringify([...((schema.required as string[] | undefined) ?? [])].sort()));
    for (const [name, property] of Object.entries(properties)) facts(property, at ? `${at}.${name}` : name, into);
  }
  if (schema.items) facts(schema.items as Schema, `${at}[]`, into);
  return into;
}

describe('the document alone', () => {
  test.each(operations.filter((op) => UNSAFE.includes(op.method)).map((op) => [op.name, op]))(
    'the unsafe operation %s documents 403: the CSRF check may answer it',
    (_name, op) => {
      expect(Object.keys(op.operation.responses)).toContain('403');
    },
  );

  test('every operation with a JSON body is in the table of the server’s schemas, and nothing else is', () => {
    expect(jsonBodies.map((op) => op.name).sort()).toEqual(Object.keys(BODY_SCHEMAS).sort());
  });

  test.each(jsonBodies.map((op) => [op.name, op]))('the JSON body of %s lists every key it takes and refuses others', (_name, op) => {
    const stated = facts(op.operation.requestBody!.content['application/json']!.schema);
    const objects = [...stated].filter(([key]) => key.endsWith('.additionalProperties'));
    expect(objects.length).toBeGreaterThan(0);
    for (const [key, value] of objects) expect(value, key).toBe('false');
  });
});

describe('the document and the server’s schemas', () => {
  test.each(jsonBodies.map((op) => [op.name, op]))(
    'the JSON body of %s has the bounds, options and required keys the server checks',
    (name, op) => {
      const server = facts(z.toJSONSchema(BODY_SCHEMAS[name]!, { io: 'input', unrepresentable: 'any' }) as Schema);
      const documented = facts(op.operation.requestBody!.content['application/json']!.schema);
      // Where the server's JSON Schema cannot say it (a refine), the document may say more: a pattern, a format's bounds.
      const said = [...documented].filter(([key]) => server.has(key) || !key.endsWith('.pattern'));
      expect(Object.fromEntries(said)).toEqual(Object.fromEntries(server));
    },
  );
});

describe('the document’s query parameters and the server’s schemas', () => {
  const queried = operations.filter((op) => (op.operation.parameters ?? []).some((p) => p.in === 'query'));

  test('every operation with query parameters is in the table of the server’s schemas, and nothing else is', () => {
    expect(queried.map((op) => op.name).sort()).toEqual(Object.keys(QUERY_SCHEMAS).sort());
  });

  test.each(queried.map((op) => [op.name, op]))('the query of %s has the bounds and options the server checks', (name, op) => {
    const server = facts(z.toJSONSchema(QUERY_SCHEMAS[name]!, { io: 'input', unrepresentable: 'any' }) as Schema);
    const documented = facts(queryOf(op.operation));
    // A query is not strict: a parameter a list does not take is ignored (a cursor list's `page` is refused by name, with no bounds).
    for (const facts of [server, documented]) {
      facts.delete('.additionalProperties');
      facts.delete('.required');
    }
    const said = [...documented].filter(([key]) => server.has(key) || !key.endsWith('.pattern'));
    expect(Object.fromEntries(said)).toEqual(Object.fromEntries(server));
  });
});

describe('the server against the document', () => {
  let app: Express;
  const tokens: Record<'admin' | 'client' | 'expert', string> = { admin: '', client: '', expert: '' };
  let messageId = 0;

  beforeAll(async () => {
    const site = await createTestApp();
    app = site.app;
    await addUser(site.db, { userName: 'ada', role: 'ADMIN' });
    await addUser(site.db, { userName: 'carla', role: 'CLI' });
    await addUser(site.db, { userName: 'ernesto', role: 'CONS' });
    tokens.admin = await loginToken(app, 'ada');
    tokens.client = await loginToken(app, 'carla');
    tokens.expert = await loginToken(app, 'ernesto');
    const message = await site.contactStore.add(
      { name: 'Lucía', email: 'lucia@example.com', subject: 'Hola', message: 'Un mensaje de prueba.', locale: 'es', ip: null },
      false,
    );
    messageId = message.id;
  });

  /** The operation's path with a value for each parameter (a real contact message for /admin/messages). */
  const pathOf = (path: string) =>
    `/api${path}`
      .replace('/admin/messages/{id}', `/admin/messages/${messageId}`)
      .replace(/\{(id|milestoneId|docId)\}/g, '1')
      .replace('{userName}', 'carla')
      .replace('{file}', 'x.png');

  /** Who asks: an admin for the console, the expert for their own profile, the client for the rest. */
  const tokenFor = (path: string) =>
    path.startsWith('/admin') ? tokens.admin : path === '/me/expertise' || path === '/experts' ? tokens.expert : tokens.client;

  test.each(jsonBodies.map((op) => [op.name, op]))('%s refuses a key its body does not list with a 400 naming it', async (_name, op) => {
    const agent = request(app);
    const res = await agent[op.method as 'post'](pathOf(op.path))
      .set('Authorization', `Bearer ${tokenFor(op.path)}`)
      .send({ unexpectedKey: true });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.fields).toHaveProperty('unexpectedKey');
    expect(res.body.error.message).toContain('unexpectedKey is not a field of this request');
  });

  const OTHER_METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH'];
  test.each(Object.entries(doc.paths).map(([path, item]) => [path, Object.keys(item).filter((key) => METHODS.includes(key))]))(
    'a method %s does not have is 405 with an Allow of its methods, as the JSON Error; OPTIONS is 204 with the same Allow',
    async (path, documented) => {
      const methods = documented.map((method) => method.toUpperCase());
      const allow = [...methods, ...(methods.includes('GET') ? ['HEAD'] : [])].sort().join(', ');
      for (const method of OTHER_METHODS.filter((other) => !methods.includes(other))) {
        const res = await request(app)[method.toLowerCase() as 'get'](pathOf(path)).set('Authorization', `Bearer ${tokens.admin}`);
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(res.headers.allow).toBe(allow);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.body.error.code).toBe('method_not_allowed');
      }
      const options = await request(app).options(pathOf(path));
      expect(options.status).toBe(204);
      expect(options.headers.allow).toBe(allow);
    },
  );

  test('a path the API does not have stays a 404', async () => {
    const res = await request(app).delete('/api/no/such/path').set('Authorization', `Bearer ${tokens.admin}`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });
});
