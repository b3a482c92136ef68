// A project's documents: its proposal and its report, for its participants only (everyone else
// gets the site's 404 page, as for a URL that names nothing), localised by the URL prefix,
// branded with the owner's colour, and bounded however long the project's history grows.
import type { Express } from 'express';
import request from 'supertest';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Db } from '../../server/db/index.ts';
import { renderJob, type PdfJob } from '../../server/pdf/jobs.ts';
import { PROJECT_REPORT_NEWEST } from '../../server/pdf/project-documents.ts';
import { pdfRenderer, type PdfRenderer } from '../../server/pdf/renderer.ts';
import { createTestApp, ORIGIN } from '../helpers/app.ts';
import { DEFAULT_PASSWORD } from '../helpers/users.ts';
import { activeProject, api, BRIEF, PDF, PEOPLE, signInEveryone, type Person, UNLIMITED } from '../projects/fixtures.ts';
import { pdfInfo, pdfObjects, pdfText } from './pdf-text.ts';

const OWNER_COLOR = '#7c3aed';
const TEAL = [0x30, 0xb7, 0xbb];

/** Lays out in this thread and keeps each job, to see what the route read. */
function recordingRenderer(): { renderer: PdfRenderer; jobs: PdfJob[] } {
  const jobs: PdfJob[] = [];
  const renderer: PdfRenderer = {
    render: async (job) => {
      jobs.push(structuredClone(job));
      return renderJob(job);
    },
    state: () => ({ running: false, waiting: 0, thread: false }),
    close: async () => {},
  };
  return { renderer, jobs };
}

const binary = (req: request.Test) =>
  req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });

/** The fill colour of the header band (a 64-point-high rectangle at the top), as 0–255 values. */
function bandFill(pdf: Buffer): number[] | undefined {
  for (const { stream } of pdfObjects(pdf).values()) {
    const fill = stream && /0 0 [\d.]+ 64 re\s+\/DeviceRGB cs\s+([\d. ]+) scn/.exec(stream.toString('latin1'))?.[1];
    if (fill) return fill.split(' ').map((n) => Math.round(Number(n) * 255));
  }
  return undefined;
}

/** Intl writes a no-break space between the amount and "€": compare with plain spaces. */
const textOf = (pdf: Buffer) => pdfText(pdf).replace(/\u00a0|\u202f/g, ' ');

let app: Express;
let db: Db;
let jobs: PdfJob[];
let tokens: Record<Person, string>;
const cookies = {} as Record<Person, string>;
/** Active, with the expert, a milestone done and one open, and a document. */
let active: number;
/** A brief: no proposal yet. */
let brief: number;

beforeAll(async () => {
  const recording = recordingRenderer();
  jobs = recording.jobs;
  const made = await createTestApp(UNLIMITED, { pdfRenderer: recording.renderer });
  app = made.app;
  db = made.db;
  tokens = await signInEveryone(app, db);
  for (const person of Object.keys(PEOPLE) as Person[]) {
    const res = await request(app)
      .post('/login')
      .set('Origin', ORIGIN)
      .type('form')
      .send({ identifier: PEOPLE[person].userName, password: DEFAULT_PASSWORD });
    cookies[person] = String(res.headers['set-cookie']).split(';')[0]!;
  }
  // The owner's company's branding (docs/decisions/041), set as the admin sets it.
  expect((await api(app, tokens.admin).put(`/admin/branding/${PEOPLE.owner.userName}`, { color: OWNER_COLOR })).status).toBe(200);

  active = await activeProject(app, tokens);
  const expert = api(app, tokens.expert);
  const done = await expert.post(`/projects/${active}/milestones`, { title: 'Modelo de datos acordado', dueDate: '2027-01-31' });
  await expert.patch(`/projects/${active}/milestones/${done.body.milestones[0].id}`, { done: true });
  await expert.post(`/projects/${active}/milestones`, { title: 'Cuadro de mando diario', dueDate: '2027-02-28' });
  expect((await api(app, tokens.owner).upload(`/projects/${active}/documents`, PDF, 'Pliego técnico.pdf')).status).toBe(201);
  brief = (await api(app, tokens.owner).post('/projects', BRIEF)).body.id as number;
});

const get = (path: string, who?: Person) => {
  const req = request(app).get(path);
  return binary(who ? req.set('Cookie', cookies[who]) : req);
};

describe('the proposal', () => {
  test('shows the title, the owner, the practice, the brief, the scope, the fee in euros, the timeline and the dates, in Spanish', async () => {
    const res = await get(`/documents/projects/${active}/proposal.pdf`, 'owner');
    expect(res.status).toBe(200);
    const pdf = res.body as Buffer;
    expect(pdfInfo(pdf, 'Title')).toBe('Propuesta');
    const text = textOf(pdf);
    for (const expected of [
      BRIEF.title,
      'Preparada para Carla Acme',
      'ÁreaDatos',
      'El encargo',
      BRIEF.description,
      'Alcance',
      'Dashboards for 12 shops',
      'Calendario',
      'Eight weeks from the start',
      'Honorarios18.000 €',
      'Enviada el',
      'Aceptada el',
    ]) {
      expect(text).toContain(expected);
    }
  });

  test('is in English under /en, the fee written €18,000', async () => {
    const res = await get(`/en/documents/projects/${active}/proposal.pdf`, 'owner');
    const pdf = res.body as Buffer;
    expect(pdfInfo(pdf, 'Title')).toBe('Proposal');
    const text = textOf(pdf);
    for (const expected of [
      BRIEF.title,
      'Prepared for Carla Acme',
      'PracticeData',
      'The brief',
      'Scope',
      'Timeline',
      'Fee€18,000',
      'Sent on',
      'Accepted on',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toMatch(/Honorarios|Propuesta/);
  });

  test('a proposal awaiting its answer says until when it stands (30 days from sending)', async () => {
    const id = (await api(app, tokens.owner).post('/projects', BRIEF)).body.id as number;
    const proposal = { scope: 'Un informe', fee: 1234567, timeline: 'Dos semanas' };
    await api(app, tokens.admin).patch(`/projects/${id}`, { action: 'send_proposal', proposal });
    const text = textOf((await get(`/documents/projects/${id}/proposal.pdf`, 'owner')).body as Buffer);
    expect(text).toContain('1.234.567 €');
    expect(text).toMatch(/Esta propuesta es válida durante 30 días desde su envío: hasta el \d{1,2} de \p{L}+ de \d{4}\./u);
    const en = textOf((await get(`/en/documents/projects/${id}/proposal.pdf`, 'owner')).body as Buffer);
    expect(en).toContain('€1,234,567');
    expect(en).toMatch(/This proposal is valid for 30 days from the day it was sent: until \p{L}+ \d{1,2}, \d{4}\./u);
  });
});

describe('the project report', () => {
  test('shows the state, the owner, the experts, the milestones, the documents with their sizes and the history, in Spanish', async () => {
    const res = await get(`/documents/projects/${active}/report.pdf`, 'expert');
    expect(res.status).toBe(200);
    const pdf = res.body as Buffer;
    expect(pdfInfo(pdf, 'Title')).toBe('Informe del proyecto');
    const text = textOf(pdf);
    for (const expected of [
      BRIEF.title,
      'Carla Acme · Datos',
      'EstadoEn curso',
      '18.000 €, enviada el',
      'Expertos asignados',
      'Eva Expert',
      'Modelo de datos acordado31 ene 2027',
      '· Eva Expert',
      'Cuadro de mando diario28 feb 2027Pendiente',
      'Pliego técnico.pdf',
      `${PDF.length} B`,
      'Solicitud enviada',
      'Propuesta enviada: 18.000 €',
      'De «Propuesta enviada» a «En curso»',
      'Experto/a asignado/a: Eva Expert',
      'Hito cumplido: Modelo de datos acordado',
      'Sara Staff',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('Se muestran');
  });

  test('is in English under /en, with the states’ English names', async () => {
    const pdf = (await get(`/en/documents/projects/${active}/report.pdf`, 'admin')).body as Buffer;
    expect(pdfInfo(pdf, 'Title')).toBe('Project report');
    const text = textOf(pdf);
    for (const expected of [
      'StateIn progress',
      '€18,000, sent on',
      'Assigned experts',
      'Modelo de datos acordadoJan 31, 2027',
      'Cuadro de mando diarioFeb 28, 2027Open',
      'Pliego técnico.pdf',
      'Brief submitted',
      'Proposal sent: €18,000',
      'From “Proposal sent” to “In progress”',
      'Expert assigned: Eva Expert',
      'Milestone done: Modelo de datos acordado',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toMatch(/En curso|Historial/);
  });

  test('a brief’s report says that no proposal and no expert are there yet', async () => {
    const text = textOf((await get(`/documents/projects/${brief}/report.pdf`, 'owner')).body as Buffer);
    expect(text).toContain('EstadoEncargo recibido');
    expect(text).toContain('Todavía no se ha enviado ninguna propuesta.');
    expect(text).toContain('Todavía no hay ningún experto asignado.');
  });

  test(`lists only the newest ${PROJECT_REPORT_NEWEST} events, and says how many there are`, async () => {
    const id = (await api(app, tokens.owner).post('/projects', BRIEF)).body.id as number;
    const extra = PROJECT_REPORT_NEWEST + 100;
    await db.k
      .insertInto('project_events')
      .values(
        Array.from({ length: extra }, (_, i) => ({
          project_id: id,
          at: new Date(Date.UTC(2026, 10, 1, 0, i)).toISOString(),
          actor: 'staff',
          actor_name: 'Sara Staff',
          kind: 'milestone_added',
          from_state: null,
          to_state: null,
          detail: `Paso ${String(i).padStart(4, '0')}`,
        })),
      )
      .execute();
    const before = jobs.length;
    const res = await get(`/en/documents/projects/${id}/report.pdf`, 'admin');
    expect(res.status).toBe(200);
    const job = jobs[before];
    expect(job?.kind).toBe('report');
    if (job?.kind !== 'report') return;
    // Only the newest were read: the brief's own "created" event is among the oldest left out.
    expect(job.project.events).toHaveLength(PROJECT_REPORT_NEWEST);
    expect(job.project.eventCount).toBe(extra + 1);
    const text = textOf(res.body as Buffer);
    expect(text).toContain(`Showing the newest 500 of ${extra + 1} events.`);
    expect(text).toContain(`Paso ${String(extra - 1).padStart(4, '0')}`);
    expect(text).toContain(`Paso ${String(extra - PROJECT_REPORT_NEWEST).padStart(4, '0')}`);
    expect(text).not.toContain(`Paso ${String(extra - PROJECT_REPORT_NEWEST - 1).padStart(4, '0')}`);
    expect(text).not.toContain('Brief submitted');
  });
});

describe('both documents', () => {
  test.each(['proposal', 'report'])('the %s carries the owner’s colour in its header band, whoever downloads it', async (kind) => {
    for (const who of ['owner', 'admin', 'expert'] as const) {
      const pdf = (await get(`/documents/projects/${active}/${kind}.pdf`, who)).body as Buffer;
      expect(bandFill(pdf), who).toEqual([0x7c, 0x3a, 0xed]);
    }
  });

  test('a project whose owner has no branding colour gets the site’s teal', async () => {
    const id = (await api(app, tokens.org).post('/projects', BRIEF)).body.id as number;
    const pdf = (await get(`/documents/projects/${id}/report.pdf`, 'admin')).body as Buffer;
    expect(bandFill(pdf)).toEqual(TEAL);
  });

  test('embed Montserrat (Regular, Bold, Black)', async () => {
    for (const kind of ['proposal', 'report']) {
      const source = ((await get(`/documents/projects/${active}/${kind}.pdf`, 'owner')).body as Buffer).toString('latin1');
      for (const weight of ['Regular', 'Bold', 'Black']) expect(source).toMatch(new RegExp(`/BaseFont /[A-Z]{6}\\+Montserrat-${weight}`));
    }
  });

  test('are laid out by the layout thread like the other documents', async () => {
    await get(`/documents/projects/${active}/proposal.pdf`, 'owner');
    await get(`/documents/projects/${active}/report.pdf`, 'owner');
    const thread = pdfRenderer();
    try {
      for (const kind of ['proposal', 'report']) {
        const job = jobs.findLast((made) => made.kind === kind)!;
        // One time in both footers (the job is the recorder's own copy).
        job.ctx.generatedAt = new Date('2026-11-22T09:05:00Z');
        expect(textOf(await thread.render(job))).toBe(textOf(await renderJob(job)));
      }
    } finally {
      await thread.close();
    }
  });

  test('are attachments named after the project and the day, never cached', async () => {
    const cases = [
      [`/documents/projects/${active}/proposal.pdf`, `propuesta-${active}-data-platform-for-the-sales-team`],
      [`/en/documents/projects/${active}/proposal.pdf`, `proposal-${active}-data-platform-for-the-sales-team`],
      [`/es/documents/projects/${active}/report.pdf`, `informe-proyecto-${active}-data-platform-for-the-sales-team`],
      [`/en/documents/projects/${active}/report.pdf`, `project-report-${active}-data-platform-for-the-sales-team`],
    ] as const;
    for (const [path, name] of cases) {
      const res = await get(path, 'owner');
      expect(res.status, path).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['cache-control']).toBe('private, no-store, no-transform');
      expect(res.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="${name}-\\d{4}-\\d{2}-\\d{2}\\.pdf"$`));
    }
  });
});

describe('who may download them', () => {
  const table = [
    ['admin', 200],
    ['owner', 200],
    ['expert', 200],
    ['otherClient', 404],
    ['org', 404],
    ['otherExpert', 404],
  ] as const;

  test.each(['proposal', 'report'].flatMap((kind) => table.map(([who, status]) => [kind, who, status] as const)))(
    'the %s of a project: %s gets %i',
    async (kind, who, status) => {
      const res = await get(`/en/documents/projects/${active}/${kind}.pdf`, who);
      expect(res.status).toBe(status);
      if (status === 200) {
        expect(res.headers['content-type']).toBe('application/pdf');
      } else {
        // The site's 404 page, as for a URL that names nothing: not a word about the project.
        expect(res.headers['content-type']).toMatch(/^text\/html/);
        expect((res.body as Buffer).toString()).not.toContain(BRIEF.title);
      }
    },
  );

  test.each(['proposal', 'report'])(
    'signed out, the %s sends to login in the locale of the URL, as the other documents do',
    async (kind) => {
      const res = await request(app).get(`/en/documents/projects/${active}/${kind}.pdf`);
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('/en/login');
      expect(res.headers['cache-control']).toBe('private, no-store');
      // Remembered (or not) like "my profile": the spec's safe-path whitelist has no '.', so no document path is.
      const profile = await request(app).get('/en/documents/my-profile.pdf');
      expect(res.headers['set-cookie']).toEqual(profile.headers['set-cookie']);
      expect((await request(app).get(`/documents/projects/${active}/${kind}.pdf`)).headers.location).toBe('/login');
    },
  );

  test('a project that does not exist is a 404, even for an admin', async () => {
    for (const kind of ['proposal', 'report']) {
      expect((await get(`/documents/projects/999999/${kind}.pdf`, 'admin')).status).toBe(404);
    }
  });

  test('the proposal of a brief that has none is a 404; its report is there', async () => {
    for (const who of ['owner', 'admin'] as const) {
      expect((await get(`/documents/projects/${brief}/proposal.pdf`, who)).status).toBe(404);
      expect((await get(`/documents/projects/${brief}/report.pdf`, who)).status).toBe(200);
    }
  });

  test.each(['abc', '99999999999', '2147483648', '0', '-1', '1.5', '1e3', '%31', '01'])(
    'an id that cannot name a project (%s) is a 404, signed in or not',
    async (id) => {
      for (const who of ['admin', undefined] as const) {
        const res = await get(`/documents/projects/${id}/report.pdf`, who);
        expect(res.status, String(who)).toBe(404);
      }
    },
  );
});
