// Every e-mail the site sends, in both languages, as a real SMTP server receives it: the words of
// the recipient's language, the link to the page, the brand, and nothing loaded from elsewhere.
import { expect, test } from 'vitest';
import type { ProjectNotice, ProjectNoticeKind } from '../../server/mail/index.ts';
import { escapeHtml } from '../../server/http/html.ts';
import { ORIGIN } from '../helpers/app.ts';
import type { ReceivedMail } from '../helpers/smtp.ts';
import { addUsers, mailSetup, projectLink, projectPath, SITE_NAME } from './setup.ts';
import type { Locale } from '../../shared/locales.ts';

const ACTOR = { userName: 'ana', name: 'Ana Actora' };
const EXCERPT = '¿Podemos adelantar la reunión al martes? / Can we bring the meeting forward to Tuesday?';

/** The only URL an e-mail may hold is its link: no images, fonts, styles or anything else from a server. */
function expectSelfContained(html: string, ...links: string[]) {
  expect(html).not.toMatch(/<img|<link|<script|<iframe|<object|<embed|@import|url\(/i);
  expect(html).not.toMatch(/\ssrc=/i);
  expect(html).not.toContain('http://');
  expect(new Set(html.match(/https?:\/\/[^\s"'<>]+/g))).toEqual(new Set(links.map(escapeHtml)));
}

/** The one-click unsubscribe link of a notice (RFC 8058), as its headers give it. */
function unsubscribeLink(received: ReceivedMail): string {
  const list = received.headers.get('list') as { unsubscribe?: { url?: string }; 'unsubscribe-post'?: { name?: string } } | undefined;
  expect(list?.['unsubscribe-post']?.name).toBe('List-Unsubscribe=One-Click');
  const url = list?.unsubscribe?.url ?? '';
  expect(url).toMatch(/^https:\/\/www\.example\.test\/unsubscribe\/[A-Za-z0-9_-]+\.[a-z]+\.[A-Za-z0-9_-]{43}$/);
  return url;
}

function expectBranded(html: string) {
  expect(html).toContain('background-color:#30B7BB');
  expect(html).toContain(SITE_NAME);
}

type Case = { role: string; notice: Partial<ProjectNotice>; subject: string; words: string[] };

// What each notice must say, per language; the other language's footer must not appear.
// The words checked are those of the two locales this table was written for.
const CASES: Record<ProjectNoticeKind, Record<Extract<Locale, 'es' | 'en'>, Case>> = {
  brief_submitted: {
    es: {
      role: 'ADMIN',
      notice: {},
      subject: 'Nuevo encargo: «Plan de datos»',
      words: ['Ana Actora ha enviado un encargo nuevo', 'Ver el encargo', 'tu cuenta de Acme Consulting tiene el rol Administrador/a'],
    },
    en: {
      role: 'ADMIN',
      notice: {},
      subject: 'New brief: “Plan de datos”',
      words: ['Ana Actora has submitted a new brief', 'View the brief', 'your account at Acme Consulting has the Administrator role'],
    },
  },
  proposal_sent: {
    es: {
      role: 'CLI',
      notice: {},
      subject: 'Tienes una propuesta para «Plan de datos»',
      words: [
        'Ana Actora te ha enviado la propuesta',
        'aceptarla o rechazarla',
        'Ver la propuesta',
        'participas en el proyecto «Plan de datos»',
      ],
    },
    en: {
      role: 'CLI',
      notice: {},
      subject: 'A proposal for “Plan de datos” is waiting for you',
      words: [
        'Ana Actora has sent you the proposal',
        'accept or decline',
        'View the proposal',
        'you take part in the project “Plan de datos”',
      ],
    },
  },
  message_posted: {
    es: {
      role: 'ORG',
      notice: { excerpt: EXCERPT },
      subject: 'Nuevo mensaje en «Plan de datos»',
      words: ['Ana Actora ha escrito en el proyecto', EXCERPT, 'Leer y responder'],
    },
    en: {
      role: 'ORG',
      notice: { excerpt: EXCERPT },
      subject: 'New message in “Plan de datos”',
      words: ['Ana Actora wrote in the project', EXCERPT, 'Read and reply'],
    },
  },
  expert_assigned: {
    es: {
      role: 'CONS',
      notice: {},
      subject: 'Te han asignado al proyecto «Plan de datos»',
      words: ['Ana Actora te ha asignado al proyecto «Plan de datos» como persona experta', 'Ver el proyecto'],
    },
    en: {
      role: 'CONS',
      notice: {},
      subject: 'You have been assigned to “Plan de datos”',
      words: ['Ana Actora has assigned you as an expert', 'View the project'],
    },
  },
  milestone_done: {
    es: {
      role: 'CLI',
      notice: { milestone: 'Informe inicial' },
      subject: 'Hito completado en «Plan de datos»: Informe inicial',
      words: ['ha marcado como completado el hito «Informe inicial»'],
    },
    en: {
      role: 'CLI',
      notice: { milestone: 'Informe inicial' },
      subject: 'Milestone done in “Plan de datos”: Informe inicial',
      words: ['has marked the milestone “Informe inicial” of the project “Plan de datos” as done'],
    },
  },
  state_changed: {
    es: {
      role: 'ADMIN',
      notice: { from: 'proposal', to: 'active' },
      subject: 'Ana Actora aceptó la propuesta de «Plan de datos»',
      words: ['Ana Actora aceptó la propuesta del proyecto «Plan de datos». Asigna un experto para que el trabajo pueda empezar.'],
    },
    en: {
      role: 'CONS',
      notice: { from: 'delivered', to: 'closed' },
      subject: 'Ana Actora confirmed the delivery: “Plan de datos” is closed',
      words: ['Ana Actora confirmed the delivery of the project “Plan de datos”, which is now closed.'],
    },
  },
  document_added: {
    es: {
      role: 'CLI',
      notice: { document: 'informe.pdf' },
      subject: 'Documento nuevo en «Plan de datos»: informe.pdf',
      words: ['Ana Actora ha añadido el documento «informe.pdf» al proyecto «Plan de datos».', 'Ver los documentos'],
    },
    en: {
      role: 'CONS',
      notice: { document: 'informe.pdf' },
      subject: 'New document in “Plan de datos”: informe.pdf',
      words: ['Ana Actora added the document “informe.pdf” to the project “Plan de datos”.', 'View the documents'],
    },
  },
  milestone_due: {
    es: {
      role: 'CLI',
      notice: { milestone: 'Informe inicial', due: '2026-12-03' },
      subject: 'Recordatorio: «Informe inicial» vence el 3 de diciembre de 2026 («Plan de datos»)',
      words: ['El hito «Informe inicial» del proyecto «Plan de datos» vence el 3 de diciembre de 2026'],
    },
    en: {
      role: 'CONS',
      notice: { milestone: 'Informe inicial', due: '2026-12-03' },
      subject: 'Reminder: “Informe inicial” is due on December 3, 2026 (“Plan de datos”)',
      words: ['The milestone “Informe inicial” of the project “Plan de datos” is due on December 3, 2026'],
    },
  },
  milestone_overdue: {
    es: {
      role: 'ORG',
      notice: { milestone: 'Informe inicial', due: '2026-11-20' },
      subject: 'Vencido: «Informe inicial» vencía el 20 de noviembre de 2026 («Plan de datos»)',
      words: ['vencía el 20 de noviembre de 2026 y sigue sin completarse'],
    },
    en: {
      role: 'CLI',
      notice: { milestone: 'Informe inicial', due: '2026-11-20' },
      subject: 'Overdue: “Informe inicial” was due on November 20, 2026 (“Plan de datos”)',
      words: ['was due on November 20, 2026 and is still not done'],
    },
  },
};

const FOOTER = { es: 'Recibes este', en: 'You are receiving this' };
const GREETING = { es: 'Hola, Rita:', en: 'Hello Rita,' };

async function deliverOne(kind: ProjectNoticeKind, locale: Locale, role: string, notice: Partial<ProjectNotice>, title = 'Plan de datos') {
  const { smtp, db, mail } = await mailSetup();
  await addUsers(db, [{ userName: 'rita', name: 'Rita', role, locale }]);
  await mail.notifyProject({
    kind,
    project: { id: 7, title },
    actor: ACTOR,
    recipients: ['rita'],
    path: projectPath,
    ...notice,
  });
  await mail.flush();
  const [received] = await smtp.waitFor(1);
  return received!;
}

function parts(received: ReceivedMail) {
  return { subject: received.subject ?? '', text: received.text ?? '', html: received.html || '' };
}

test.each(Object.keys(CASES).flatMap((kind) => (['es', 'en'] as const).map((locale) => [kind as ProjectNoticeKind, locale] as const)))(
  'the %s e-mail in %s: subject, text and HTML in that language, with the link to the project page and nothing remote',
  async (kind, locale) => {
    const c = CASES[kind][locale];
    const received = await deliverOne(kind, locale, c.role, c.notice);
    const { subject, text, html } = parts(received);
    const link = projectLink(c.role, locale);
    expect(subject).toBe(c.subject);
    for (const part of [text, html]) {
      expect(part).toContain(GREETING[locale]);
      expect(part).toContain(FOOTER[locale]);
      expect(part).not.toContain(FOOTER[locale === 'es' ? 'en' : 'es']);
    }
    for (const words of c.words) {
      expect(text).toContain(words);
      expect(html).toContain(escapeHtml(words));
    }
    expect(text).toContain(link);
    expect(html).toContain(`href="${escapeHtml(link)}"`);
    expect(html).toContain(`<html lang="${locale}">`);
    // Every notice can be turned off in one click: the link in its headers is in its footer too.
    const unsubscribe = unsubscribeLink(received);
    expect(text).toContain(unsubscribe);
    expect(html).toContain(`href="${escapeHtml(unsubscribe)}"`);
    expectSelfContained(html, link, unsubscribe);
    expectBranded(html);
    expect(received.to && !Array.isArray(received.to) ? received.to.text : '').toBe('rita@example.com');
    expect(received.from?.value[0]).toEqual({ name: SITE_NAME, address: 'no-reply@www.example.test' });
  },
);

test('expert_assigned tells the owner who joined, by name', async () => {
  const owner = await deliverOne('expert_assigned', 'es', 'CLI', { expert: 'Eva Experta' });
  expect(owner.subject).toBe('Una persona experta se une a «Plan de datos»');
  expect(owner.text).toContain('Ana Actora ha asignado a Eva Experta al proyecto «Plan de datos».');
  const inEnglish = await deliverOne('expert_assigned', 'en', 'CLI', { expert: 'Eva Experta' });
  expect(inEnglish.text).toContain('Ana Actora has assigned Eva Experta to the project “Plan de datos”.');
  // A notice queued before the name was recorded still reads as a sentence.
  expect((await deliverOne('expert_assigned', 'es', 'CLI', {})).text).toContain('Ana Actora ha asignado a una persona experta al proyecto');
});

test('proposal_sent says which version of the proposal was sent', async () => {
  expect((await deliverOne('proposal_sent', 'es', 'CLI', { version: 2 })).text).toContain(
    'Ana Actora te ha enviado la propuesta del proyecto «Plan de datos» (versión 2): el alcance',
  );
  expect((await deliverOne('proposal_sent', 'en', 'CLI', { version: 2 })).text).toContain(
    'Ana Actora has sent you the proposal for the project “Plan de datos” (version 2): scope',
  );
});

test('a project title with <script> is escaped in the HTML and kept as written in the subject and the text', async () => {
  const title = '<script>alert("x")</script> & Co';
  const received = await deliverOne('state_changed', 'en', 'CLI', { from: 'brief', to: 'cancelled' }, title);
  const { subject, text, html } = parts(received);
  expect(html).not.toMatch(/<script/i);
  expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co');
  expect(subject).toBe(`Ana Actora cancelled “${title}”`);
  expect(text).toContain(`Ana Actora cancelled the project “${title}”.`);
});

test.each([
  {
    locale: 'es' as const,
    subject: '«Plan de datos»: Ana Actora marcó el trabajo como entregado — revísalo y confírmalo',
    lead: 'Revisa lo entregado y confirma la entrega: al confirmarla, el proyecto se cierra.',
    button: 'Revisar y confirmar la entrega',
  },
  {
    locale: 'en' as const,
    subject: '“Plan de datos”: Ana Actora marked the work as delivered — please review and confirm',
    lead: 'Please review what was delivered and confirm the delivery: confirming closes the project.',
    button: 'Review and confirm the delivery',
  },
])(
  'work delivered: the owner is asked, in $locale, to review and confirm, by a button to the confirmation',
  async ({ locale, subject, lead, button }) => {
    const received = await deliverOne('state_changed', locale, 'CLI', { from: 'active', to: 'delivered' });
    const { text, html } = parts(received);
    expect(received.subject).toBe(subject);
    expect(text).toContain(lead);
    const link = `${projectLink('CLI', locale)}?confirm=close#confirm-title`;
    expect(html).toContain(`href="${escapeHtml(link)}"`);
    expect(html).toContain(button);
    // An expert or an admin is only told.
    const expert = await deliverOne('state_changed', locale, 'CONS', { from: 'active', to: 'delivered' });
    expect(expert.html).not.toContain('?confirm=close');
  },
);

test('a message excerpt is cut to about 300 characters, between words', async () => {
  const long = `${'palabra '.repeat(100)}FINAL`;
  const received = await deliverOne('message_posted', 'es', 'CLI', { excerpt: long });
  const quoted = (received.text ?? '')
    .split('\n')
    .filter((line) => line.startsWith('> '))
    .map((line) => line.slice(2))
    .join('\n');
  expect(quoted.length).toBeLessThanOrEqual(301);
  expect(quoted.length).toBeGreaterThan(250);
  expect(quoted).toMatch(/palabra…$/);
  expect(received.text).not.toContain('FINAL');
});

test.each(['es', 'en'] as const)(
  'the contact_message e-mail to a staff member in %s: the visitor as reply-to, the message, the inbox link, nothing remote',
  async (locale) => {
    const { smtp, db, mail } = await mailSetup();
    await addUsers(db, [{ userName: 'root', name: 'Rosa', role: 'ADMIN', locale }]);
    const message = {
      id: 12,
      name: 'Lucía <b>Pérez</b>',
      email: 'lucia@example.com',
      subject: 'Data project',
      message: 'We need help with a data strategy.\nCall me.',
      locale: 'en' as const,
      read: false,
      status: 'new' as const,
      company: null,
      notifyStatus: 'pending' as const,
      createdAt: new Date().toISOString(),
    };
    await mail.notifyContact(message);
    await mail.flush();
    const [received] = await smtp.waitFor(1);
    const { subject, text, html } = parts(received!);
    const link = `${ORIGIN}${locale === 'es' ? '/admin' : '/en/admin'}`;
    const words =
      locale === 'es'
        ? [
            'Hola, Rosa:',
            'ha escrito desde el formulario de contacto de Acme Consulting (en inglés)',
            'Correo electrónico',
            'Abrir la bandeja de entrada',
            'tiene el rol Administrador/a',
          ]
        : [
            'Hello Rosa,',
            'wrote through the contact form of Acme Consulting (in English)',
            'Email',
            'Open the inbox',
            'has the Administrator role',
          ];
    expect(subject).toBe(locale === 'es' ? 'Mensaje de contacto: Data project' : 'Contact message: Data project');
    expect(received!.replyTo?.value[0]?.address).toBe('lucia@example.com');
    for (const w of words) {
      expect(text).toContain(w);
      expect(html).toContain(escapeHtml(w));
    }
    expect(text).toContain('> We need help with a data strategy.\n> Call me.');
    expect(html).toContain('Lucía &lt;b&gt;Pérez&lt;/b&gt;');
    expect(text).toContain(link);
    expectSelfContained(html, link);
    expectBranded(html);
  },
);
