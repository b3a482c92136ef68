// The private calendar feed (docs/decisions/043): a user's secret address lists exactly the milestones (with
// a due day) and deadlines of the projects they see now, as iCalendar that a calendar library
// reads; renewing it kills the old address, stopping it kills it too; a tampered or unknown
// address, a disabled user, a project they no longer see: nothing. Both engines.
import ICAL from 'ical.js';
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { moveUser } from '../../server/companies/companies.ts';
import { escapeText, foldLine, renderCalendar } from '../../server/calendar-feed/ics.ts';
import { setDisabled } from '../../server/users/users.ts';
import { ORIGIN, TEST_ENGINE, createTestApp } from '../helpers/app.ts';
import { addUser, loginToken } from '../helpers/users.ts';
import { postProfile, signIn } from '../my-account/helpers.ts';
import { api, BRIEF, PEOPLE, UNLIMITED } from '../projects/fixtures.ts';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const PROPOSAL = { scope: 'Scope', fee: 1000, timeline: 'Soon' };

type Event = { uid: string; summary: string; start: string; url: string | null };

/** The feed read as a calendar app does: its events by a real iCalendar parser. */
function eventsOf(ics: string): Event[] {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  return calendar.getAllSubcomponents('vevent').map((vevent) => {
    const event = new ICAL.Event(vevent);
    return {
      uid: event.uid,
      summary: event.summary,
      start: event.startDate.toString(),
      url: (vevent.getFirstPropertyValue('url') as string | null) ?? null,
    };
  });
}

/** The admin, the client "acme" with an active project (two dated milestones, one undated, a deadline), another client with one of theirs. */
async function site(env: Record<string, string> = {}) {
  const app = await createTestApp({ ...UNLIMITED, ...env });
  for (const person of [PEOPLE.admin, PEOPLE.owner, PEOPLE.otherClient, PEOPLE.expert]) await addUser(app.db, person);
  const admin = await loginToken(app.app, PEOPLE.admin.userName);
  const owner = await loginToken(app.app, PEOPLE.owner.userName);
  const other = await loginToken(app.app, PEOPLE.otherClient.userName);
  const project = async (token: string, title: string, deadline: string) => {
    const created = await api(app.app, token).post('/projects', { ...BRIEF, title, deadline });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    expect((await api(app.app, admin).patch(`/projects/${id}`, { action: 'send_proposal', proposal: PROPOSAL })).status).toBe(200);
    expect((await api(app.app, token).patch(`/projects/${id}`, { action: 'accept', version: 1 })).status).toBe(200);
    return id;
  };
  const mine = await project(owner, 'Sales, data; and more', day(60));
  const theirs = await project(other, 'Globex rollout', day(40));
  for (const [id, title, dueDate] of [
    [mine, 'Kick-off', day(7)],
    [mine, 'Data model, v1', day(21)],
    [mine, 'Someday', null],
    [mine, 'Long ago', day(-200)],
    [theirs, 'Globex milestone', day(10)],
  ] as const) {
    const added = await api(app.app, admin).post(`/projects/${id}/milestones`, { title, dueDate });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
  }
  return { app, tokens: { admin, owner, other }, mine, theirs };
}

/** The user makes their address from the profile (a form without JavaScript): its path. */
async function makeAddress(app: Awaited<ReturnType<typeof site>>['app'], userName: string, intent = 'calendarCreate'): Promise<string> {
  const cookie = await signIn(app.app, userName);
  const made = await postProfile(app.app, cookie, { intent });
  expect(made.status).toBe(303);
  expect(made.headers.location).toBe(`/en/profile?saved=${intent}#calendar-title`);
  const data = await request(app.app).get('/_data').query({ path: '/en/profile' }).set('Cookie', cookie);
  const url = data.body.payload.state.data.calendar?.url as string;
  expect(url).toMatch(new RegExp(`^${ORIGIN}/calendar/\\d+-[A-Za-z0-9_-]{43}\\.ics$`));
  return url.slice(ORIGIN.length);
}

describe('iCalendar (RFC 5545)', () => {
  test('text values are escaped: backslash, semicolon, comma, line breaks', () => {
    expect(escapeText('a\\b;c,d\ne\r\nf')).toBe('a\\\\b\\;c\\,d\\ne\\nf');
  });

  test('lines are folded at 75 octets, never inside a character, and unfold to what they were', () => {
    const line = `SUMMARY:${'Hito «señalado» ✓ '.repeat(12)}`;
    const folded = foldLine(line);
    const parts = folded.split('\r\n');
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(new TextEncoder().encode(part).length).toBeLessThanOrEqual(75);
    expect(parts.slice(1).every((part) => part.startsWith(' '))).toBe(true);
    expect(parts.map((part, i) => (i === 0 ? part : part.slice(1))).join('')).toBe(line);
  });

  test('a calendar ends every line with CRLF and parses, with all-day events', () => {
    const ics = renderCalendar({
      productId: '-//Test//EN',
      name: 'Test',
      stamp: new Date('2026-11-27T10:00:00Z'),
      events: [{ uid: 'a@x', day: '2026-12-31', summary: 'New year, eve; ok', url: 'https://x.test/p/1' }],
    });
    expect(
      ics
        .split('\r\n')
        .slice(0, -1)
        .every((line) => !line.includes('\n')),
    ).toBe(true);
    expect(ics.endsWith('\r\n')).toBe(true);
    expect(eventsOf(ics)).toEqual([{ uid: 'a@x', summary: 'New year, eve; ok', start: '2026-12-31', url: 'https://x.test/p/1' }]);
  });
});

describe(`the calendar feed (${TEST_ENGINE})`, () => {
  test('lists exactly the user’s dated milestones and deadlines from 90 days ago, soonest first, with links to the projects', async () => {
    const { app, mine } = await site();
    const path = await makeAddress(app, PEOPLE.owner.userName);
    const res = await request(app.app).get(path);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['cache-control']).toBe('private, no-store');
    const events = eventsOf(res.text);
    expect(events.map((e) => [e.summary, e.start])).toEqual([
      ['Kick-off — Sales, data; and more', day(7)],
      ['Data model, v1 — Sales, data; and more', day(21)],
      ['Deadline: Sales, data; and more', day(60)],
    ]);
    expect(events[0]!.url).toBe(`${ORIGIN}/en/client/projects/${mine}`);
    expect(new Set(events.map((e) => e.uid)).size).toBe(3);
    // The same address again: the same events (a calendar app updates, never duplicates).
    expect(eventsOf((await request(app.app).get(path)).text).map((e) => e.uid)).toEqual(events.map((e) => e.uid));
  });

  test('an admin’s lists every project; an expert’s only those they are assigned to', async () => {
    const { app, tokens, mine } = await site();
    const adminEvents = eventsOf((await request(app.app).get(await makeAddress(app, PEOPLE.admin.userName))).text);
    expect(adminEvents.map((e) => e.summary)).toContain('Globex milestone — Globex rollout');
    // Both projects' dated milestones and deadlines; neither the undated one nor the one long past.
    expect(adminEvents).toHaveLength(5);
    const expertPath = await makeAddress(app, PEOPLE.expert.userName);
    expect(eventsOf((await request(app.app).get(expertPath)).text)).toEqual([]);
    await api(app.app, tokens.admin).post(`/projects/${mine}/experts`, { userName: PEOPLE.expert.userName });
    const events = eventsOf((await request(app.app).get(expertPath)).text);
    expect(events.map((e) => e.summary)).toEqual([
      'Kick-off — Sales, data; and more',
      'Data model, v1 — Sales, data; and more',
      'Deadline: Sales, data; and more',
    ]);
    expect(events[0]!.url).toBe(`${ORIGIN}/en/expert/projects/${mine}`);
  });

  test('a new address kills the old one; turning it off kills it too; it can be made again', async () => {
    const { app } = await site();
    const first = await makeAddress(app, PEOPLE.owner.userName);
    const second = await makeAddress(app, PEOPLE.owner.userName, 'calendarRenew');
    expect(second).not.toBe(first);
    expect((await request(app.app).get(first)).status).toBe(404);
    expect((await request(app.app).get(second)).status).toBe(200);
    const cookie = await signIn(app.app, PEOPLE.owner.userName);
    expect((await postProfile(app.app, cookie, { intent: 'calendarStop' })).status).toBe(303);
    expect((await request(app.app).get(second)).status).toBe(404);
    const data = await request(app.app).get('/_data').query({ path: '/en/profile' }).set('Cookie', cookie);
    expect(data.body.payload.state.data.calendar).toBeNull();
    const third = await makeAddress(app, PEOPLE.owner.userName);
    expect([first, second]).not.toContain(third);
  });

  test('a tampered, unknown or malformed address is a 404 that names nothing; another user’s id with one’s own code too', async () => {
    const { app } = await site();
    const mine = await makeAddress(app, PEOPLE.owner.userName);
    const theirs = await makeAddress(app, PEOPLE.otherClient.userName);
    const [, myId, myMac] = /^\/calendar\/(\d+)-(.+)\.ics$/.exec(mine)!;
    const [, theirId] = /^\/calendar\/(\d+)-(.+)\.ics$/.exec(theirs)!;
    const flipped = myMac!.slice(0, -1) + (myMac!.endsWith('A') ? 'B' : 'A');
    for (const path of [
      `/calendar/${myId}-${flipped}.ics`,
      `/calendar/${theirId}-${myMac}.ics`,
      `/calendar/999999-${myMac}.ics`,
      `/calendar/${myId}-${myMac}`,
      `/calendar/${myId}-${myMac}.ics.ics`,
      `/calendar/0-${myMac}.ics`,
      `/calendar/${'9'.repeat(30)}-${myMac}.ics`,
      '/calendar/x.ics',
    ]) {
      const res = await request(app.app).get(path);
      expect(res.status, path).toBe(404);
      expect(res.text, path).not.toContain('Sales');
    }
  });

  test('what it lists is decided at each read: a disabled user’s feed is gone, a user moved out of the company no longer sees its projects', async () => {
    const { app } = await site();
    const path = await makeAddress(app, PEOPLE.owner.userName);
    await moveUser(app.db, PEOPLE.owner.userName, { newName: 'Elsewhere S.L.' }, 'manager');
    expect(eventsOf((await request(app.app).get(path)).text)).toEqual([]);
    await setDisabled(app.db, PEOPLE.owner.userName, true);
    expect((await request(app.app).get(path)).status).toBe(404);
  });

  test('an address read past CALENDAR_READS_PER_HOUR still answers its owner: the calendar made when the reads ran out, without reading the projects again', async () => {
    const { app, tokens, mine } = await site({ CALENDAR_READS_PER_HOUR: '2' });
    const path = await makeAddress(app, PEOPLE.owner.userName);
    // Someone who has the address reads it as often as the hour allows, and more.
    for (let i = 0; i < 2; i++) expect((await request(app.app).get(path)).status).toBe(200);
    const drained = await request(app.app).get(path);
    expect(drained.status).toBe(200);
    expect(drained.headers['content-type']).toBe('text/calendar; charset=utf-8');
    const events = eventsOf(drained.text).map((e) => e.summary);
    expect(events).toContain('Deadline: Sales, data; and more');
    // A milestone added now is not read into it until the hour ends: the copy is served, nothing is read again.
    expect((await api(app.app, tokens.admin).post(`/projects/${mine}/milestones`, { title: 'Added later', dueDate: day(9) })).status).toBe(
      201,
    );
    for (let i = 0; i < 5; i++) {
      const again = await request(app.app).get(path);
      expect(again.status).toBe(200);
      expect(again.text).toBe(drained.text);
    }
    // What decides whether the address opens is still read: a disabled owner's address shows nothing.
    await setDisabled(app.db, PEOPLE.owner.userName, true);
    expect((await request(app.app).get(path)).status).toBe(404);
  });

  test('a renewed address has reads of its own: the reads of the old one do not use them up', async () => {
    const { app, tokens, mine } = await site({ CALENDAR_READS_PER_HOUR: '2' });
    const old = await makeAddress(app, PEOPLE.owner.userName);
    for (let i = 0; i < 4; i++) await request(app.app).get(old);
    expect((await api(app.app, tokens.admin).post(`/projects/${mine}/milestones`, { title: 'Added later', dueDate: day(9) })).status).toBe(
      201,
    );
    const renewed = await makeAddress(app, PEOPLE.owner.userName, 'calendarRenew');
    expect(renewed).not.toBe(old);
    const read = await request(app.app).get(renewed);
    expect(read.status).toBe(200);
    expect(eventsOf(read.text).map((e) => e.summary)).toContain('Added later — Sales, data; and more');
  });

  test('in the user’s language: a Spanish reader’s calendar speaks Spanish', async () => {
    const { app } = await site();
    const cookie = await signIn(app.app, PEOPLE.owner.userName);
    expect((await postProfile(app.app, cookie, { intent: 'calendarCreate' }, { path: '/profile' })).status).toBe(303);
    const data = await request(app.app).get('/_data').query({ path: '/profile' }).set('Cookie', cookie);
    const path = (data.body.payload.state.data.calendar.url as string).slice(ORIGIN.length);
    // The language of a page view is recorded after the answer (it never waits the page): the
    // calendar speaks it once that write has landed.
    const summaries = async () => eventsOf((await request(app.app).get(path)).text).map((e) => e.summary);
    await expect.poll(summaries).toContain('Plazo: Sales, data; and more');
  });
});
