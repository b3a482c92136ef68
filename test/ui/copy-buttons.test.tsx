// @vitest-environment happy-dom
// "Copy" beside what a person must take elsewhere (docs/decisions/059-polish-copy-waits-sign-in-notice.md): the calendar's private
// address (with a webcal:// link that opens it in a calendar app) and the recovery codes. The
// button copies the whole text and says so; where the browser refuses the clipboard it says to
// copy by hand; without JavaScript (the server's markup) there is no button that could do nothing.
import { screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, expect, test, vi } from 'vitest';
import { CalendarSection } from '../../client/my-account/calendar-section.tsx';
import { I18nProvider } from '../../client/translations.tsx';
import { RecoveryCodes } from '../../client/two-factor/recovery-codes.tsx';
import { MESSAGES, renderInPage } from '../helpers/render-ui.tsx';

const CALENDAR = { url: 'https://www.example.test/calendar/7-abcDEF123.ics', createdAt: '2026-11-30T10:00:00.000Z' };
const CODES = ['aaaa-bbbb', 'cccc-dddd', 'eeee-ffff'];

/** user-event's own setup() puts a clipboard stub of its own on navigator: this one comes after it. */
function clipboard(writeText: (text: string) => Promise<void>) {
  const spy = vi.fn(writeText);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText: spy }, configurable: true });
  return spy;
}

afterEach(() => {
  Reflect.deleteProperty(navigator, 'clipboard');
});

test.each([
  { locale: 'es' as const, copy: 'Copiar la dirección', copied: 'Dirección copiada.', subscribe: 'Abrir en tu aplicación de calendario' },
  { locale: 'en' as const, copy: 'Copy the address', copied: 'Address copied.', subscribe: 'Open in your calendar app' },
])('$locale: the calendar address is copied whole with "$copy", and a webcal:// link opens it in a calendar app', async (l) => {
  const user = userEvent.setup();
  const writeText = clipboard(async () => {});
  renderInPage(<CalendarSection calendar={CALENDAR} form={undefined} saved={null} />, { locale: l.locale, path: '/profile' });
  expect(screen.getByRole('link', { name: l.subscribe }).getAttribute('href')).toBe('webcal://www.example.test/calendar/7-abcDEF123.ics');
  await user.click(screen.getByRole('button', { name: l.copy }));
  expect(writeText).toHaveBeenCalledWith(CALENDAR.url);
  expect((await screen.findByText(l.copied)).getAttribute('role')).toBe('status');
});

test('the recovery codes are copied together, one per line, and the page says so', async () => {
  const user = userEvent.setup();
  const writeText = clipboard(async () => {});
  renderInPage(<RecoveryCodes revealed={{ success: 'enabled', codes: CODES }} onDone={() => undefined} />, {
    locale: 'en',
    path: '/en/two-factor-setup',
  });
  await user.click(screen.getByRole('button', { name: 'Copy the codes' }));
  expect(writeText).toHaveBeenCalledWith(CODES.join('\n'));
  expect(await screen.findByText('Codes copied. Keep them somewhere safe.')).toBeTruthy();
});

test('where the browser refuses the clipboard, the button says to select the text and copy it by hand', async () => {
  const user = userEvent.setup();
  clipboard(async () => {
    throw new DOMException('denied', 'NotAllowedError');
  });
  renderInPage(<CalendarSection calendar={CALENDAR} form={undefined} saved={null} />, { locale: 'es', path: '/profile' });
  await user.click(screen.getByRole('button', { name: 'Copiar la dirección' }));
  expect(await screen.findByText('Tu navegador no ha dejado copiar: selecciona el texto y cópialo tú.')).toBeTruthy();
});

test('without JavaScript (the server’s markup) there is no copy button, only the address to select and the webcal:// link', () => {
  const html = renderToString(
    <MemoryRouter initialEntries={['/profile']}>
      <I18nProvider locale="es" messages={MESSAGES.es}>
        <CalendarSection calendar={CALENDAR} form={undefined} saved={null} />
      </I18nProvider>
    </MemoryRouter>,
  );
  expect(html).not.toContain('Copiar la dirección');
  expect(html).toContain('href="webcal://www.example.test/calendar/7-abcDEF123.ics"');
  expect(html).toContain(`value="${CALENDAR.url}"`);
});
