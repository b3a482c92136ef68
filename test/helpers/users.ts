// Users for API tests: created straight in the database (one scrypt hash each, so create few),
// and signed in through the API like any client.
import type { NewUserRow } from '../../server/db/schema.ts';
import type { Express } from 'express';
import request from 'supertest';
import { expect } from 'vitest';
import { createUser, type User } from '../../server/users/users.ts';
import type { Db } from '../../server/db/index.ts';
import type { Role } from '../../shared/user.ts';
import { ORIGIN } from './app.ts';

export const DEFAULT_PASSWORD = 'correct horse battery';

export type TestUser = {
  userName: string;
  role: Role;
  password?: string;
  name?: string;
  lastName?: string;
  email?: string | null;
  scope?: string[];
};

/** Adds a user to the database; the password defaults to DEFAULT_PASSWORD. */
export function addUser(db: Db, user: TestUser): Promise<User> {
  return createUser(db, {
    userName: user.userName,
    role: user.role,
    password: user.password ?? DEFAULT_PASSWORD,
    name: user.name ?? 'Test',
    lastName: user.lastName ?? 'User',
    email: user.email ?? null,
    scope: user.scope ?? [],
  });
}

/**
 * Signs in with POST /api/login and returns the Bearer token. The request carries the site's
 * Origin, as the site's CSRF check asks of an unsafe request without an Authorization header.
 */
export async function loginToken(app: Express, identifier: string, password = DEFAULT_PASSWORD): Promise<string> {
  const res = await request(app).post('/api/login').set('Origin', ORIGIN).send({ identifier, password });
  expect(res.status, `login of ${identifier}: ${JSON.stringify(res.body)}`).toBe(200);
  expect(typeof res.body.token).toBe('string');
  return res.body.token as string;
}

/**
 * A users row as the database keeps it, for tests that fill the table straight (many users at
 * once, or a state the API would not make); no usable password (`password_hash: 'x'`).
 */
export function userRow(fields: Partial<NewUserRow> & Pick<NewUserRow, 'user_name'>): NewUserRow {
  const at = new Date().toISOString();
  return {
    email: null,
    name: 'Test',
    last_name: 'User',
    role: 'CLI',
    avatar: null,
    scopes: '[]',
    password_hash: 'x',
    disabled: 0,
    password_changed_at: 0,
    created_at: at,
    updated_at: at,
    ...fields,
  };
}
