// The words of the account e-mails (invitation, password reset, e-mail change), es/en. Like
// texts.ts they live beside the mail module, as plain text: the layout escapes them for HTML.
import type { Locale } from '../../shared/locales.ts';

export type AccountMailKind =
  'invitation' | 'password_reset' | 'email_change_confirm' | 'email_change_requested' | 'email_changed' | 'email_change_taken';

/** What an account e-mail's sentences may name. */
export type AccountWords = {
  site: string;
  userName: string;
  /** The address an e-mail change goes to. */
  newEmail: string;
  /** The address it leaves (or '' when the account had none). */
  oldEmail: string;
  /** How long the link works, in words ("72 hours"). */
  valid: string;
};

type AccountTexts = {
  subject: (w: AccountWords) => string;
  lead: (w: AccountWords) => string;
  after: (w: AccountWords) => string;
  action: string;
  footer: (w: AccountWords) => string;
};

type Texts = {
  kinds: Record<AccountMailKind, AccountTexts>;
  hours: (count: number) => string;
  noReply: string;
};

const es: Texts = {
  kinds: {
    invitation: {
      subject: (w) => `Te han invitado a ${w.site}`,
      lead: (w) =>
        `Un administrador de ${w.site} ha creado una cuenta para ti con el nombre de usuario «${w.userName}». ` +
        'Elige tu contraseña para entrar en tu área privada.',
      after: (w) =>
        `El enlace vale ${w.valid} y solo se puede usar una vez. Si no esperabas esta invitación, ignora este correo: ` +
        'sin contraseña nadie puede entrar en la cuenta.',
      action: 'Elegir mi contraseña',
      footer: (w) => `Recibes este correo porque un administrador de ${w.site} ha creado una cuenta con esta dirección.`,
    },
    password_reset: {
      subject: (w) => `Restablecer tu contraseña de ${w.site}`,
      lead: (w) => `Alguien (esperamos que tú) ha pedido restablecer la contraseña de tu cuenta «${w.userName}» en ${w.site}.`,
      after: (w) =>
        `El enlace vale ${w.valid} y solo se puede usar una vez; al usarlo se cierran todas tus sesiones. ` +
        'Si no lo has pedido tú, ignora este correo: tu contraseña no cambia.',
      action: 'Elegir una contraseña nueva',
      footer: (w) => `Recibes este correo porque se ha pedido restablecer la contraseña de tu cuenta de ${w.site}.`,
    },
    email_change_confirm: {
      subject: (w) => `Confirma tu nueva dirección de correo en ${w.site}`,
      lead: (w) => `Has pedido que tu cuenta «${w.userName}» de ${w.site} use esta dirección, ${w.newEmail}.`,
      after: (w) =>
        `El enlace vale ${w.valid} y solo se puede usar una vez. Hasta que lo abras, tu cuenta sigue usando ` +
        `${w.oldEmail || 'la dirección de antes'}. Si no lo has pedido tú, ignora este correo.`,
      action: 'Confirmar la dirección',
      footer: (w) => `Recibes este correo porque alguien ha pedido usar esta dirección en una cuenta de ${w.site}.`,
    },
    email_change_requested: {
      subject: (w) => `Se ha pedido cambiar la dirección de correo de tu cuenta de ${w.site}`,
      lead: (w) =>
        `Se ha pedido que tu cuenta «${w.userName}» de ${w.site} use la dirección ${w.newEmail} en lugar de esta. ` +
        `El cambio solo se hará si se confirma desde esa dirección en ${w.valid}; hasta entonces, nada cambia.`,
      after: () =>
        'Si no has sido tú, quien lo ha pedido conocía tu contraseña: cámbiala cuanto antes y avísanos desde la página de contacto.',
      action: 'Cambiar mi contraseña',
      footer: (w) => `Recibes este correo porque esta es la dirección de tu cuenta de ${w.site}.`,
    },
    email_changed: {
      subject: (w) => `La dirección de correo de tu cuenta de ${w.site} ha cambiado`,
      lead: (w) => `Tu cuenta «${w.userName}» de ${w.site} usa desde ahora la dirección ${w.newEmail}: a esta ya no llegarán sus correos.`,
      after: () => 'Si no has sido tú, escríbenos cuanto antes desde la página de contacto para que recuperemos tu cuenta.',
      action: 'Escribirnos',
      footer: (w) => `Recibes este correo porque esta era la dirección de tu cuenta de ${w.site}.`,
    },
    // To the owner of an address that someone asked to use for another account (nothing is sent to the asker).
    email_change_taken: {
      subject: (w) => `Alguien ha intentado usar tu dirección de correo en ${w.site}`,
      lead: (w) =>
        `Alguien ha pedido usar esta dirección en otra cuenta de ${w.site}. Es la dirección de tu cuenta «${w.userName}», ` +
        'así que no ha cambiado nada: ninguna otra cuenta puede usarla.',
      after: () =>
        'Si has sido tú, entra con esta dirección; si no recuerdas la contraseña, elige una nueva con el enlace. Si no, ignora este correo.',
      action: 'Elegir una contraseña nueva',
      footer: (w) => `Recibes este correo porque esta es la dirección de tu cuenta de ${w.site}.`,
    },
  },
  hours: (count) => (count === 1 ? '1 hora' : `${count} horas`),
  noReply: 'Este correo se envía automáticamente: las respuestas no se leen.',
};

const en: Texts = {
  kinds: {
    invitation: {
      subject: (w) => `You are invited to ${w.site}`,
      lead: (w) =>
        `An administrator of ${w.site} has created an account for you with the user name “${w.userName}”. ` +
        'Choose your password to enter your private area.',
      after: (w) =>
        `The link works for ${w.valid} and only once. If you did not expect this invitation, ignore this e-mail: ` +
        'without a password nobody can enter the account.',
      action: 'Choose my password',
      footer: (w) => `You are receiving this e-mail because an administrator of ${w.site} created an account with this address.`,
    },
    password_reset: {
      subject: (w) => `Reset your password for ${w.site}`,
      lead: (w) => `Someone (we hope you) asked to reset the password of your account “${w.userName}” at ${w.site}.`,
      after: (w) =>
        `The link works for ${w.valid} and only once; using it signs you out everywhere. ` +
        'If you did not ask for this, ignore this e-mail: your password stays as it is.',
      action: 'Choose a new password',
      footer: (w) => `You are receiving this e-mail because a password reset was asked for your account at ${w.site}.`,
    },
    email_change_confirm: {
      subject: (w) => `Confirm your new e-mail address for ${w.site}`,
      lead: (w) => `You asked for your account “${w.userName}” at ${w.site} to use this address, ${w.newEmail}.`,
      after: (w) =>
        `The link works for ${w.valid} and only once. Until you open it, your account keeps using ` +
        `${w.oldEmail || 'its former address'}. If you did not ask for this, ignore this e-mail.`,
      action: 'Confirm the address',
      footer: (w) => `You are receiving this e-mail because someone asked to use this address for an account at ${w.site}.`,
    },
    email_change_requested: {
      subject: (w) => `A change of your account's e-mail address at ${w.site} was asked for`,
      lead: (w) =>
        `Someone asked for your account “${w.userName}” at ${w.site} to use the address ${w.newEmail} instead of this one. ` +
        `It changes only if it is confirmed from that address within ${w.valid}; until then nothing changes.`,
      after: () => 'If it was not you, whoever asked knew your password: change it now and tell us through the contact page.',
      action: 'Change my password',
      footer: (w) => `You are receiving this e-mail because this is your account's address at ${w.site}.`,
    },
    email_changed: {
      subject: (w) => `The e-mail address of your account at ${w.site} has changed`,
      lead: (w) => `Your account “${w.userName}” at ${w.site} now uses the address ${w.newEmail}: its e-mails no longer come to this one.`,
      after: () => 'If it was not you, write to us at once through the contact page so that we can give you your account back.',
      action: 'Write to us',
      footer: (w) => `You are receiving this e-mail because this was your account's address at ${w.site}.`,
    },
    // To the owner of an address that someone asked to use for another account (nothing is sent to the asker).
    email_change_taken: {
      subject: (w) => `Someone tried to use your e-mail address at ${w.site}`,
      lead: (w) =>
        `Someone asked to use this address for another account at ${w.site}. It is the address of your account “${w.userName}”, ` +
        'so nothing changed: no other account can use it.',
      after: () =>
        'If it was you, sign in with this address; if you forgot your password, choose a new one with the link. If not, ignore this e-mail.',
      action: 'Choose a new password',
      footer: (w) => `You are receiving this e-mail because this is your account's address at ${w.site}.`,
    },
  },
  hours: (count) => (count === 1 ? '1 hour' : `${count} hours`),
  noReply: 'This e-mail is sent automatically: replies are not read.',
};

export const ACCOUNT_MAIL_TEXTS: Readonly<Record<Locale, Texts>> = { es, en };
