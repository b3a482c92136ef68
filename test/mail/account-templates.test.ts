// The account e-mails (invitation, password reset, e-mail change), in both languages, as a real
// SMTP server receives them: the recipient's words, how long the link works, the link itself in
// both parts, nothing loaded from elsewhere, every value escaped; and a link's body is removed
// from the outbox once it is sent.
import { expect, test } from 'vitest';
import { createLogger } from '../../server/base/logger.ts';
import { createMail, type AccountMail, type AccountMailKind } from '../../server/mail/index.ts';
import { BODY_FORGOTTEN } from '../../server/mail/outbox.ts';
import { escapeHtml } from '../../server/http/html.ts';
import { ORIGIN, testConfig, testDatabase } from '../helpers/app.ts';
import { mailSetup, SITE_NAME } from './setup.ts';
import type { Locale } from '../../shared/locales.ts';

const TOKEN = 'T'.repeat(43);

type Case = { path: string; validHours?: number; subject: string; words: string[] };

// The words checked are those of the two locales this table was written for.
const CASES: Record<AccountMailKind, Record<Extract<Locale, 'es' | 'en'>, Case>> = {
  invitation: {
    es: {
      path: `/invitation?token=${TOKEN}`,
      validHours: 72,
      subject: `Te han invitado a ${SITE_NAME}`,
      words: [
        'Hola, Nora:',
        'nombre de usuario «nora»',
        'vale 72 horas',
        'Elegir mi contraseña',
        'ha creado una cuenta con esta dirección',
      ],
    },
    en: {
      path: `/en/invitation?token=${TOKEN}`,
      validHours: 72,
      subject: `You are invited to ${SITE_NAME}`,
      words: ['Hello Nora,', 'user name “nora”', 'works for 72 hours', 'Choose my password', 'created an account with this address'],
    },
  },
  password_reset: {
    es: {
      path: `/resetPassword?token=${TOKEN}`,
      validHours: 1,
      subject: `Restablecer tu contraseña de ${SITE_NAME}`,
      words: ['restablecer la contraseña de tu cuenta «nora»', 'vale 1 hora', 'se cierran todas tus sesiones', 'tu contraseña no cambia'],
    },
    en: {
      path: `/en/resetPassword?token=${TOKEN}`,
      validHours: 1,
      subject: `Reset your password for ${SITE_NAME}`,
      words: ['reset the password of your account “nora”', 'works for 1 hour', 'signs you out everywhere', 'your password stays as it is'],
    },
  },
  email_change_confirm: {
    es: {
      path: `/confirmEmail?token=${TOKEN}`,
      validHours: 24,
      subject: `Confirma tu nueva dirección de correo en ${SITE_NAME}`,
      words: ['use esta dirección, nora.new@example.com', 'vale 24 horas', 'sigue usando nora@example.com', 'Confirmar la dirección'],
    },
    en: {
      path: `/en/confirmEmail?token=${TOKEN}`,
      validHours: 24,
      subject: `Confirm your new e-mail address for ${SITE_NAME}`,
      words: ['use this address, nora.new@example.com', 'works for 24 hours', 'keeps using nora@example.com', 'Confirm the address'],
    },
  },
  email_change_requested: {
    es: {
      path: '/changePassword',
      validHours: 24,
      subject: `Se ha pedido cambiar la dirección de correo de tu cuenta de ${SITE_NAME}`,
      words: ['use la dirección nora.new@example.com en lugar de esta', 'en 24 horas', 'Si no has sido tú', 'Cambiar mi contraseña'],
    },
    en: {
      path: '/en/changePassword',
      validHours: 24,
      subject: `A change of your account's e-mail address at ${SITE_NAME} was asked for`,
      words: ['use the address nora.new@example.com instead of this one', 'within 24 hours', 'If it was not you', 'Change my password'],
    },
  },
  email_changed: {
    es: {
      path: '/Contact',
      subject: `La dirección de correo de tu cuenta de ${SITE_NAME} ha cambiado`,
      words: ['usa desde ahora la dirección nora.new@example.com', 'Si no has sido tú', 'Escribirnos'],
    },
    en: {
      path: '/en/Contact',
      subject: `The e-mail address of your account at ${SITE_NAME} has changed`,
      words: ['now uses the address nora.new@example.com', 'If it was not you', 'Write to us'],
    },
  },
  email_change_taken: {
    es: {
      path: '/forgotPassword',
      subject: `Alguien ha intentado usar tu dirección de correo en ${SITE_NAME}`,
      words: ['Es la dirección de tu cuenta «nora»', 'no ha cambiado nada', 'Elegir una contraseña nueva'],
    },
    en: {
      path: '/en/forgotPassword',
      subject: `Someone tried to use your e-mail address at ${SITE_NAME}`,
      words: ['It is the address of your account “nora”', 'nothing changed', 'Choose a new password'],
    },
  },
  colleague_invitation_taken: {
    es: {
      path: '/forgotPassword',
      subject: `Alguien ha invitado tu dirección de correo a un equipo en ${SITE_NAME}`,
      words: ['Es la dirección de tu cuenta «nora»', 'no se ha creado otra cuenta', 'Elegir una contraseña nueva'],
    },
    en: {
      path: '/en/forgotPassword',
      subject: `Someone invited your e-mail address to a team at ${SITE_NAME}`,
      words: ['It is the address of your account “nora”', 'no second account was made', 'Choose a new password'],
    },
  },
};

const cases = Object.entries(CASES).flatMap(([kind, byLocale]) =>
  (['es', 'en'] as const).map((locale) => ({ kind: kind as AccountMailKind, locale, ...byLocale[locale] })),
);

function accountMail(fields: Partial<AccountMail> & Pick<AccountMail, 'kind' | 'locale' | 'path'>): AccountMail {
  return {
    to: 'nora@example.com',
    name: 'Nora',
    userName: 'nora',
    newEmail: 'nora.new@example.com',
    oldEmail: 'nora@example.com',
    ref: 'user:nora',
    ...fields,
  };
}

test.each(cases)('the $kind e-mail in $locale says what happened, for how long the link works, and links to it', async (c) => {
  const { smtp, mail } = await mailSetup();
  await mail.sendAccountMail(accountMail({ kind: c.kind, locale: c.locale, path: c.path, validHours: c.validHours }));
  await mail.flush();
  const [received] = await smtp.waitFor(1);
  expect(received!.subject).toBe(c.subject);
  const link = `${ORIGIN}${c.path}`;
  for (const words of c.words) {
    expect(received!.text, words).toContain(words);
    expect(received!.html, words).toContain(escapeHtml(words));
  }
  expect(received!.text).toContain(link);
  expect(received!.html).toContain(`href="${escapeHtml(link)}"`);
  expect(received!.html).toContain(`<html lang="${c.locale}">`);
  expect(received!.html).not.toMatch(/<img|<script|\ssrc=/i);
  expect(received!.headers.get('auto-submitted')).toBe('auto-generated');
});

test('every value is escaped in the HTML part (a site name with markup)', async () => {
  const { smtp, mail } = await mailSetup({ env: { SITE_NAME: 'Ruiz & <Hijos>' } });
  await mail.sendAccountMail(accountMail({ kind: 'invitation', locale: 'en', path: `/en/invitation?token=${TOKEN}`, validHours: 72 }));
  await mail.flush();
  const [received] = await smtp.waitFor(1);
  expect(received!.html).toContain('Ruiz &amp; &lt;Hijos&gt;');
  expect(received!.html).not.toContain('<Hijos>');
  expect(received!.text).toContain('Ruiz & <Hijos>');
});

test('an account e-mail whose link is not a local path is refused, not queued', async () => {
  const { db, mail } = await mailSetup();
  await expect(mail.sendAccountMail(accountMail({ kind: 'invitation', locale: 'es', path: 'https://evil.example/x' }))).rejects.toThrow(
    /not a local path/,
  );
  expect(await db.k.selectFrom('mail_outbox').selectAll().execute()).toEqual([]);
});

test.each([
  ['invitation', true],
  ['password_reset', true],
  ['email_change_confirm', true],
  ['email_change_requested', false],
  ['email_changed', false],
] as const)(
  'once sent, the body of a %s e-mail is removed from the outbox when it held a link to an account (%s)',
  async (kind, forgotten) => {
    const { smtp, db, mail } = await mailSetup();
    await mail.sendAccountMail(accountMail({ kind, locale: 'es', path: `/x?token=${TOKEN}`, validHours: 1 }));
    await mail.flush();
    await smtp.waitFor(1);
    const row = await db.k.selectFrom('mail_outbox').selectAll().executeTakeFirstOrThrow();
    expect(row.status).toBe('sent');
    expect(row.subject).not.toBe('');
    if (forgotten) {
      expect(row.text).toBe(BODY_FORGOTTEN);
      expect(row.html).toBe(BODY_FORGOTTEN);
    } else expect(row.text).toContain(TOKEN);
  },
);

test('a link e-mail given up after its last attempt has its body removed too', async () => {
  const { smtp, db, mail } = await mailSetup({ maxAttempts: 1 });
  smtp.refuseNext(1);
  await mail.sendAccountMail(accountMail({ kind: 'password_reset', locale: 'es', path: `/resetPassword?token=${TOKEN}`, validHours: 1 }));
  await mail.flush();
  const row = await db.k.selectFrom('mail_outbox').selectAll().executeTakeFirstOrThrow();
  expect(row.status).toBe('failed');
  expect(row.text).toBe(BODY_FORGOTTEN);
});

test('without a mail server (production, no SMTP_URL) an account e-mail is refused with the reason', async () => {
  const db = await testDatabase();
  const mail = createMail({ db, config: testConfig({ NODE_ENV: 'production' }), logger: createLogger('silent'), background: false });
  try {
    expect(mail.canSend).toBe(false);
    await expect(mail.sendAccountMail(accountMail({ kind: 'invitation', locale: 'es', path: '/invitation' }))).rejects.toThrow(
      /no mail server/,
    );
    expect(await db.k.selectFrom('mail_outbox').selectAll().execute()).toEqual([]);
  } finally {
    await mail.stop();
    await db.close();
  }
});
