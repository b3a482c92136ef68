// Every place that shows the company's identity takes it from brand/: a site started with
// another brand (another colour, tagline, contact details) shows that one everywhere — the
// navbar, the footer, the contact page, JSON-LD, theme-color, the web manifest, the offline
// page, the PDFs and the e-mails.
import request from 'supertest';
import { describe, expect, test } from 'vitest';
import { contactLine, type Brand } from '../../server/brand/brand.ts';
import { APP_ICONS, MANIFEST_PATH } from '../../server/brand/routes.ts';
import { renderProfilePdf } from '../../server/pdf/account-documents.ts';
import { createUser } from '../../server/users/users.ts';
import { escapeHtml } from '../../server/http/html.ts';
import { LOCALES } from '../../shared/locales.ts';
import { createTestApp, ORIGIN } from '../helpers/app.ts';
import { pdfText } from '../pdf/pdf-text.ts';
import { addUsers, mailSetup } from '../mail/setup.ts';
import { otherBrand } from './helpers.ts';

const PASSWORD = 'correct horse battery';
const OTHER = otherBrand();

async function site(brand: Brand = OTHER) {
  const created = await createTestApp({ SITE_NAME: 'Acme Consulting', SITE_SHORT_NAME: 'Acme' }, { brand });
  await createUser(created.db, {
    userName: 'acme',
    password: PASSWORD,
    role: 'CLI',
    name: 'Acme',
    lastName: 'Corp',
    email: 'a@example.com',
  });
  const cookie = async () => {
    const res = await request(created.app)
      .post('/login')
      .set('Origin', ORIGIN)
      .type('form')
      .send({ identifier: 'acme', password: PASSWORD });
    return String(res.headers['set-cookie']).split(';')[0]!;
  };
  return { ...created, cookie };
}

function headOf(html: string): string {
  return html.slice(0, html.indexOf('</head>'));
}

function jsonLd(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)].map(
    (m) => JSON.parse(m[1]!) as Record<string, unknown>,
  );
}

test('the navbar: the brand’s primary colour as its default, the logo variant that reads on it, theme-color', async () => {
  const { app } = await site();
  const html = (await request(app).get('/en')).text;
  // The navy primary colour takes white text, so the logo with light ink.
  expect(html).toMatch(/<style nonce="[^"]+">:root\{--navbar-bg:#1D2B4F;--navbar-fg:#ffffff\}<\/style>/);
  expect(html).toMatch(
    new RegExp(`<a class="navbar-brand" href="/en"[^>]*><img src="${OTHER.page.logos.dark}"[^>]*><span>Acme Consulting</span>`),
  );
  expect(headOf(html)).toContain('<meta name="theme-color" content="#1D2B4F">');
  // The project's own brand: the specification's teal, dark text, the logo with dark ink.
  const own = (await request((await createTestApp()).app).get('/')).text;
  expect(own).toMatch(/:root\{--navbar-bg:#30B7BB;--navbar-fg:#062326\}/);
  expect(own).toMatch(/<a class="navbar-brand" href="\/"[^>]*><img src="\/brand\/logo-light-[0-9a-f]{10}\.svg"/);
});

test.each([
  { path: '/', tagline: 'Ingeniería de datos con cabeza', country: 'Reino Unido', hours: 'Lunes a jueves, 08:30–17:00' },
  {
    path: '/en/blog',
    tagline: 'Data engineering with a head on its shoulders',
    country: 'United Kingdom',
    hours: 'Monday to Thursday, 08:30–17:00',
  },
])('the footer of $path: tagline, e-mail, phone, address and hours in the page’s language', async ({ path, tagline, country, hours }) => {
  const { app } = await site();
  const html = (await request(app).get(path)).text;
  const footer = html.slice(html.indexOf('<footer'), html.indexOf('</footer>'));
  expect(footer).toContain(`<p class="footer-tagline">${escapeHtml(tagline)}</p>`);
  expect(footer).toContain('<a href="mailto:info@acme-consulting.example">info@acme-consulting.example</a>');
  expect(footer).toContain('<a href="tel:+442079460000">+44 20 7946 0000</a>');
  expect(footer).toContain(`<p class="footer-lines">1 Example Street\nEC1A 1BB London\n${country}</p>`);
  expect(footer).toContain(`<p class="footer-lines">${hours}</p>`);
  expect(footer).toContain(`<img src="${OTHER.page.logos.dark}"`);
});

test('the contact page lists the e-mail, the phone, the office and the hours', async () => {
  const { app } = await site();
  const html = (await request(app).get('/en/Contact')).text;
  const details = html.slice(html.indexOf('<section class="contact-direct"'), html.indexOf('</section>', html.indexOf('contact-direct')));
  for (const text of [
    'Write or call us',
    'mailto:info@acme-consulting.example',
    'tel:+442079460000',
    '1 Example Street',
    'United Kingdom',
    'Monday to Thursday, 08:30–17:00',
  ]) {
    expect(details).toContain(text);
  }
});

test('JSON-LD Organization: the logo, the address, the contact point with its hours, the tagline as slogan', async () => {
  const { app } = await site();
  const organization = jsonLd((await request(app).get('/en')).text).find((item) => item['@type'] === 'Organization');
  expect(organization).toMatchObject({
    name: 'Acme Consulting',
    slogan: 'Data engineering with a head on its shoulders',
    logo: { '@type': 'ImageObject', url: `${ORIGIN}/logo-512.png` },
    email: 'info@acme-consulting.example',
    telephone: '+44 20 7946 0000',
    address: {
      '@type': 'PostalAddress',
      streetAddress: '1 Example Street',
      postalCode: 'EC1A 1BB',
      addressLocality: 'London',
      addressCountry: 'GB',
    },
    contactPoint: {
      '@type': 'ContactPoint',
      email: 'info@acme-consulting.example',
      telephone: '+44 20 7946 0000',
      // Every language of the locale table, by its BCP 47 tag.
      availableLanguage: LOCALES.map((locale) => locale.iso),
      hoursAvailable: [
        {
          '@type': 'OpeningHoursSpecification',
          dayOfWeek: [
            'https://schema.org/Monday',
            'https://schema.org/Tuesday',
            'https://schema.org/Wednesday',
            'https://schema.org/Thursday',
          ],
          opens: '08:30',
          closes: '17:00',
        },
      ],
    },
  });
});

describe('the web manifest', () => {
  test.each([
    { path: MANIFEST_PATH, page: '/', lang: 'es-ES', start: '/', description: 'Ingeniería de datos con cabeza' },
    { path: `/es${MANIFEST_PATH}`, page: '/es', lang: 'es-ES', start: '/', description: 'Ingeniería de datos con cabeza' },
    { path: `/en${MANIFEST_PATH}`, page: '/en', lang: 'en-US', start: '/en', description: 'Data engineering with a head on its shoulders' },
  ])(
    '$path: application/manifest+json, the name, the brand’s colour, the icons, start_url $start',
    async ({ path, lang, start, description }) => {
      const { app } = await site();
      const res = await request(app).get(path);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/manifest+json; charset=utf-8');
      expect(res.headers['cache-control']).toBe('public, max-age=3600');
      const manifest = JSON.parse(res.text) as Record<string, unknown>;
      expect(manifest).toMatchObject({
        id: '/',
        name: 'Acme Consulting',
        short_name: 'Acme',
        description,
        lang,
        start_url: start,
        scope: '/',
        display: 'standalone',
        theme_color: '#1D2B4F',
        background_color: '#ffffff',
      });
    },
  );

  test('every page links the manifest of its language', async () => {
    const { app } = await site();
    for (const [page, manifest] of [
      ['/', MANIFEST_PATH],
      ['/es/blog', MANIFEST_PATH],
      ['/en/Contact', `/en${MANIFEST_PATH}`],
    ] as const) {
      expect(headOf((await request(app).get(page)).text), page).toContain(`<link rel="manifest" href="${manifest}">`);
    }
  });

  test('its icons are PNG files of the sizes it says (drawn by npm run og-image), and the favicon is the logo on a tile', async () => {
    const { app } = await site();
    const manifest = JSON.parse((await request(app).get(MANIFEST_PATH)).text) as { icons: { src: string; sizes: string; type: string }[] };
    expect(manifest.icons.map((icon) => icon.src)).toEqual([...APP_ICONS.map((icon) => icon.src), '/favicon.svg']);
    for (const icon of manifest.icons.filter((i) => i.type === 'image/png')) {
      const res = await request(app).get(icon.src).buffer(true);
      expect(res.status, icon.src).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      const png = res.body as Buffer;
      expect(`${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`, icon.src).toBe(icon.sizes);
    }
    const favicon = await request(app).get('/favicon.svg').buffer(true);
    expect(favicon.headers['content-type']).toBe('image/svg+xml');
    expect(String(favicon.body)).toContain('fill="#1D2B4F"');
  });
});

test('the logos are served by digest: image/svg+xml, cached for a year, the same bytes as brand/', async () => {
  const { app } = await site();
  for (const logo of Object.values(OTHER.logos)) {
    const res = await request(app).get(logo.url).buffer(true);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(String(res.body)).toBe(logo.svg);
  }
  expect((await request(app).get('/brand/logo-light-0000000000.svg')).status).toBe(404);
});

test('the offline page: the logo, the brand’s colours in a style the CSP allows, theme-color, the manifest', async () => {
  const { app } = await site();
  const res = await request(app).get('/en/offline');
  const nonce = /'nonce-([^']+)'/.exec(String(res.headers['content-security-policy']))?.[1];
  expect(nonce).toBeTruthy();
  expect(res.text).toContain(`<img src="${OTHER.page.logos.dark}" alt="" width="36" height="36"><span>Acme Consulting</span>`);
  expect(res.text).toContain(`<style nonce="${nonce}">:root{--navbar-bg:#1D2B4F;--navbar-fg:#ffffff}</style>`);
  expect(res.text).toContain('<meta name="theme-color" content="#1D2B4F">');
  expect(res.text).toContain(`<link rel="manifest" href="/en${MANIFEST_PATH}">`);
});

test('the PDFs: the band in the brand’s colour with its logo, the contact details in the footer', async () => {
  const { app, cookie } = await site();
  const res = await request(app)
    .get('/en/documents/my-profile.pdf')
    .set('Cookie', await cookie())
    .buffer(true)
    .parse((r, done) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => done(null, Buffer.concat(chunks)));
    });
  expect(res.status).toBe(200);
  const text = pdfText(res.body as Buffer);
  expect(text).toContain(
    'Acme Consulting · 1 Example Street, EC1A 1BB London, United Kingdom · +44 20 7946 0000 · info@acme-consulting.example',
  );
});

test('a PDF draws the logo that reads on its band (vector paths, not the name as an image)', async () => {
  const ctx = {
    locale: 'es' as const,
    siteName: 'x',
    brandColor: '#1D2B4F',
    defaultColor: OTHER.colors.primary,
    brand: { logos: { light: OTHER.logos.light.svg, dark: OTHER.logos.dark.svg }, contact: contactLine(OTHER, 'es') },
  };
  const withLogo = (await renderProfilePdf({ userName: 'u', name: 'U', lastName: 'V', role: 'CLI' }, ctx, { compress: false })).toString(
    'latin1',
  );
  const without = (
    await renderProfilePdf({ userName: 'u', name: 'U', lastName: 'V', role: 'CLI' }, { ...ctx, brand: undefined }, { compress: false })
  ).toString('latin1');
  // The dark band takes the logo with light ink: white fills, drawn as paths (curves: the circle).
  expect(withLogo).toMatch(/1 1 1 scn/);
  expect(withLogo.match(/ c\n/g)?.length ?? 0).toBeGreaterThan(without.match(/ c\n/g)?.length ?? 0);
  expect(pdfText(Buffer.from(withLogo, 'latin1'))).toContain('x · 1 Example Street, EC1A 1BB London, Reino Unido');
});

test.each(['es', 'en'] as const)(
  'the e-mails in %s: the tagline under the name, the contact details in the footer, text and HTML',
  async (locale) => {
    const { smtp, db, mail } = await mailSetup({ brand: OTHER });
    await addUsers(db, [{ userName: 'root', name: 'Rosa', role: 'ADMIN', locale }]);
    await mail.notifyContact({
      id: 1,
      name: 'Lucía',
      email: 'lucia@example.com',
      company: null,
      subject: 'Hola',
      message: 'Un mensaje.',
      locale: 'es',
      read: false,
      status: 'new',
      notifyStatus: 'pending',
      createdAt: new Date().toISOString(),
    });
    await mail.flush();
    const [received] = await smtp.waitFor(1);
    const html = received!.html || '';
    const text = received!.text ?? '';
    const tagline = OTHER.tagline[locale];
    const address = OTHER.page.address[locale].join(', ');
    expect(html).toContain('background-color:#1D2B4F;color:#ffffff');
    expect(html).toContain(escapeHtml(tagline));
    expect(html).toContain(escapeHtml(address));
    expect(html).toContain('<a href="tel:+442079460000"');
    expect(html).toContain('<a href="mailto:info@acme-consulting.example"');
    expect(text.split('\n').slice(0, 2)).toEqual(['Acme Consulting', tagline]);
    expect(text).toContain(`${address}\n+44 20 7946 0000 · info@acme-consulting.example`);
  },
);
