// What the project tests share: the people of one engagement, sign-in, a brief, real files.
import type { Express } from 'express';
import request from 'supertest';
import { expect } from 'vitest';
import type { Db } from '../../server/db/index.ts';
import { ORIGIN } from '../helpers/app.ts';
import { addUser, loginToken, type TestUser } from '../helpers/users.ts';

export const PEOPLE = {
  admin: { userName: 'staff', role: 'ADMIN', name: 'Sara', lastName: 'Staff', email: 'staff@example.com' },
  owner: { userName: 'acme', role: 'CLI', name: 'Carla', lastName: 'Acme', email: 'carla@acme.example' },
  otherClient: { userName: 'globex', role: 'CLI', name: 'Gil', lastName: 'Globex', email: 'gil@globex.example' },
  org: { userName: 'cityhall', role: 'ORG', name: 'Olga', lastName: 'Town', email: 'olga@city.example' },
  expert: { userName: 'eva', role: 'CONS', name: 'Eva', lastName: 'Expert', email: 'eva@experts.example' },
  otherExpert: { userName: 'otto', role: 'CONS', name: 'Otto', lastName: 'Outsider', email: 'otto@experts.example' },
} as const satisfies Record<string, TestUser>;
export type Person = keyof typeof PEOPLE;

/** Adds everyone and signs each in: their Bearer tokens by name. */
export async function signInEveryone(app: Express, db: Db): Promise<Record<Person, string>> {
  for (const person of Object.values(PEOPLE)) await addUser(db, person);
  const tokens = {} as Record<Person, string>;
  for (const key of Object.keys(PEOPLE) as Person[]) tokens[key] = await loginToken(app, PEOPLE[key].userName);
  return tokens;
}

export const BRIEF = {
  title: 'Data platform for the sales team',
  description: 'We want one place for the sales figures of our 12 shops.',
  practice: 'data',
};

/** A call of the API with a Bearer token (and the site's Origin, as a browser would send). */
export function api(app: Express, token: string) {
  const auth = (r: request.Test) => r.set('Authorization', `Bearer ${token}`).set('Origin', ORIGIN);
  return {
    get: (path: string) => auth(request(app).get(`/api${path}`)),
    post: (path: string, body?: object) => auth(request(app).post(`/api${path}`)).send(body ?? {}),
    patch: (path: string, body?: object) => auth(request(app).patch(`/api${path}`)).send(body ?? {}),
    put: (path: string, body?: object) => auth(request(app).put(`/api${path}`)).send(body ?? {}),
    delete: (path: string) => auth(request(app).delete(`/api${path}`)),
    upload: (path: string, file: Buffer, name: string) => auth(request(app).post(`/api${path}`)).attach('file', file, name),
    field: (path: string, name: string, value: string) => auth(request(app).post(`/api${path}`)).field(name, value),
  };
}

/** A project taken from brief to active with the expert assigned; its id. */
export async function activeProject(app: Express, tokens: Record<Person, string>): Promise<number> {
  const created = await api(app, tokens.owner).post('/projects', BRIEF);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as number;
  const proposal = { scope: 'Dashboards for 12 shops', fee: 18000, timeline: 'Eight weeks from the start' };
  expect((await api(app, tokens.admin).patch(`/projects/${id}`, { action: 'send_proposal', proposal })).status).toBe(200);
  expect((await api(app, tokens.owner).patch(`/projects/${id}`, { action: 'accept', version: 1 })).status).toBe(200);
  expect((await api(app, tokens.admin).post(`/projects/${id}/experts`, { userName: PEOPLE.expert.userName })).status).toBe(200);
  return id;
}

/** The smallest real PDF readers open. */
export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 10 10]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  'latin1',
);
export const PNG_BYTES = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
export const DOCX = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from('[Content_Types].xml word/document.xml', 'latin1')]);

/** These tests walk many projects through the site as one user: the per-user limits are the attack suite's (test/security/projects.test.ts). */
export const UNLIMITED = {
  PROJECT_BRIEFS_PER_HOUR: '10000',
  PROJECT_MESSAGES_PER_MINUTE: '10000',
  PROJECT_UPLOADS_PER_MINUTE: '1000',
  PROJECT_MILESTONE_CHANGES_PER_MINUTE: '10000',
  PROJECT_STATE_CHANGES_PER_HOUR: '10000',
};
