// What the roles decide, each written once in shared/user.ts: which roles may be branded and so
// which areas show a branding, and which area's pages a role's project links and briefs open.
import { expect, test } from 'vitest';
import { isBrandedPath } from '../shared/branding.ts';
import { newBriefPath, projectPath } from '../shared/projects.ts';
import { BRANDABLE_ROLES, isBrandable, ROLES } from '../shared/user.ts';

test('the roles are ADMIN, CLI, ORG and CONS; CLI and ORG may be branded', () => {
  expect(ROLES).toEqual(['ADMIN', 'CLI', 'ORG', 'CONS']);
  expect(BRANDABLE_ROLES).toEqual(['CLI', 'ORG']);
  expect(ROLES.filter(isBrandable)).toEqual(['CLI', 'ORG']);
  for (const other of ['cli', 'constructor', '', 'GUEST']) expect(isBrandable(other), other).toBe(false);
});

test.each([
  { path: '/client', branded: true },
  { path: '/client/projects/3', branded: true },
  { path: '/en/organization', branded: true },
  { path: '/es/organization/projects/new', branded: true },
  { path: '/expert', branded: false },
  { path: '/admin/projects/3', branded: false },
  { path: '/', branded: false },
  { path: '/en', branded: false },
  { path: '/profile', branded: false },
  { path: '/blog/client', branded: false },
])('$path is branded: $branded (the brandable roles’ areas only)', ({ path, branded }) => {
  expect(isBrandedPath(path)).toBe(branded);
});

test.each([
  { role: 'ADMIN', es: '/admin/projects/7', en: '/en/admin/projects/7', brief: null },
  { role: 'CLI', es: '/client/projects/7', en: '/en/client/projects/7', brief: '/client/projects/new' },
  { role: 'ORG', es: '/organization/projects/7', en: '/en/organization/projects/7', brief: '/organization/projects/new' },
  { role: 'CONS', es: '/expert/projects/7', en: '/en/expert/projects/7', brief: null },
  { role: 'GUEST', es: null, en: null, brief: null },
  { role: 'constructor', es: null, en: null, brief: null },
])('a $role user’s project 7 is $es ($en), a new brief $brief: the pages of the role’s area', ({ role, es, en, brief }) => {
  expect(projectPath(role, 7, 'es')).toBe(es);
  expect(projectPath(role, 7, 'en')).toBe(en);
  expect(newBriefPath(role, 'es')).toBe(brief);
});
