import { describe, expect, test, vi } from 'vitest';
import {
  MAX_MESSAGE_CHARS,
  MAX_MESSAGE_LINES,
  MAX_MESSAGE_PIECES,
  pdfFileName,
  safeBrandColor,
  type PdfContext,
  type PdfMessage,
  type PdfUser,
} from '../../server/pdf/documents.ts';
import { renderMessagesReportPdf, renderProfilePdf, renderUsersReportPdf } from '../../server/pdf/account-documents.ts';
import { loadBrand } from '../../server/brand/brand.ts';
import { pdfmakeWithFonts } from '../../server/pdf/fonts.ts';
import { pdfT, roleName } from '../../server/pdf/i18n.ts';
import { pdfInfo, pdfPageCount, pdfText } from './pdf-text.ts';
import { scaled } from '../helpers/time-scale.ts';

// 09:05 UTC is 10:05 in Madrid (CET) on that day.
const GENERATED_AT = new Date('2026-11-22T09:05:00Z');
/** The band's colour when none is given: the brand's primary one (brand/brand.json, #30B7BB). */
const PRIMARY = loadBrand().colors.primary;
const es: PdfContext = { locale: 'es', siteName: 'the product', brandColor: '#30B7BB', defaultColor: PRIMARY, generatedAt: GENERATED_AT };
const en: PdfContext = { ...es, locale: 'en' };
const plain = { compress: false };

const ana: PdfUser = {
  userName: 'ana',
  name: 'Ana María',
  lastName: 'Núñez',
  role: 'ORG',
  email: 'ana.only-in-her-profile@example.org',
  avatar: '/api/avatars/ana.png',
  scope: ['projects:read'],
  disabled: false,
  createdAt: '2025-03-04T10:11:12.000Z',
};
const bruno: PdfUser = {
  userName: 'bruno',
  name: 'Bruno',
  lastName: 'Sáez',
  role: 'CONS',
  email: 'bruno.unique-7f3a@example.net',
  disabled: true,
  createdAt: '2026-01-02T08:00:00.000Z',
};

function message(overrides: Partial<PdfMessage> = {}): PdfMessage {
  return {
    id: 1,
    name: 'Lucía',
    email: 'lucia@example.com',
    subject: 'Presupuesto',
    message: 'Hola,\nquería saber más.',
    createdAt: '2026-11-20T15:30:00.000Z',
    read: false,
    ...overrides,
  };
}

const users40: PdfUser[] = Array.from({ length: 40 }, (_, i) => ({
  ...bruno,
  userName: `user-${i}`,
  email: `user-${i}@example.net`,
  disabled: i % 2 === 0,
}));
const twoMessages = [
  message({ id: 1, subject: 'Presupuesto', read: false }),
  message({
    id: 2,
    name: 'Marc',
    email: 'marc@example.cat',
    subject: 'Factura',
    message: 'Gracias.',
    read: true,
    createdAt: '2026-07-01T08:00:00Z',
  }),
];
const longMessage = message({ message: `${'palabra '.repeat(1000)}FINAL-QUE-NO-SE-VE` });

// Rendering costs a few hundred milliseconds (pdfkit parses the three fonts per document):
// each document is made once, on first use, and shared by the tests that read it.
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}
const docs = {
  profileEs: once(() => renderProfilePdf(ana, es, plain)),
  profileEsCompressed: once(() => renderProfilePdf(ana, es)),
  profileEn: once(() => renderProfilePdf({ ...bruno, email: null, scope: [] }, en, plain)),
  usersEs: once(() => renderUsersReportPdf([ana, bruno], es, plain)),
  usersEn: once(() => renderUsersReportPdf(users40, en, plain)),
  messagesEs: once(() => renderMessagesReportPdf(twoMessages, es, plain)),
  messagesEn: once(() => renderMessagesReportPdf([longMessage], en, plain)),
};

function expectValidPdf(pdf: Buffer) {
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(pdf.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
}

/** The fonts a PDF embeds, by base font name without the subset tag ("Montserrat-Bold"). */
function embeddedFonts(pdf: Buffer): Set<string> {
  const source = pdf.toString('latin1');
  return new Set([...source.matchAll(/\/BaseFont \/(?:[A-Z]{6}\+)?([\w-]+)/g)].map((m) => m[1]!));
}

describe('every document', () => {
  test(
    'is a valid PDF that embeds Montserrat Regular, Bold and Black and no other font',
    async () => {
      for (const make of Object.values(docs)) {
        const pdf = await make();
        expectValidPdf(pdf);
        expect(embeddedFonts(pdf)).toEqual(new Set(['Montserrat-Regular', 'Montserrat-Bold', 'Montserrat-Black']));
        // Each weight's TrueType program is in the file (subset), not merely referenced.
        expect(pdf.toString('latin1').match(/\/FontFile2 \d+ 0 R/g)).toHaveLength(3);
        expect(pdf.toString('latin1')).toMatch(/\/FontName \/[A-Z]{6}\+Montserrat-Black/);
      }
      // Every document laid out in turn (~1 s each on a quiet machine): the default 15 s is one
      // loaded machine away from a false failure.
    },
    scaled(60_000),
  );

  test('carries its localised title, the site as author and the document language', async () => {
    const cases = [
      [docs.profileEs, 'Mi perfil', 'es-ES'],
      [docs.profileEn, 'My profile', 'en-US'],
      [docs.usersEs, 'Usuarios', 'es-ES'],
      [docs.usersEn, 'Users', 'en-US'],
      [docs.messagesEs, 'Mensajes de contacto', 'es-ES'],
      [docs.messagesEn, 'Contact messages', 'en-US'],
    ] as const;
    for (const [make, title, lang] of cases) {
      const pdf = await make();
      expect(pdfInfo(pdf, 'Title')).toBe(title);
      expect(pdfInfo(pdf, 'Author')).toBe('the product');
      expect(pdf.toString('latin1')).toContain(`/Lang (${lang})`);
      // The title is also in the header band, next to the site name.
      expect(pdfText(pdf)).toContain(`the product${title}`);
    }
  });

  test('uses a valid brand colour for the header band and falls back to the brand’s primary colour for anything else', async () => {
    for (const bad of ['red', '#12345', 'url(javascript:alert(1))', '', '#30B7BBFF', '#ggg', undefined, 0x30b7bb]) {
      expect(safeBrandColor(bad, PRIMARY)).toBe(PRIMARY);
    }
    expect(safeBrandColor('#1d4ed8', PRIMARY)).toBe('#1d4ed8');
    expect(safeBrandColor('#fc0', PRIMARY)).toBe('#ffcc00');
    const bandFill = (pdf: Buffer) =>
      /0 0 [\d.]+ 64 re\s+\/DeviceRGB cs\s+([\d. ]+) scn/
        .exec(pdf.toString('latin1'))?.[1]
        ?.split(' ')
        .map((n) => Math.round(Number(n) * 255));
    expect(bandFill(await renderProfilePdf(ana, { ...es, brandColor: 'url(javascript:alert(1))' }, plain))).toEqual([0x30, 0xb7, 0xbb]);
    expect(bandFill(await renderProfilePdf(ana, { ...es, brandColor: '#fc0' }, plain))).toEqual([0xff, 0xcc, 0x00]);
  });
});

describe('the profile', () => {
  test('shows the user’s fields with Spanish labels, role name, date and page numbers', async () => {
    const text = pdfText(await docs.profileEs());
    for (const expected of [
      'Nombre de usuarioana',
      'NombreAna María',
      'ApellidosNúñez',
      'Correo electrónicoana.only-in-her-profile@example.org',
      'RolOrganización',
      'Permisosprojects:read',
      'EstadoActivo',
      'Alta4 mar 2025',
      'Generado el 22 de noviembre de 2026, 10:05',
      'Página 1 de 1',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toMatch(/Page|Generated|User name/);
  });

  test('shows the same fields in English', async () => {
    const text = pdfText(await docs.profileEn());
    for (const expected of [
      'User namebruno',
      'First nameBruno',
      'Last nameSáez',
      'EmailNo email',
      'RoleExpert',
      'PermissionsNone',
      'StatusDisabled',
      'CreatedJan 2, 2026',
      'Generated on November 22, 2026, 10:05 AM',
      'Page 1 of 1',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('Página');
  });

  test('names every known role in both languages and shows an unknown one as its code', async () => {
    const names = {
      ADMIN: ['Administrador/a', 'Administrator'],
      CLI: ['Cliente', 'Client'],
      ORG: ['Organización', 'Organisation'],
      CONS: ['Experto/a', 'Expert'],
    };
    for (const [role, [inSpanish, inEnglish]] of Object.entries(names)) {
      expect(roleName(role, 'es')).toBe(inSpanish);
      expect(roleName(role, 'en')).toBe(inEnglish);
    }
    expect(pdfText(await renderProfilePdf({ ...ana, role: 'AUDITOR' }, en, plain))).toContain('RoleAUDITOR');
  });

  test('holds only its own user: another user’s e-mail is nowhere in it, though the users report has it', async () => {
    expect(pdfText(await docs.usersEs())).toContain(bruno.email);
    const profile = await docs.profileEs();
    expect(pdfText(profile)).toContain(ana.email);
    expect(pdfText(profile)).not.toContain(bruno.email);
    expect(pdfText(profile)).not.toContain('bruno');
    for (const pdf of [profile, await docs.profileEsCompressed()]) {
      expect(pdf.includes(bruno.email!)).toBe(false);
      expect(pdf.includes(Buffer.from(bruno.email!, 'utf16le').swap16())).toBe(false);
    }
  });
});

describe('the users report', () => {
  test('counts users with the locale’s digit grouping and plural', () => {
    expect(pdfT('es')('userCount', { count: 1234 })).toBe('1.234 usuarios');
    expect(pdfT('en')('userCount', { count: 1234 })).toBe('1,234 users');
    expect(pdfT('es')('userCount', { count: 1 })).toBe('1 usuario');
    expect(pdfT('en')('userCount', { count: 1 })).toBe('1 user');
  });

  test('is landscape, lists every user with role and status, and repeats the header row on each page', async () => {
    const pdf = await docs.usersEn();
    expect(pdf.toString('latin1')).toContain('/MediaBox [0 0 841.89 595.28]');
    const pages = pdfPageCount(pdf);
    expect(pages).toBeGreaterThan(1);
    const text = pdfText(pdf);
    // The whole list passed in, no part given: it covers users 1–40 of 40.
    expect(text).toContain('Users 1–40 of 40');
    for (const user of users40) {
      expect(text).toContain(`${user.userName}Bruno Sáez${user.email}Expert${user.disabled ? 'Disabled' : 'Active'}Jan 2, 2026`);
    }
    expect(text.split('User nameFull nameEmailRoleStatusCreated')).toHaveLength(pages + 1);
    expect(text).toContain(`Page ${pages} of ${pages}`);
  });

  test('says on its first page which part of the list it covers, in both languages', async () => {
    const part = { first: 501, last: 502, total: 2345 };
    expect(pdfText(await renderUsersReportPdf([ana, bruno], { ...es, part }, plain))).toContain('UsuariosUsuarios 501–502 de 2.345');
    expect(pdfText(await renderUsersReportPdf([ana, bruno], { ...en, part }, plain))).toContain('UsersUsers 501–502 of 2,345');
  });

  test('says so when there are no users', async () => {
    const text = pdfText(await renderUsersReportPdf([], es, plain));
    expect(text).toContain('0 usuarios');
    expect(text).toContain('Todavía no hay usuarios.');
  });
});

describe('the messages report', () => {
  test('lists each message with its date, sender, subject, read state and text', async () => {
    const text = pdfText(await docs.messagesEs());
    expect(text).toContain('Mensajes 1–2 de 2 · 1 sin leer');
    expect(text).toContain('PresupuestoNo leído20 de noviembre de 2026, 16:30 · De Lucía <lucia@example.com>Hola,quería saber más.');
    // Summer time: 08:00 UTC is 10:00 in Madrid.
    expect(text).toContain('FacturaLeído1 de julio de 2026, 10:00 · De Marc <marc@example.cat>Gracias.');
  });

  test('cuts a message at 5,000 characters and says how long it was', async () => {
    const text = pdfText(await docs.messagesEn());
    expect(MAX_MESSAGE_CHARS).toBe(5000);
    expect(text).not.toContain('FINAL-QUE-NO-SE-VE');
    expect(text).toContain('[Message shortened: it has 8,018 characters]');
    expect(text.match(/palabra/g)!.length).toBeLessThanOrEqual(625);
  });

  test('survives hostile input: control characters, lone surrogates, megabyte fields, paths, URLs, an unknown locale', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    try {
      const pdf = await renderMessagesReportPdf(
        [
          message({
            name: '/etc/passwd',
            email: 'https://attacker.example/x.png',
            subject: `a\u0000b\u001bc\ud800 ${'x'.repeat(1_000_000)}`,
            message: `line\r\nbreak\u0007 ${'y'.repeat(1_000_000)}`,
          }),
        ],
        es,
        plain,
      );
      expectValidPdf(pdf);
      // Two megabytes of fields are cut before the layout, not laid out over hundreds of pages.
      expect(pdfPageCount(pdf)).toBeLessThanOrEqual(3);
      const text = pdfText(pdf);
      expect(text).toContain('/etc/passwd');
      expect(text).toContain('https://attacker.example/x.png');
      expect(text).toContain('[Mensaje recortado: tiene 1.000.013 caracteres]');
      // A locale from a request that is none of the table's (zz is no language's code) falls back to Spanish instead of failing.
      const profile = pdfText(await renderProfilePdf(ana, { ...es, locale: 'zz' as PdfContext['locale'] }, plain));
      expect(profile).toContain('the productMi perfil');
      expect(fetchSpy).not.toHaveBeenCalled();
    } finally {
      fetchSpy.mockRestore();
    }
  });

  test('says so when there are no messages', async () => {
    expect(pdfText(await renderMessagesReportPdf([], en, plain))).toContain('There are no contact messages.');
  });

  test('says on its first page which part of the inbox it covers, with the range and the unread of that range, in both languages', async () => {
    const part = { first: 51, last: 52, total: 2345, from: '2026-01-01', to: '2026-01-31', unread: 120 };
    const esText = pdfText(await renderMessagesReportPdf(twoMessages, { ...es, part }, plain));
    const enText = pdfText(await renderMessagesReportPdf(twoMessages, { ...en, part }, plain));
    expect(esText).toContain('Mensajes de contactoMensajes 51–52 de 2.345 del 1 de enero de 2026 al 31 de enero de 2026 · 120 sin leer');
    expect(enText).toContain('Contact messagesMessages 51–52 of 2,345 from January 1, 2026 to January 31, 2026 · 120 unread');
    // A page of one message, and a range open at one end.
    const single = pdfText(
      await renderMessagesReportPdf([twoMessages[0]!], { ...en, part: { first: 7, last: 7, total: 7, from: '2026-03-01' } }, plain),
    );
    expect(single).toContain('Message 7 of 7 from March 1, 2026 on');
  });

  test('says the range when nothing is in it', async () => {
    const text = pdfText(await renderMessagesReportPdf([], { ...es, part: { first: 0, last: 0, total: 0, to: '2025-12-31' } }, plain));
    expect(text).toContain('0 mensajes hasta el 31 de diciembre de 2025');
    expect(text).toContain('No hay mensajes de contacto.');
  });

  test('keeps at most MAX_MESSAGE_LINES line breaks in a message: the rest of the text runs on', async () => {
    expect(MAX_MESSAGE_LINES).toBe(60);
    const pdf = await renderMessagesReportPdf([message({ message: 'línea\n'.repeat(800) })], en, plain);
    // Without the cap this one message of 4,800 characters was 14 pages (800 lines).
    expect(pdfPageCount(pdf)).toBeLessThanOrEqual(3);
    expect(pdfText(pdf).match(/línea/g)).toHaveLength(800);
  });

  // Each of these is within 5,000 characters: the note is there only because of the piece limit.
  test.each([
    ['one-letter words', 'k '.repeat(2500), 'k'],
    ['hyphenated letters', 'j-'.repeat(2500), 'j'],
    ['Chinese (a piece per character)', '漢'.repeat(4000), null],
  ])('cuts a message of %s at MAX_MESSAGE_PIECES pieces and says it was shortened', async (_shape, body, unit) => {
    expect(MAX_MESSAGE_PIECES).toBe(1200);
    const text = pdfText(await renderMessagesReportPdf([message({ message: body })], en, plain));
    expect(text).toContain(`[Message shortened: it has ${body.length.toLocaleString('en-US')} characters]`);
    // Montserrat has no Chinese glyphs: those pieces cannot be counted in the text. The line
    // breaks that cut the unbroken hyphenated run into lines are pieces too.
    if (unit) {
      expect(text.split(unit).length - 1).toBeLessThanOrEqual(MAX_MESSAGE_PIECES);
      expect(text.split(unit).length - 1).toBeGreaterThan(MAX_MESSAGE_PIECES * 0.95);
    }
  });

  test('says how long the stored message was when the query read only its beginning', async () => {
    const text = pdfText(await renderMessagesReportPdf([message({ message: 'Hola '.repeat(200), length: 12_345 })], en, plain));
    expect(text).toContain('[Message shortened: it has 12,345 characters]');
  });
});

describe('pdfmake itself', () => {
  test('is set up once and may read neither local files nor URLs', async () => {
    expect(pdfmakeWithFonts()).toBe(pdfmakeWithFonts());
    const pdfmake = await pdfmakeWithFonts();
    const withImage = (image: string) =>
      pdfmake.createPdf({ content: [{ image, width: 10 }], defaultStyle: { font: 'Montserrat' } }).getBuffer();
    await expect(withImage('/etc/hostname')).rejects.toThrow(/denied/);
    await expect(withImage('https://example.com/logo.png')).rejects.toThrow(/denied/);
  });
});

describe('file names', () => {
  test('are ASCII, localised, carry the Madrid date and a sanitised user name', () => {
    const date = new Date('2026-11-22T10:00:00Z');
    expect(pdfFileName('profile', 'es', date, 'ana')).toBe('mi-perfil-ana-2026-11-22.pdf');
    expect(pdfFileName('profile', 'en', date, 'ana')).toBe('my-profile-ana-2026-11-22.pdf');
    expect(pdfFileName('users', 'es', date)).toBe('usuarios-2026-11-22.pdf');
    expect(pdfFileName('users', 'en', date)).toBe('users-2026-11-22.pdf');
    expect(pdfFileName('messages', 'es', date)).toBe('mensajes-contacto-2026-11-22.pdf');
    expect(pdfFileName('messages', 'en', date)).toBe('contact-messages-2026-11-22.pdf');
    expect(pdfFileName('profile', 'es', date, 'José.Núñez_../"x"')).toBe('mi-perfil-jose-nunez-x-2026-11-22.pdf');
    expect(pdfFileName('profile', 'en', date, '日本')).toBe('my-profile-2026-11-22.pdf');
    // 23:30 UTC on the 22nd is already the 23rd in Madrid.
    expect(pdfFileName('users', 'en', new Date('2026-11-22T23:30:00Z'))).toBe('users-2026-11-23.pdf');
    for (const name of [pdfFileName('profile', 'es', date, `${'ñ'.repeat(200)}\r\n`), pdfFileName('profile', 'en', date, '')]) {
      expect(name).toMatch(/^[a-z0-9-]+\.pdf$/);
      expect(name.length).toBeLessThanOrEqual(70);
    }
  });
});
