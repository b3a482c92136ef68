// One error style in every form: no browser bubbles — every form is `novalidate` and
// our own messages say what is wrong, by each field — and an error said once: the field's
// message by the field, the banner only counting the fields to correct (decision 038). Rendered
// by the server, as a browser without JavaScript gets them; with JavaScript the same components
// show the same answer.
import type { Express } from 'express';
import request from 'supertest';
import { beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, ORIGIN } from './helpers/app.ts';
import { activeProject, PEOPLE, signInEveryone, UNLIMITED, type Person } from './projects/fixtures.ts';
import { signIn } from './my-account/helpers.ts';

let app: Express;
let projectId: number;
const cookies = {} as Record<Person, string>;

beforeAll(async () => {
  const created = await createTestApp(UNLIMITED);
  app = created.app;
  const tokens = await signInEveryone(app, created.db);
  projectId = await activeProject(app, tokens);
  for (const person of ['owner', 'expert'] as const) cookies[person] = await signIn(app, PEOPLE[person].userName);
});

const get = (who: Person | null, path: string) => {
  const req = request(app).get(path);
  return who ? req.set('Cookie', cookies[who]) : req;
};
const post = (who: Person | null, path: string, body: Record<string, string>) => {
  const req = request(app).post(path).set('Origin', ORIGIN).type('form').send(body);
  return who ? req.set('Cookie', cookies[who]) : req;
};

/** The opening tags of a page's forms. */
const formTags = (html: string) => [...html.matchAll(/<form\b[^>]*>/g)].map((m) => m[0]);
/** The texts of the form banners (role=alert) and of the field messages. */
const alerts = (html: string) => [...html.matchAll(/<p class="form-error" role="alert">([^<]*)<\/p>/g)].map((m) => m[1]!);
const fieldErrors = (html: string) => [...html.matchAll(/<p class="field-error" id="[^"]+">([^<]*)<\/p>/g)].map((m) => m[1]!);

describe('no browser bubbles: every form of the pages is novalidate', () => {
  // The pages with forms, and how many forms each has at least (the cookie banner and the theme switch included).
  const PAGES: { who: Person | 'nobody'; path: string; forms: number }[] = [
    { who: 'nobody', path: '/en', forms: 2 },
    { who: 'nobody', path: '/en/login', forms: 3 },
    { who: 'nobody', path: '/forgotPassword', forms: 3 },
    { who: 'nobody', path: '/en/Contact', forms: 3 },
    { who: 'nobody', path: '/en/blog', forms: 3 },
    { who: 'owner', path: '/en/profile', forms: 3 },
    { who: 'owner', path: '/en/changePassword', forms: 3 },
    { who: 'owner', path: '/en/profile/twoFactor', forms: 3 },
    { who: 'owner', path: '/en/client/projects/new', forms: 3 },
    { who: 'owner', path: '/en/client/projects/:id', forms: 3 },
    { who: 'expert', path: '/en/expert', forms: 3 },
    { who: 'expert', path: '/en/expert/projects/:id', forms: 3 },
  ];

  test.each(PAGES)('$path as $who: at least $forms forms, all novalidate', async ({ who, path, forms }) => {
    const res = await get(who === 'nobody' ? null : who, path.replace(':id', String(projectId)));
    expect(res.status).toBe(200);
    const tags = formTags(res.text);
    expect(tags.length).toBeGreaterThanOrEqual(forms);
    const validated = tags.filter((tag) => !/\snovalidate(="")?[\s>]/i.test(tag));
    expect(validated, 'forms the browser would check with its own bubbles').toEqual([]);
  });
});

describe('an error is said once: by its field, the banner only counting the fields', () => {
  test('an empty login: "This field is required." by each field, the banner "Please correct the 2 marked fields."', async () => {
    const res = await post(null, '/en/login', { identifier: '', password: '' });
    expect(res.status).toBe(400);
    expect(alerts(res.text)).toEqual(['Please correct the 2 marked fields.']);
    expect(fieldErrors(res.text)).toEqual(['This field is required.', 'This field is required.']);
  });

  test('a wrong current password is said by its field only (it was the banner too)', async () => {
    const res = await post('owner', '/en/changePassword', {
      currentPassword: 'not the password',
      newPassword: 'a brand new password',
      confirmPassword: 'a brand new password',
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(fieldErrors(res.text)).toEqual(['The current password is not correct.']);
    expect(alerts(res.text)).toEqual(['Please correct the marked field.']);
    expect(res.text.split('The current password is not correct.').length - 1).toBe(1);
  });

  test('in Spanish too: an empty brief counts its marked fields', async () => {
    const res = await post('owner', '/client/projects/new', {
      title: '',
      description: '',
      practice: '',
      budget: '',
      wishedStart: '',
      deadline: '',
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    const fields = fieldErrors(res.text);
    expect(fields.length).toBeGreaterThan(1);
    expect(alerts(res.text)).toEqual([`Corrige los ${fields.length} campos marcados.`]);
  });

  test('no banner repeats a field message, whatever the form (expertise, a refused day rate)', async () => {
    const res = await post('expert', '/en/expert', {
      intent: 'expertise',
      practices: 'data',
      bio: '',
      dayRate: '-5',
      availability: 'available',
      busyUntil: '',
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    const fields = fieldErrors(res.text);
    expect(fields.length).toBeGreaterThan(0);
    for (const alert of alerts(res.text)) expect(fields).not.toContain(alert);
  });

  test('a document form sent with no file chosen says "This field is required." by the file field (the bubble did before)', async () => {
    // What a browser sends for a file field left empty: a part with an empty file name and no bytes.
    const boundary = 'x-boundary';
    const body = [
      `--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\ndocument\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename=""\r\nContent-Type: application/octet-stream\r\n\r\n\r\n`,
      `--${boundary}--\r\n`,
    ].join('');
    const res = await request(app)
      .post(`/en/client/projects/${projectId}`)
      .set('Cookie', cookies.owner)
      .set('Origin', ORIGIN)
      .set('Content-Type', `multipart/form-data; boundary=${boundary}`)
      .send(body);
    expect(res.status).toBe(400);
    expect(fieldErrors(res.text)).toEqual(['This field is required.']);
    expect(alerts(res.text)).toEqual(['Please correct the marked field.']);
  });

  test('an error without fields stays in the banner (a wrong password at login)', async () => {
    const res = await post(null, '/en/login', { identifier: 'acme', password: 'wrong password' });
    expect(res.status).toBe(401);
    expect(alerts(res.text)).toEqual(['Incorrect user name or password.']);
    expect(fieldErrors(res.text)).toEqual([]);
  });
});
