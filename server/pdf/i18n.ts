// Texts and formats of the PDF documents, es/en. They live here rather than in locales/*.json
// because they are server-only and the PDF needs its own wording (footers, file names, counts).
// Wording follows the site's own translations (roles, "Desactivado", "Apellidos"…).

import enMessages from '../../locales/en/common.json' with { type: 'json' };
import esMessages from '../../locales/es/common.json' with { type: 'json' };
import { intlLocale } from '../../shared/locales.ts';
import type { BudgetRange, ProjectEvent } from '../../shared/projects.ts';

export type PdfLocale = 'es' | 'en';

/** The documents are read in Spain: times are Madrid time whatever the server's zone. */
export const PDF_TIME_ZONE = 'Europe/Madrid';

/** BCP 47 tags for Intl and the PDF /Lang entry: the site's own (es-ES, en-US), as on screen. */
export const INTL_LOCALE: Readonly<Record<PdfLocale, string>> = { es: intlLocale('es'), en: intlLocale('en') };

export function isPdfLocale(value: unknown): value is PdfLocale {
  return value === 'es' || value === 'en';
}

type Texts = {
  profileTitle: string;
  profileSubject: (siteName: string) => string;
  usersTitle: string;
  usersSubject: (siteName: string) => string;
  messagesTitle: string;
  messagesSubject: (siteName: string) => string;
  fields: {
    userName: string;
    name: string;
    lastName: string;
    email: string;
    role: string;
    scope: string;
    status: string;
    createdAt: string;
    fullName: string;
  };
  noEmail: string;
  noScope: string;
  active: string;
  disabled: string;
  read: string;
  unread: string;
  noUsers: string;
  noMessages: string;
  userCount: { one: string; other: string };
  messageCount: { one: string; other: string };
  /** What a report covers: "Mensajes 51–100 de 2.345"; `one` when the page holds a single item. */
  usersPart: { one: string; other: string };
  messagesPart: { one: string; other: string };
  /** The date range asked for, after the part: "del 1 de enero de 2026 al 31 de enero de 2026". */
  range: { between: string; since: string; until: string };
  unreadCount: string;
  messageFrom: string;
  truncated: string;
  generatedAt: string;
  page: (current: string, total: string) => string;
  roles: Readonly<Record<string, string>>;
  fileNames: { profile: string; users: string; messages: string; proposal: string; report: string };
  projects: ProjectTexts;
};

/** The proposal and the project report. `{{…}}` are filled in by the documents. */
type ProjectTexts = {
  proposalTitle: string;
  proposalSubject: (siteName: string) => string;
  reportTitle: string;
  reportSubject: (siteName: string) => string;
  preparedFor: string;
  /** Who a deleted account's traces are attributed to. */
  deletedUser: string;
  fields: {
    practice: string;
    procurementRef: string;
    state: string;
    fee: string;
    sentAt: string;
    budget: string;
    wishedStart: string;
    deadline: string;
    createdAt: string;
    updatedAt: string;
  };
  sections: {
    brief: string;
    scope: string;
    timeline: string;
    experts: string;
    proposal: string;
    milestones: string;
    documents: string;
    history: string;
  };
  validity: string;
  accepted: string;
  declined: string;
  proposalLine: string;
  milestoneColumns: [string, string, string];
  documentColumns: [string, string, string, string];
  historyColumns: [string, string, string];
  pending: string;
  noDate: string;
  doneBy: string;
  noExperts: string;
  noMilestones: string;
  noDocuments: string;
  noProposal: string;
  newestEvents: string;
  newestDocuments: string;
  events: Readonly<Record<ProjectEvent['kind'], string>>;
  budget: { under: string; over: string };
  /** The site's own names (locales/*.json), one wording on screen and on paper. */
  states: Readonly<Record<string, string>>;
  practices: Readonly<Record<string, string>>;
};

export const TEXTS: Readonly<Record<PdfLocale, Texts>> = {
  es: {
    profileTitle: 'Mi perfil',
    profileSubject: (siteName) => `Datos de tu cuenta en ${siteName}`,
    usersTitle: 'Usuarios',
    usersSubject: (siteName) => `Usuarios del área privada de ${siteName}`,
    messagesTitle: 'Mensajes de contacto',
    messagesSubject: (siteName) => `Mensajes recibidos desde el formulario de contacto de ${siteName}`,
    fields: {
      userName: 'Nombre de usuario',
      name: 'Nombre',
      lastName: 'Apellidos',
      email: 'Correo electrónico',
      role: 'Rol',
      scope: 'Permisos',
      status: 'Estado',
      createdAt: 'Alta',
      fullName: 'Nombre y apellidos',
    },
    noEmail: 'Sin correo electrónico',
    noScope: 'Ninguno',
    active: 'Activo',
    disabled: 'Desactivado',
    read: 'Leído',
    unread: 'No leído',
    noUsers: 'Todavía no hay usuarios.',
    noMessages: 'No hay mensajes de contacto.',
    userCount: { one: '{{count}} usuario', other: '{{count}} usuarios' },
    messageCount: { one: '{{count}} mensaje', other: '{{count}} mensajes' },
    usersPart: { one: 'Usuario {{first}} de {{total}}', other: 'Usuarios {{first}}–{{last}} de {{total}}' },
    messagesPart: { one: 'Mensaje {{first}} de {{total}}', other: 'Mensajes {{first}}–{{last}} de {{total}}' },
    range: { between: 'del {{from}} al {{to}}', since: 'desde el {{from}}', until: 'hasta el {{to}}' },
    unreadCount: '{{count}} sin leer',
    messageFrom: 'De',
    truncated: '[Mensaje recortado: tiene {{count}} caracteres]',
    generatedAt: 'Generado el {{date}}',
    page: (current, total) => `Página ${current} de ${total}`,
    // Role names are the site's own (one wording on screen and on paper).
    roles: esMessages.roles,
    fileNames: {
      profile: 'mi-perfil',
      users: 'usuarios',
      messages: 'mensajes-contacto',
      proposal: 'propuesta',
      report: 'informe-proyecto',
    },
    projects: {
      proposalTitle: 'Propuesta',
      proposalSubject: (siteName) => `Propuesta de ${siteName} para un proyecto`,
      reportTitle: 'Informe del proyecto',
      reportSubject: (siteName) => `Estado, hitos, documentos e historial de un proyecto con ${siteName}`,
      preparedFor: 'Preparada para {{who}}',
      deletedUser: 'Usuario eliminado',
      fields: {
        practice: 'Área',
        procurementRef: 'Referencia del expediente',
        state: 'Estado',
        fee: 'Honorarios',
        sentAt: 'Enviada el',
        budget: 'Presupuesto orientativo',
        wishedStart: 'Inicio deseado',
        deadline: 'Fecha límite',
        createdAt: 'Solicitado el',
        updatedAt: 'Última actualización',
      },
      sections: {
        brief: 'El encargo',
        scope: 'Alcance',
        timeline: 'Calendario',
        experts: 'Expertos asignados',
        proposal: 'Propuesta',
        milestones: 'Hitos',
        documents: 'Documentos',
        history: 'Historial',
      },
      validity: 'Esta propuesta es válida durante {{days}} días desde su envío: hasta el {{date}}.',
      accepted: 'Aceptada el {{date}}.',
      declined: 'Rechazada el {{date}}.',
      proposalLine: '{{fee}}, enviada el {{date}}',
      milestoneColumns: ['Hito', 'Fecha prevista', 'Hecho'],
      documentColumns: ['Nombre', 'Tamaño', 'Subido por', 'Fecha'],
      historyColumns: ['Fecha', 'Quién', 'Qué'],
      pending: 'Pendiente',
      noDate: 'Sin fecha',
      doneBy: '{{date}} · {{who}}',
      noExperts: 'Todavía no hay ningún experto asignado.',
      noMilestones: 'Todavía no hay hitos.',
      noDocuments: 'Todavía no hay documentos.',
      noProposal: 'Todavía no se ha enviado ninguna propuesta.',
      newestEvents: 'Se muestran los {{shown}} eventos más recientes de {{total}}.',
      newestDocuments: 'Se muestran los {{shown}} documentos más recientes de {{total}}.',
      events: {
        created: 'Solicitud enviada',
        state: 'De «{{from}}» a «{{to}}»',
        proposal: 'Propuesta enviada: {{fee}}',
        expert_added: 'Experto/a asignado/a: {{detail}}',
        expert_removed: 'Experto/a retirado/a: {{detail}}',
        milestone_added: 'Hito añadido: {{detail}}',
        milestone_done: 'Hito cumplido: {{detail}}',
        milestone_reopened: 'Hito reabierto: {{detail}}',
      },
      budget: { under: 'Menos de {{amount}}', over: 'Más de {{amount}}' },
      states: esMessages.projects.states,
      practices: esMessages.projects.practices,
    },
  },
  en: {
    profileTitle: 'My profile',
    profileSubject: (siteName) => `Your account details at ${siteName}`,
    usersTitle: 'Users',
    usersSubject: (siteName) => `Users of the private area of ${siteName}`,
    messagesTitle: 'Contact messages',
    messagesSubject: (siteName) => `Messages sent through the contact form of ${siteName}`,
    fields: {
      userName: 'User name',
      name: 'First name',
      lastName: 'Last name',
      email: 'Email',
      role: 'Role',
      scope: 'Permissions',
      status: 'Status',
      createdAt: 'Created',
      fullName: 'Full name',
    },
    noEmail: 'No email',
    noScope: 'None',
    active: 'Active',
    disabled: 'Disabled',
    read: 'Read',
    unread: 'Unread',
    noUsers: 'There are no users yet.',
    noMessages: 'There are no contact messages.',
    userCount: { one: '{{count}} user', other: '{{count}} users' },
    messageCount: { one: '{{count}} message', other: '{{count}} messages' },
    usersPart: { one: 'User {{first}} of {{total}}', other: 'Users {{first}}–{{last}} of {{total}}' },
    messagesPart: { one: 'Message {{first}} of {{total}}', other: 'Messages {{first}}–{{last}} of {{total}}' },
    range: { between: 'from {{from}} to {{to}}', since: 'from {{from}} on', until: 'up to {{to}}' },
    unreadCount: '{{count}} unread',
    messageFrom: 'From',
    truncated: '[Message shortened: it has {{count}} characters]',
    generatedAt: 'Generated on {{date}}',
    page: (current, total) => `Page ${current} of ${total}`,
    roles: enMessages.roles,
    fileNames: { profile: 'my-profile', users: 'users', messages: 'contact-messages', proposal: 'proposal', report: 'project-report' },
    projects: {
      proposalTitle: 'Proposal',
      proposalSubject: (siteName) => `A proposal from ${siteName} for a project`,
      reportTitle: 'Project report',
      reportSubject: (siteName) => `State, milestones, documents and history of a project with ${siteName}`,
      preparedFor: 'Prepared for {{who}}',
      deletedUser: 'Deleted user',
      fields: {
        practice: 'Practice',
        procurementRef: 'Procurement reference',
        state: 'State',
        fee: 'Fee',
        sentAt: 'Sent on',
        budget: 'Budget range',
        wishedStart: 'Wished start',
        deadline: 'Deadline',
        createdAt: 'Submitted on',
        updatedAt: 'Last updated',
      },
      sections: {
        brief: 'The brief',
        scope: 'Scope',
        timeline: 'Timeline',
        experts: 'Assigned experts',
        proposal: 'Proposal',
        milestones: 'Milestones',
        documents: 'Documents',
        history: 'History',
      },
      validity: 'This proposal is valid for {{days}} days from the day it was sent: until {{date}}.',
      accepted: 'Accepted on {{date}}.',
      declined: 'Declined on {{date}}.',
      proposalLine: '{{fee}}, sent on {{date}}',
      milestoneColumns: ['Milestone', 'Due', 'Done'],
      documentColumns: ['Name', 'Size', 'Uploaded by', 'Date'],
      historyColumns: ['When', 'Who', 'What'],
      pending: 'Open',
      noDate: 'No date',
      doneBy: '{{date}} · {{who}}',
      noExperts: 'No expert has been assigned yet.',
      noMilestones: 'There are no milestones yet.',
      noDocuments: 'There are no documents yet.',
      noProposal: 'No proposal has been sent yet.',
      newestEvents: 'Showing the newest {{shown}} of {{total}} events.',
      newestDocuments: 'Showing the newest {{shown}} of {{total}} documents.',
      events: {
        created: 'Brief submitted',
        state: 'From “{{from}}” to “{{to}}”',
        proposal: 'Proposal sent: {{fee}}',
        expert_added: 'Expert assigned: {{detail}}',
        expert_removed: 'Expert removed: {{detail}}',
        milestone_added: 'Milestone added: {{detail}}',
        milestone_done: 'Milestone done: {{detail}}',
        milestone_reopened: 'Milestone reopened: {{detail}}',
      },
      budget: { under: 'Under {{amount}}', over: 'Over {{amount}}' },
      states: enMessages.projects.states,
      practices: enMessages.projects.practices,
    },
  },
};

// Intl objects are costly to build: one set per locale for the life of the process, made on
// first use (not at start: they cost tens of milliseconds of the server's cold start).
type Formatters = {
  date: Intl.DateTimeFormat;
  time: Intl.DateTimeFormat;
  shortDate: Intl.DateTimeFormat;
  shortDateTime: Intl.DateTimeFormat;
  day: Intl.DateTimeFormat;
  shortDay: Intl.DateTimeFormat;
  number: Intl.NumberFormat;
  /** Whole euros: "18.000 €" / "€18,000". */
  euros: Intl.NumberFormat;
  bytes: Record<'byte' | 'kilobyte' | 'megabyte', Intl.NumberFormat>;
  plural: Intl.PluralRules;
};

function formattersFor(locale: PdfLocale): Formatters {
  const tag = INTL_LOCALE[locale];
  return {
    date: new Intl.DateTimeFormat(tag, { dateStyle: 'long', timeZone: PDF_TIME_ZONE }),
    time: new Intl.DateTimeFormat(tag, { timeStyle: 'short', timeZone: PDF_TIME_ZONE }),
    shortDate: new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeZone: PDF_TIME_ZONE }),
    shortDateTime: new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short', timeZone: PDF_TIME_ZONE }),
    // A day of a query (YYYY-MM-DD) is a calendar day, not an instant: read and shown in UTC.
    day: new Intl.DateTimeFormat(tag, { dateStyle: 'long', timeZone: 'UTC' }),
    shortDay: new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeZone: 'UTC' }),
    // CLDR leaves four-digit Spanish numbers ungrouped ("1234"); the issue asks for 1.234 / 1,234.
    number: new Intl.NumberFormat(tag, { useGrouping: 'always' }),
    euros: new Intl.NumberFormat(tag, { style: 'currency', currency: 'EUR', maximumFractionDigits: 0, useGrouping: 'always' }),
    bytes: {
      byte: new Intl.NumberFormat(tag, { style: 'unit', unit: 'byte', useGrouping: 'always' }),
      kilobyte: new Intl.NumberFormat(tag, { style: 'unit', unit: 'kilobyte', maximumFractionDigits: 1, useGrouping: 'always' }),
      megabyte: new Intl.NumberFormat(tag, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1, useGrouping: 'always' }),
    },
    plural: new Intl.PluralRules(tag),
  };
}

const made = new Map<PdfLocale, Formatters>();
function formatters(locale: PdfLocale): Formatters {
  let f = made.get(locale);
  if (!f) made.set(locale, (f = formattersFor(locale)));
  return f;
}

/** "22 de noviembre de 2026, 10:05" / "November 22, 2026, 10:05 AM": dateStyle+timeStyle would give "… at …" in English. */
export function formatDateTime(date: Date, locale: PdfLocale): string {
  const f = formatters(locale);
  return `${f.date.format(date)}, ${f.time.format(date)}`;
}

/** A stored ISO timestamp as a table date ("22 nov 2026" / "22 Nov 2026"); unparseable input shown as is. */
export function formatStoredDate(value: string, locale: PdfLocale): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : formatters(locale).shortDate.format(date);
}

/** A stored ISO timestamp with its time, short enough for a table column: "2 nov 2026, 10:00" / "Nov 2, 2026, 10:00 AM". */
export function formatStoredShortDateTime(value: string, locale: PdfLocale): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : formatters(locale).shortDateTime.format(date);
}

/** A stored ISO timestamp with its time, for messages, where the hour matters. */
export function formatStoredDateTime(value: string, locale: PdfLocale): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : formatDateTime(date, locale);
}

export function formatNumber(value: number, locale: PdfLocale): string {
  return formatters(locale).number.format(value);
}

/** "1.234 usuarios" / "1 user": the plural category comes from Intl, the number is grouped. */
export function formatCount(count: number, forms: { one: string; other: string }, locale: PdfLocale): string {
  const form = formatters(locale).plural.select(count) === 'one' ? forms.one : forms.other;
  return form.replace('{{count}}', formatNumber(count, locale));
}

/** A YYYY-MM-DD day as in a sentence: "1 de enero de 2026" / "January 1, 2026". */
export function formatDay(day: string, locale: PdfLocale): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : formatters(locale).day.format(date);
}

/** A report's part and range, for `formatCoverage`: items first–last of total, days as asked (YYYY-MM-DD). */
export type Coverage = { first: number; last: number; total: number; from?: string | undefined; to?: string | undefined };

/** The date range as a phrase that follows the part ("del … al …"), or '' without one. */
export function formatRange(range: { from?: string | undefined; to?: string | undefined }, locale: PdfLocale): string {
  const texts = TEXTS[locale].range;
  const from = range.from ? formatDay(range.from, locale) : '';
  const to = range.to ? formatDay(range.to, locale) : '';
  if (from && to) return texts.between.replace('{{from}}', from).replace('{{to}}', to);
  if (from) return texts.since.replace('{{from}}', from);
  if (to) return texts.until.replace('{{to}}', to);
  return '';
}

/**
 * What a report covers, on its first page: "Mensajes 51–100 de 2.345 del 1 de enero de 2026 al
 * 31 de enero de 2026" / "Messages 51–100 of 2,345 from January 1, 2026 to January 31, 2026";
 * "0 mensajes …" when there is nothing to cover.
 */
export function formatCoverage(kind: 'users' | 'messages', coverage: Coverage, locale: PdfLocale): string {
  const texts = TEXTS[locale];
  const forms = kind === 'users' ? texts.usersPart : texts.messagesPart;
  const part =
    coverage.total === 0
      ? formatCount(0, kind === 'users' ? texts.userCount : texts.messageCount, locale)
      : (coverage.first === coverage.last ? forms.one : forms.other)
          .replace('{{first}}', formatNumber(coverage.first, locale))
          .replace('{{last}}', formatNumber(coverage.last, locale))
          .replace('{{total}}', formatNumber(coverage.total, locale));
  const range = formatRange(coverage, locale);
  return range ? `${part} ${range}` : part;
}

/** The localised role name; a role this site does not know (an external API's) is shown as its code. */
export function roleName(role: string, locale: PdfLocale): string {
  return Object.hasOwn(TEXTS[locale].roles, role) ? TEXTS[locale].roles[role]! : role;
}

const ISO_DAY = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: PDF_TIME_ZONE });

/** YYYY-MM-DD of the date in Madrid, so the file name matches the date printed inside. */
export function isoDay(date: Date): string {
  const parts = ISO_DAY.formatToParts(date);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** Whole euros in the locale's style: "18.000 €" (with a no-break space) / "€18,000". */
export function formatEuros(amount: number, locale: PdfLocale): string {
  return formatters(locale).euros.format(amount);
}

/** What each budget range of a brief means, in euros (open at one end for the first and the last). */
const BUDGET_BOUNDS: Readonly<Record<BudgetRange, [number | null, number | null]>> = {
  lt10k: [null, 10_000],
  '10to50k': [10_000, 50_000],
  '50to150k': [50_000, 150_000],
  gt150k: [150_000, null],
};

/** "10.000-50.000 €" / "€10,000 – €50,000", "Menos de 10.000 €" / "Under €10,000"; an unknown code as it is. */
export function formatBudget(range: string, locale: PdfLocale): string {
  if (!Object.hasOwn(BUDGET_BOUNDS, range)) return range;
  const [min, max] = BUDGET_BOUNDS[range as BudgetRange];
  const texts = TEXTS[locale].projects.budget;
  if (min === null) return texts.under.replace('{{amount}}', formatEuros(max!, locale));
  if (max === null) return texts.over.replace('{{amount}}', formatEuros(min, locale));
  return formatters(locale).euros.formatRange(min, max);
}

/** A file's size: "12 B", "1,2 kB" / "1.2 kB", "3,4 MB" (decimal units, as the units' names say). */
export function formatBytes(bytes: number, locale: PdfLocale): string {
  const sizes = formatters(locale).bytes;
  if (bytes < 1000) return sizes.byte.format(bytes);
  return bytes < 1_000_000 ? sizes.kilobyte.format(bytes / 1000) : sizes.megabyte.format(bytes / 1_000_000);
}

/** A day of a project (YYYY-MM-DD: a due date, a deadline) as a table date: "31 ene 2027" / "Jan 31, 2027". */
export function formatShortDay(day: string, locale: PdfLocale): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : formatters(locale).shortDay.format(date);
}

/** The localised name of a project state or practice; an unknown code is shown as it is. */
export function stateName(state: string, locale: PdfLocale): string {
  const names = TEXTS[locale].projects.states;
  return Object.hasOwn(names, state) ? names[state]! : state;
}

export function practiceName(practice: string, locale: PdfLocale): string {
  const names = TEXTS[locale].projects.practices;
  return Object.hasOwn(names, practice) ? names[practice]! : practice;
}
