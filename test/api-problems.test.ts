// The API's 400 says what is wrong in words (server/http/problems.ts): `message` is for people —
// English sentences, one per problem, each naming the field and the problem — never a message key
// or zod's own wording; `fields` keeps what the page forms translate.
import request from 'supertest';
import { expect, test } from 'vitest';
import { parse } from '../server/api/http.ts';
import { colleagueBody, moveBody } from '../server/api/company.ts';
import { markBody } from '../server/api/notifications.ts';
import { newUserBody, profileBody, updateUserBody } from '../server/api/schemas.ts';
import type { ApiError } from '../server/http/errors.ts';
import { mailPreferencesBody } from '../server/mail/preferences.ts';
import { briefSchema, expertiseSchema, milestoneSchema, proposalSchema } from '../server/projects/schemas.ts';
import { createTestApp } from './helpers/app.ts';
import { addUser, loginToken } from './helpers/users.ts';
import type { z } from 'zod';

function refusal(schema: z.ZodType, value: unknown): ApiError {
  try {
    parse(schema, value);
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('accepted');
}

const BRIEF = { title: 'Dashboards', description: 'Twelve shops', practice: 'data' };
const PREFERENCES = {
  messages: 'instant',
  states: 'instant',
  milestones: 'instant',
  documents: 'instant',
  reminders: 'instant',
  reminderDays: 3,
};

test.each([
  [briefSchema, { ...BRIEF, deadline: '2026-02-30' }, 'deadline must be a real day written YYYY-MM-DD, from 0000-01-01 to 9999-12-31'],
  [briefSchema, { ...BRIEF, title: '   ' }, 'title must not be empty'],
  [briefSchema, { ...BRIEF, title: 'x'.repeat(201) }, 'title must have at most 200 characters'],
  [briefSchema, { ...BRIEF, practice: 'astrology' }, 'practice must be one of "digital", "data", "sustainability", "compliance"'],
  [briefSchema, { ...BRIEF, wishedStart: '2026-05-01', deadline: '2026-04-01' }, 'deadline must not be before wishedStart'],
  [briefSchema, { description: 'd', practice: 'data' }, 'title is required'],
  [briefSchema, { ...BRIEF, title: 42 }, 'title must be a string, not a number'],
  [briefSchema, { ...BRIEF, colour: 'red' }, 'colour is not a field of this request'],
  [milestoneSchema, { title: 'Kick-off', dueDate: 5 }, 'dueDate must be a string or "" or null, not a number'],
  [proposalSchema, { scope: 's', fee: -1, timeline: 't' }, 'fee must be at least 0'],
  [proposalSchema, { scope: 's', fee: 'lots', timeline: 't' }, 'fee must be a number, not a string'],
  [expertiseSchema, { practices: [], bio: '', dayRate: null, availability: 'busy' }, 'busyUntil is required when availability is "busy"'],
  [mailPreferencesBody, { ...PREFERENCES, reminderDays: 99 }, 'reminderDays must be at most 30'],
  [markBody, { ids: [] }, 'ids must not be an empty list'],
  [markBody, {}, 'the request: give ids (at most 100) or all: true, one of them'],
  [profileBody, { name: 'Ana', lastName: 'x'.repeat(81) }, 'lastName must have at most 80 characters'],
  [
    newUserBody,
    { userName: 'a b', name: 'A', lastName: 'B', role: 'CLI' },
    'userName must be 2–40 letters, digits, dots, hyphens or underscores',
  ],
  [updateUserBody, { role: 'KING' }, 'role must be one of "ADMIN", "CLI", "ORG", "CONS"'],
  [
    colleagueBody,
    { userName: 'carlos', name: 'C', lastName: 'C', email: 'not an address' },
    'email must be one e-mail address such as ana@example.com',
  ],
  [moveBody, { role: 'boss', companyId: 1 }, 'role must be one of "manager", "member"'],
])('%#: the 400 says "%s…" in words, naming the field', (schema, value, words) => {
  const error = refusal(schema as z.ZodType, value);
  expect(error.status).toBe(400);
  expect(error.code).toBe('invalid_request');
  expect(error.message).toMatch(/^Invalid request: .+\.$/);
  expect(error.message).toContain(words);
  expect(error.message).not.toMatch(/validation\.|Invalid input|Too (big|small)|Unrecognized|expected/);
});

test('every problem is told, each field once, while `fields` keeps the key a page form translates', () => {
  const error = refusal(briefSchema, { title: '', description: '', practice: 'data', deadline: 'soon' });
  expect(error.message).toBe(
    'Invalid request: title must not be empty; description must not be empty; deadline must be a real day written YYYY-MM-DD, from 0000-01-01 to 9999-12-31.',
  );
  expect(error.fields).toEqual({ title: 'validation.required', description: 'validation.required', deadline: 'validation.date' });
});

test('POST /api/projects answers a bad deadline with a sentence, not the raw key', async () => {
  const { app, db } = await createTestApp();
  await addUser(db, { userName: 'carla', role: 'CLI' });
  const res = await request(app)
    .post('/api/projects')
    .set('Authorization', `Bearer ${await loginToken(app, 'carla')}`)
    .send({ ...BRIEF, deadline: '2026-13-01' });
  expect(res.status).toBe(400);
  expect(res.body.error.message).toBe('Invalid request: deadline must be a real day written YYYY-MM-DD, from 0000-01-01 to 9999-12-31.');
  expect(res.body.error.fields).toEqual({ deadline: 'validation.date' });
});
