// The profile's "Your company" section without JavaScript, on the app in this process
// (docs/decisions/041, 047, 049): the manager's invitation of a colleague, by address (no user
// name is asked), is a form post answered 303 and the page comes back saying it was sent, the
// colleague listed once they have chosen a password; an invalid address comes back
// (422) with its error by the field, the form open and what was typed kept. The section with
// JavaScript, the member's work, a removal, 390 px and axe-core are test/e2e/companies.test.ts's.
import { within } from '@testing-library/dom';
import { expect, test } from 'vitest';
import { membershipOf, moveUser } from '../../server/companies/companies.ts';
import { seedDemoProjects } from '../../server/projects/demo.ts';
import { accountsSite } from '../account-links/setup.ts';
import { plainBrowser, textOf, type PlainPage } from '../helpers/plain-browser.ts';
import { scaled } from '../helpers/time-scale.ts';
import { DEFAULT_PASSWORD } from '../helpers/users.ts';

const ADMIN = { role: 'ADMIN' as const, userName: 'co-admin', name: 'Adela', lastName: 'Gestora' };
const MANAGER = { role: 'CLI' as const, userName: 'co-manager', name: 'Carla', lastName: 'Cliente', email: 'carla@example.com' };
const MEMBER = { role: 'CLI' as const, userName: 'co-member', name: 'Mario', lastName: 'Miembro', email: 'mario@example.com' };
const ORG = { role: 'ORG' as const, userName: 'co-org', name: 'Olga', lastName: 'Organización' };
const EXPERT = { role: 'CONS' as const, userName: 'co-expert', name: 'Ernesto', lastName: 'Experto' };

const team = (page: PlainPage) => page.document.querySelector<HTMLElement>('section[aria-labelledby="company-title"]')!;
const field = (page: PlainPage, id: string) => page.document.querySelector<HTMLInputElement>(`#${id}`)!;

function fillInvitation(page: PlainPage, colleague: { name: string; lastName: string; email: string }): void {
  field(page, 'company-name').value = colleague.name;
  field(page, 'company-lastName').value = colleague.lastName;
  field(page, 'company-email').value = colleague.email;
}

test(
  'without JavaScript, in Spanish, the invitation posts and the page comes back saying it was sent, no user name asked; an invalid address comes back with its error and what was typed',
  { timeout: scaled(30_000) },
  async () => {
    const site = await accountsSite({ users: [ADMIN, MANAGER, MEMBER, ORG, EXPERT] });
    // The demo projects belong to the manager's company; the member is in it too.
    await seedDemoProjects(site.db, { admin: ADMIN.userName, client: MANAGER.userName, org: ORG.userName, expert: EXPERT.userName });
    const company = await membershipOf(site.db.k, MANAGER.userName);
    await moveUser(site.db, MEMBER.userName, { companyId: company!.companyId }, 'member');
    const browser = plainBrowser(site.app);
    await browser.signIn(MANAGER.userName, DEFAULT_PASSWORD, '/login');
    let page = await browser.open('/profile');
    expect(textOf(team(page).querySelector('h2'))).toBe('Tu empresa: Carla Cliente');
    const disclosure = () => team(page).querySelector<HTMLDetailsElement>('details.company-invite')!;
    expect(textOf(disclosure().querySelector('summary'))).toBe('Invitar a un colega');
    expect(disclosure().hasAttribute('open')).toBe(false);
    expect(team(page).querySelector('#company-userName')).toBeNull();
    const people = team(page).querySelectorAll('li.member-item').length;

    fillInvitation(page, { name: 'Pablo', lastName: 'Pérez', email: 'pablo@example.com' });
    page = await browser.submit(page, within(team(page)).getByRole('button', { name: 'Enviar la invitación' }) as HTMLButtonElement);
    expect(page.redirects[0], 'the post was answered with a redirect').toMatchObject({ method: 'POST', status: 303 });
    expect(page.status).toBe(200);
    expect(page.url.pathname).toBe('/profile');
    expect(page.url.searchParams.get('saved')).toBe('colleagueInvited');
    expect(textOf(team(page).querySelector('.form-success[role="status"]'))).toBe(
      'Invitación enviada. Tu colega aparecerá abajo cuando haya elegido su contraseña.',
    );
    // Listed once they have chosen it: an address that has an account looks the same (docs/decisions/049).
    expect(team(page).querySelectorAll('li.member-item')).toHaveLength(people);
    expect(textOf(team(page))).not.toContain('Pablo');
    // The form is closed again.
    expect(disclosure().hasAttribute('open')).toBe(false);

    fillInvitation(page, { name: 'Rita', lastName: 'Ramos', email: 'rita-at-example.com' });
    page = await browser.submit(page, within(team(page)).getByRole('button', { name: 'Enviar la invitación' }) as HTMLButtonElement);
    expect(page.redirects).toEqual([]);
    expect(page.status).toBe(422);
    // The form is open again, the error next to the address, and nothing typed is lost.
    expect(disclosure().hasAttribute('open')).toBe(true);
    const email = field(page, 'company-email');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(email.getAttribute('aria-describedby')).toBe('company-email-error');
    const error = page.document.querySelector('#company-email-error')!;
    expect(textOf(error)).toBe('Escribe un correo electrónico válido.');
    expect(error.parentElement).toBe(email.parentElement);
    expect(email.value).toBe('rita-at-example.com');
    expect(field(page, 'company-name').value).toBe('Rita');
    expect(field(page, 'company-lastName').value).toBe('Ramos');
    expect(field(page, 'company-name').getAttribute('aria-invalid')).toBeNull();
    expect(team(page).querySelectorAll('.form-error[role="alert"]')).toHaveLength(1);
    expect(textOf(team(page))).not.toContain('Rita Ramos');
  },
);
