// A page is three files (docs/decisions/025): its route-table entry, server/pages/<page>.ts and
// client/pages/<page>.tsx. Both sides load the modules by name: this checks that the names agree.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { loadPageModules } from '../server/render/page-module.ts';
import { ROOT } from '../scripts/build-state.ts';
import { PAGE_KEYS } from '../shared/routes.ts';

test.each(PAGE_KEYS)('the page %s has its server module (a loader) and its component', async (page) => {
  expect(existsSync(join(ROOT, 'server', 'pages', `${page}.ts`)), `server/pages/${page}.ts`).toBe(true);
  expect(existsSync(join(ROOT, 'client', 'pages', `${page}.tsx`)), `client/pages/${page}.tsx`).toBe(true);
  const module = (await loadPageModules()).get(page);
  expect(typeof module?.loader).toBe('function');
});

test('every file of server/pages and client/pages is a page of the route table', () => {
  const pages = new Set<string>(PAGE_KEYS);
  const strays = [
    ...readdirSync(join(ROOT, 'server', 'pages')).filter((f) => !pages.has(f.replace(/\.ts$/, ''))),
    ...readdirSync(join(ROOT, 'client', 'pages')).filter((f) => !pages.has(f.replace(/\.tsx$/, ''))),
  ];
  expect(strays).toEqual([]);
});

test('the pages that take a form are those whose module has an action', async () => {
  const modules = await loadPageModules();
  const withAction = [...modules].filter(([, module]) => module.action).map(([page]) => page);
  expect(withAction.sort()).toEqual(
    [
      'admin-inbox',
      'change-password',
      'confirm-email',
      'contact',
      'expert',
      'forgot-password',
      'invitation',
      'login',
      'notifications',
      'profile',
      'project',
      'project-new',
      'reset-password',
      'two-factor',
      'two-factor-setup',
    ].sort(),
  );
});
