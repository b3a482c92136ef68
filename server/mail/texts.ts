// The words of the site's e-mails, es/en. They live here rather than in locales/*.json because
// only the server sends e-mails: the browser's message bundle would carry them for nothing (the
// PDF texts live beside the PDFs for the same reason). Every value is plain text: the layout
// (templates.ts) escapes it for the HTML part. Role names are the site's own (locales/).
import enMessages from '../../locales/en/common.json' with { type: 'json' };
import esMessages from '../../locales/es/common.json' with { type: 'json' };
import type { Locale } from '../../shared/locales.ts';

export type ProjectNoticeKind =
  'brief_submitted' | 'proposal_sent' | 'message_posted' | 'expert_assigned' | 'milestone_done' | 'state_changed';

/** What a project notice's sentences may name (plain text, already cut to size). */
export type NoticeWords = {
  title: string;
  actor: string;
  role: string;
  milestone: string;
  from: string;
  to: string;
};

type NoticeTexts = {
  subject: (w: NoticeWords) => string;
  lead: (w: NoticeWords) => string;
  action: string;
};

type Texts = {
  /** A title in the language's quotation marks. */
  quote: (value: string) => string;
  greeting: (name: string | null) => string;
  notices: Record<ProjectNoticeKind, NoticeTexts>;
  /** Project states (brief, proposal, active, delivered, closed, declined, cancelled). */
  states: Readonly<Record<string, string>>;
  /** The notices are sent by a machine: nobody reads a reply. */
  noReply: string;
  footer: { participant: (title: string, site: string) => string; admin: (site: string) => string };
  contact: {
    subject: (subject: string) => string;
    lead: (name: string, site: string, language: string) => string;
    fields: { name: string; email: string; subject: string };
    reply: (email: string) => string;
    action: string;
    footer: { address: (site: string) => string; admin: (site: string) => string };
  };
  languages: Readonly<Record<Locale, string>>;
};

const es: Texts = {
  quote: (value) => `«${value}»`,
  greeting: (name) => (name ? `Hola, ${name}:` : 'Hola:'),
  notices: {
    brief_submitted: {
      subject: (w) => `Nuevo encargo: «${w.title}»`,
      lead: (w) => `${w.actor} ha enviado un encargo nuevo, «${w.title}». Revísalo y prepara la propuesta.`,
      action: 'Ver el encargo',
    },
    proposal_sent: {
      subject: (w) => `Tienes una propuesta para «${w.title}»`,
      lead: (w) =>
        `${w.actor} te ha enviado la propuesta del proyecto «${w.title}»: el alcance, los honorarios y el calendario. ` +
        'Puedes aceptarla o rechazarla en la página del proyecto.',
      action: 'Ver la propuesta',
    },
    message_posted: {
      subject: (w) => `Nuevo mensaje en «${w.title}»`,
      lead: (w) => `${w.actor} ha escrito en el proyecto «${w.title}»:`,
      action: 'Leer y responder',
    },
    expert_assigned: {
      subject: (w) => (w.role === 'CONS' ? `Te han asignado al proyecto «${w.title}»` : `Una persona experta se une a «${w.title}»`),
      lead: (w) =>
        w.role === 'CONS'
          ? `${w.actor} te ha asignado al proyecto «${w.title}» como persona experta.`
          : `${w.actor} ha asignado una persona experta al proyecto «${w.title}».`,
      action: 'Ver el proyecto',
    },
    milestone_done: {
      subject: (w) => `Hito completado en «${w.title}»: ${w.milestone}`,
      lead: (w) => `${w.actor} ha marcado como completado el hito «${w.milestone}» del proyecto «${w.title}».`,
      action: 'Ver el proyecto',
    },
    state_changed: {
      subject: (w) => `«${w.title}»: ${w.from} → ${w.to}`,
      lead: (w) => `${w.actor} ha cambiado el estado del proyecto «${w.title}» de «${w.from}» a «${w.to}».`,
      action: 'Ver el proyecto',
    },
  },
  // The names the site's pages use (locales/es/common.json).
  states: esMessages.projects.states,
  noReply: 'Este correo se envía automáticamente: las respuestas no se leen.',
  footer: {
    participant: (title, site) => `Recibes este correo porque participas en el proyecto «${title}» en ${site}.`,
    admin: (site) => `Recibes este correo porque tu cuenta de ${site} tiene el rol ${esMessages.roles.ADMIN}.`,
  },
  contact: {
    subject: (subject) => `Mensaje de contacto: ${subject}`,
    lead: (name, site, language) => `${name} ha escrito desde el formulario de contacto de ${site} (en ${language}):`,
    fields: { name: 'Nombre', email: 'Correo electrónico', subject: 'Asunto' },
    reply: (email) => `Responde a este correo para contestarle: la respuesta irá a ${email}.`,
    action: 'Abrir la bandeja de entrada',
    footer: {
      address: (site) => `Recibes este correo porque esta dirección recibe los mensajes del formulario de contacto de ${site}.`,
      admin: (site) =>
        `Recibes este correo porque tu cuenta de ${site} tiene el rol ${esMessages.roles.ADMIN}: a ese rol le llegan los mensajes del formulario de contacto.`,
    },
  },
  languages: { es: 'español', en: 'inglés' },
};

const en: Texts = {
  quote: (value) => `“${value}”`,
  greeting: (name) => (name ? `Hello ${name},` : 'Hello,'),
  notices: {
    brief_submitted: {
      subject: (w) => `New brief: “${w.title}”`,
      lead: (w) => `${w.actor} has submitted a new brief, “${w.title}”. Review it and prepare the proposal.`,
      action: 'View the brief',
    },
    proposal_sent: {
      subject: (w) => `A proposal for “${w.title}” is waiting for you`,
      lead: (w) =>
        `${w.actor} has sent you the proposal for the project “${w.title}”: scope, fee and timeline. ` +
        "You can accept or decline it on the project's page.",
      action: 'View the proposal',
    },
    message_posted: {
      subject: (w) => `New message in “${w.title}”`,
      lead: (w) => `${w.actor} wrote in the project “${w.title}”:`,
      action: 'Read and reply',
    },
    expert_assigned: {
      subject: (w) => (w.role === 'CONS' ? `You have been assigned to “${w.title}”` : `An expert joins “${w.title}”`),
      lead: (w) =>
        w.role === 'CONS'
          ? `${w.actor} has assigned you as an expert to the project “${w.title}”.`
          : `${w.actor} has assigned an expert to the project “${w.title}”.`,
      action: 'View the project',
    },
    milestone_done: {
      subject: (w) => `Milestone done in “${w.title}”: ${w.milestone}`,
      lead: (w) => `${w.actor} has marked the milestone “${w.milestone}” of the project “${w.title}” as done.`,
      action: 'View the project',
    },
    state_changed: {
      subject: (w) => `“${w.title}”: ${w.from} → ${w.to}`,
      lead: (w) => `${w.actor} has changed the state of the project “${w.title}” from “${w.from}” to “${w.to}”.`,
      action: 'View the project',
    },
  },
  states: enMessages.projects.states,
  noReply: 'This e-mail is sent automatically: replies are not read.',
  footer: {
    participant: (title, site) => `You are receiving this e-mail because you take part in the project “${title}” at ${site}.`,
    admin: (site) => `You are receiving this e-mail because your account at ${site} has the ${enMessages.roles.ADMIN} role.`,
  },
  contact: {
    subject: (subject) => `Contact message: ${subject}`,
    lead: (name, site, language) => `${name} wrote through the contact form of ${site} (in ${language}):`,
    fields: { name: 'Name', email: 'Email', subject: 'Subject' },
    reply: (email) => `Reply to this e-mail to answer: the reply goes to ${email}.`,
    action: 'Open the inbox',
    footer: {
      address: (site) => `You are receiving this e-mail because this address receives the messages of the contact form of ${site}.`,
      admin: (site) =>
        `You are receiving this e-mail because your account at ${site} has the ${enMessages.roles.ADMIN} role, which receives the messages of its contact form.`,
    },
  },
  languages: { es: 'Spanish', en: 'English' },
};

export const MAIL_TEXTS: Readonly<Record<Locale, Texts>> = { es, en };

/** A state's name in the locale; a state this module does not know is shown as its code. */
export function stateName(state: string, locale: Locale): string {
  const names = MAIL_TEXTS[locale].states;
  return Object.hasOwn(names, state) ? names[state]! : state;
}
