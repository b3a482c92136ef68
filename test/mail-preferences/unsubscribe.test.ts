// One-click unsubscribe (RFC 8058; docs/decisions/044): the link of a notice's
// List-Unsubscribe header turns off that topic only, for that user only, without signing in — a
// mail program posts `List-Unsubscribe=One-Click` with no cookie and no Origin; a GET (a link
// scanner, a person's click) only shows a page that asks. A token altered, made for another
// user or topic, or of an account deleted (even one created again with the same name) is a 404
// and changes nothing. Both engines, a real SMTP server.
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { eraseAccount } from '../../server/my-account/erase.ts';
import { DEFAULT_MAIL_PREFERENCES } from '../../shared/mail-preferences.ts';
import { TEST_ENGINE } from '../helpers/app.ts';
import { addUser } from '../helpers/users.ts';
import { signIn } from '../my-account/helpers.ts';
import { BRIEF, PEOPLE } from '../projects/fixtures.ts';
import { oneClick, pathOf, preferencesSite, to, unsubscribeUrlOf, type PreferencesSite } from './setup.ts';

const PROPOSAL = { scope: 'Scope', fee: 1000, timeline: 'Soon' };

/** A message posted by `by`: the unsubscribe paths of the e-mails it caused, by recipient's e-mail. */
async function messageLinks(site: PreferencesSite, by: 'owner' | 'expert' = 'expert') {
  expect((await site.as(by).post(`/projects/${site.id}/messages`, { body: 'A message' })).status).toBe(201);
  const mails = await site.arrived();
  return {
    mails,
    owner: () => pathOf(unsubscribeUrlOf(to(mails, 'owner')[0]!)),
    admin: () => pathOf(unsubscribeUrlOf(to(mails, 'admin')[0]!)),
    expert: () => pathOf(unsubscribeUrlOf(to(mails, 'expert')[0]!)),
  };
}

/** The token with one character of its MAC changed (in the middle: every bit of it counts). */
function altered(path: string): string {
  const i = path.length - 20;
  return path.slice(0, i) + (path[i] === 'A' ? 'B' : 'A') + path.slice(i + 1);
}

describe(`one-click unsubscribe (${TEST_ENGINE})`, () => {
  test('the link of a message e-mail, posted without signing in (no cookie, no Origin), turns off messages only: a later message is not e-mailed, a state change still is', async () => {
    const site = await preferencesSite();
    const path = (await messageLinks(site)).owner();

    // GET only asks: a page with a form, nothing changed.
    const page = await request(site.app).get(path);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.text).toContain('<form method="post">');
    expect(page.text).toContain('name="List-Unsubscribe" value="One-Click"');
    // In the user's language (Spanish: they never chose), naming the topic.
    expect(page.text).toContain('¿Dejar de recibir correos sobre: Mensajes nuevos?');
    expect(await site.mail.preferences.get(PEOPLE.owner.userName)).toEqual(DEFAULT_MAIL_PREFERENCES);

    const done = await oneClick(site, path);
    expect(done.status).toBe(200);
    expect(done.text).toBe('Unsubscribed');
    expect(await site.mail.preferences.get(PEOPLE.owner.userName)).toEqual({ ...DEFAULT_MAIL_PREFERENCES, messages: 'never' });
    // Only theirs.
    expect(await site.mail.preferences.get(PEOPLE.admin.userName)).toEqual(DEFAULT_MAIL_PREFERENCES);
    // Again: the same answer, the same state.
    expect((await oneClick(site, path)).status).toBe(200);

    expect((await site.as('expert').post(`/projects/${site.id}/messages`, { body: 'After' })).status).toBe(201);
    const after = await site.arrived();
    expect(to(after, 'owner')).toEqual([]);
    expect(to(after, 'admin')).toHaveLength(1);
    expect((await site.notificationKinds('owner'))[0]).toBe('message_posted');

    expect((await site.as('admin').patch(`/projects/${site.id}`, { action: 'send_proposal', proposal: PROPOSAL })).status).toBe(200);
    expect(to(await site.arrived(), 'owner').map((m) => m.subject)).toEqual([`Tienes una propuesta para «${BRIEF.title}»`]);
  });

  test('the page says "done" only once the topic is off: ?done=1 typed into the address, nothing posted, shows the question and its form', async () => {
    const site = await preferencesSite();
    await signIn(site.app, PEOPLE.owner.userName);
    await site.arrived();
    const path = (await messageLinks(site)).owner();
    const typed = await request(site.app).get(`${path}?done=1`);
    expect(typed.status).toBe(200);
    expect(typed.text).not.toContain('Done:');
    expect(typed.text).toContain('Stop e-mails about: New messages?');
    expect(typed.text).toContain('<form method="post">');
    expect((await site.mail.preferences.get(PEOPLE.owner.userName)).messages).not.toBe('never');
  });

  test('the page’s button (from=page) answers 303 to the page saying it is done, in the user’s language', async () => {
    const site = await preferencesSite();
    // The owner last used the English pages.
    await signIn(site.app, PEOPLE.owner.userName);
    await site.arrived();
    const path = (await messageLinks(site)).owner();
    expect((await request(site.app).get(path)).text).toContain('Stop e-mails about: New messages?');
    const posted = await oneClick(site, path, 'List-Unsubscribe=One-Click&from=page');
    expect(posted.status).toBe(303);
    expect(posted.headers.location).toBe(path);
    const shown = await request(site.app).get(posted.headers.location!);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('<p role="status">Done: you will no longer get e-mails about: New messages.</p>');
    expect(shown.text).not.toContain('<form method="post">');
    expect((await site.mail.preferences.get(PEOPLE.owner.userName)).messages).toBe('never');
  });

  test('a token altered by one character, another user’s name or another topic put in it, or a made-up one: 404, nothing changed', async () => {
    const site = await preferencesSite();
    const links = await messageLinks(site);
    const owner = links.owner();
    const [, , id, topic, mac] = /^\/(unsubscribe)\/([^.]+)\.([a-z]+)\.(.+)$/.exec(owner)!;
    // The account's id, never its user name (the address travels through relays and forwards).
    const ownerRow = await site.db.k
      .selectFrom('users')
      .select('id')
      .where('user_name', '=', PEOPLE.owner.userName)
      .executeTakeFirstOrThrow();
    const expertRow = await site.db.k
      .selectFrom('users')
      .select('id')
      .where('user_name', '=', PEOPLE.expert.userName)
      .executeTakeFirstOrThrow();
    expect(id).toBe(String(ownerRow.id));
    expect(owner).not.toContain(Buffer.from(PEOPLE.owner.userName).toString('base64url'));
    expect(topic).toBe('messages');
    const forged = [
      altered(owner),
      // The owner's MAC with the expert's id: the expert's link is not made by swapping the id.
      `/unsubscribe/${expertRow.id}.messages.${mac}`,
      // The owner's MAC for another topic.
      `/unsubscribe/${id}.states.${mac}`,
      `/unsubscribe/${id}.digest.${mac}`,
      `/unsubscribe/${id}.everything.${mac}`,
      `/unsubscribe/999999.messages.${mac}`,
      `/unsubscribe/0.messages.${mac}`,
      `/unsubscribe/${'9'.repeat(40)}.messages.${mac}`,
      '/unsubscribe/not-a-token',
    ];
    for (const path of forged) {
      const posted = await oneClick(site, path);
      expect(posted.status, path).toBe(404);
      expect((await request(site.app).get(path)).status, `GET ${path}`).toBe(404);
    }
    for (const person of [PEOPLE.owner, PEOPLE.expert, PEOPLE.admin]) {
      expect(await site.mail.preferences.get(person.userName), person.userName).toEqual(DEFAULT_MAIL_PREFERENCES);
    }
    // The genuine one still works.
    expect((await oneClick(site, owner)).status).toBe(200);
  });

  test('the one-click body as multipart/form-data (what RFC 8058 §3.1 says a mail program SHOULD send) unsubscribes too', async () => {
    const site = await preferencesSite();
    const path = (await messageLinks(site)).owner();
    const posted = await request(site.app).post(path).field('List-Unsubscribe', 'One-Click');
    expect(posted.status).toBe(200);
    expect((await site.mail.preferences.get(PEOPLE.owner.userName)).messages).toBe('never');
  });

  test('a POST without the one-click body is refused (400) and changes nothing', async () => {
    const site = await preferencesSite();
    const path = (await messageLinks(site)).owner();
    expect((await oneClick(site, path, null)).status).toBe(400);
    expect((await oneClick(site, path, 'List-Unsubscribe=Yes')).status).toBe(400);
    expect((await request(site.app).post(path).send({ 'List-Unsubscribe': 'One-Click' })).status).toBe(400);
    expect(await site.mail.preferences.get(PEOPLE.owner.userName)).toEqual(DEFAULT_MAIL_PREFERENCES);
  });

  test('a one-click POST replayed (a mail program retrying, a second click) answers 200 again and leaves that topic off and the others as they were', async () => {
    const site = await preferencesSite();
    const path = (await messageLinks(site)).owner();
    expect((await oneClick(site, path)).status).toBe(200);
    const once = await site.mail.preferences.get(PEOPLE.owner.userName);
    expect(once.messages).toBe('never');
    for (let i = 0; i < 3; i++) expect((await oneClick(site, path)).status).toBe(200);
    expect(await site.mail.preferences.get(PEOPLE.owner.userName)).toEqual(once);
    expect(once).toEqual({ ...DEFAULT_MAIL_PREFERENCES, messages: 'never' });
  });

  test('a body past 1 KiB — urlencoded, a multipart field of 1 MB, a multipart file — is refused (413 or 400, naming the problem) and changes nothing', async () => {
    const site = await preferencesSite();
    const path = (await messageLinks(site)).owner();
    const big = 'x'.repeat(1024 * 1024);
    const urlencoded = await oneClick(site, path, `List-Unsubscribe=One-Click&pad=${big}`);
    expect(urlencoded.status).toBe(413);
    const field = await request(site.app).post(path).field('List-Unsubscribe', 'One-Click').field('pad', big);
    expect(field.status).toBe(400);
    expect(field.text).toMatch(/at most 1 KiB/);
    const file = await request(site.app)
      .post(path)
      .field('List-Unsubscribe', 'One-Click')
      .attach('file', Buffer.from('not a form field'), 'note.txt');
    expect(file.status).toBe(400);
    expect(file.text).toMatch(/no files/);
    expect(await site.mail.preferences.get(PEOPLE.owner.userName)).toEqual(DEFAULT_MAIL_PREFERENCES);
    // The genuine one-click still works afterwards.
    expect((await oneClick(site, path)).status).toBe(200);
  });

  test('the link of an account deleted is a 404, and stays one for a new account of the same name', async () => {
    const site = await preferencesSite();
    const path = (await messageLinks(site, 'owner')).expert();
    await site.db.k.transaction().execute((trx) => eraseAccount(trx, { userName: PEOPLE.expert.userName }));
    expect((await oneClick(site, path)).status).toBe(404);
    expect((await request(site.app).get(path)).status).toBe(404);

    await addUser(site.db, PEOPLE.expert);
    expect((await oneClick(site, path)).status).toBe(404);
    expect(await site.mail.preferences.get(PEOPLE.expert.userName)).toEqual(DEFAULT_MAIL_PREFERENCES);
  });
});
