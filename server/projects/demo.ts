// The demo projects of `npm run seed:demo`: one in every state, with messages, milestones and
// documents, so that a new user of each role meets a living private area. Made through the
// services (the same rules as the site), and only when there are no projects yet.
import type { Db } from '../db/index.ts';
import { findUser } from '../users/users.ts';
import type { Actor } from './access.ts';
import { createConversation } from './conversation.ts';
import { chunksOf } from './document-chunks.ts';
import { createExpertise } from './expertise.ts';
import { createProjects } from './service.ts';

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  'latin1',
);

/** Each demo project's proposal: its own work, fee and timeline. */
const PROPOSALS = {
  portal: {
    fee: 42000,
    scope:
      'User research with 12 customers, a new information architecture, a mobile-first design system and the rebuilt portal, tested with real users before launch.',
    timeline: 'Fourteen weeks: research (3), design (4), build (6), launch and hand-over (1).',
  },
  openData: {
    fee: 68000,
    scope:
      'An inventory of the budget and contracts datasets, their cleaning and publication in open formats (CSV, JSON, DCAT-AP), and an accessible portal (EN 301 549) to browse them.',
    timeline: 'Twelve weeks from the kick-off: inventory (2), cleaning (3), portal beta (5), training and go-live (2).',
  },
  gdpr: {
    fee: 8500,
    scope:
      'A review of the loyalty programme against the GDPR: legal bases, consent texts, retention periods and processor contracts, with a report of findings and the fixed texts.',
    timeline: 'Four weeks: interviews and documents (1), review (2), report and fixed texts (1).',
  },
  carbon: {
    fee: 16000,
    scope:
      'A carbon footprint baseline of the shops and the logistics (scopes 1, 2 and 3 where data allows), following the GHG Protocol, with a reduction roadmap.',
    timeline: 'Eight weeks: data collection (4), calculation (2), roadmap and presentation (2).',
  },
  accessibility: {
    fee: 12000,
    scope:
      'An audit of the council website against EN 301 549 (WCAG 2.1 AA): 40 representative pages, tested with assistive technology, and the accessibility statement.',
    timeline: 'Six weeks: sample and tests (4), report and statement (2).',
  },
} as const;

export type DemoPeople = { admin: string; client: string; org: string; expert: string };

/** Creates the demo projects; returns how many (0 when the site already has projects). */
export async function seedDemoProjects(db: Db, people: DemoPeople): Promise<number> {
  const existing = await db.k
    .selectFrom('projects')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  if (Number(existing.n) > 0) return 0;
  const actor = async (userName: string): Promise<Actor> => {
    const user = await findUser(db, userName);
    if (!user) throw new Error(`seed: no user ${userName}`);
    return user;
  };
  const [admin, client, org, expert] = await Promise.all([
    actor(people.admin),
    actor(people.client),
    actor(people.org),
    actor(people.expert),
  ]);
  const projects = createProjects({ db, notify: async () => {} });
  const conversation = createConversation({ db, projects });
  await createExpertise({ db }).save(expert, {
    practices: ['data', 'digital'],
    bio: 'Data architect; twelve years building reporting for retail and the public sector.',
    dayRate: 650,
    availability: 'available',
    busyUntil: null,
  });
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

  // brief: waits for the company's proposal.
  await projects.create(client, {
    title: 'Sales dashboards for 12 shops',
    description: 'One place for the daily sales figures of our shops, by product line.',
    practice: 'data',
    budget: '10to50k',
    wishedStart: day(30),
    deadline: day(120),
    organisation: 'Acme Retail S.L.',
  });
  // proposal: waits for the client's answer.
  const p2 = await projects.create(client, {
    title: 'Customer portal redesign',
    description: 'Our customer portal is slow and hard to use on phones.',
    practice: 'digital',
    budget: '50to150k',
    organisation: 'Acme Retail S.L.',
  });
  await projects.act(admin, p2.id, 'send_proposal', PROPOSALS.portal);
  // active: an organisation's project with an expert, milestones, messages and a document.
  const p3 = await projects.create(org, {
    title: 'Open data portal',
    description: 'Publish the city budget and contracts as open data, with an accessible portal.',
    practice: 'data',
    budget: '50to150k',
    wishedStart: day(-20),
    deadline: day(70),
    organisation: 'Ayuntamiento de Ejemplo',
    procurementRef: 'EXP-2026/114',
  });
  await projects.act(admin, p3.id, 'send_proposal', PROPOSALS.openData);
  await projects.act(org, p3.id, 'accept', undefined, { version: 1 });
  await projects.assignExpert(admin, p3.id, expert.userName);
  await projects.addMilestone(expert, p3.id, { title: 'Data inventory agreed', dueDate: day(-5) });
  await projects.addMilestone(expert, p3.id, { title: 'Portal beta online', dueDate: day(5) });
  await projects.addMilestone(admin, p3.id, { title: 'Training for the staff', dueDate: day(40) });
  const first = (await projects.get(admin, p3.id)).milestones[0]!;
  await projects.setMilestoneDone(expert, p3.id, first.id, true);
  await conversation.postMessage(
    expert,
    p3.id,
    'Hello! I have gone through the datasets: the contracts need a cleaning step first. Details in the inventory.',
  );
  await conversation.addDocument(expert, p3.id, { name: 'data-inventory.pdf', chunks: chunksOf(PDF) });
  await conversation.postMessage(org, p3.id, 'Thank you. Can the beta include the 2025 budget too?');
  // delivered: waits for the client's confirmation.
  const p4 = await projects.create(client, {
    title: 'GDPR review of the loyalty programme',
    description: 'Check that our loyalty programme complies with the GDPR.',
    practice: 'compliance',
    budget: 'lt10k',
    organisation: 'Acme Retail S.L.',
  });
  await projects.act(admin, p4.id, 'send_proposal', PROPOSALS.gdpr);
  await projects.act(client, p4.id, 'accept', undefined, { version: 1 });
  await projects.assignExpert(admin, p4.id, expert.userName);
  await projects.act(expert, p4.id, 'deliver');
  // closed, declined and cancelled: kept for reference.
  const p5 = await projects.create(client, {
    title: 'Carbon footprint baseline',
    description: 'Measure the footprint of our shops and logistics.',
    practice: 'sustainability',
    budget: '10to50k',
  });
  await projects.act(admin, p5.id, 'send_proposal', PROPOSALS.carbon);
  await projects.act(client, p5.id, 'accept', undefined, { version: 1 });
  await projects.act(admin, p5.id, 'deliver');
  await projects.act(client, p5.id, 'close');
  const p6 = await projects.create(org, {
    title: 'Accessibility audit of the council website',
    description: 'An audit against EN 301 549.',
    practice: 'compliance',
    procurementRef: 'EXP-2026/087',
  });
  await projects.act(admin, p6.id, 'send_proposal', PROPOSALS.accessibility);
  await projects.act(org, p6.id, 'decline', undefined, { version: 1 });
  const p7 = await projects.create(client, {
    title: 'Warehouse sensors pilot',
    description: 'A pilot of temperature sensors in one warehouse.',
    practice: 'digital',
  });
  await projects.act(client, p7.id, 'withdraw');
  return 7;
}
