// The admin console's users (/admin/users): the page and search the URL asks for (`?q=&page=`);
// the actions go through the API (server/api/admin-users.ts). "Invite as client" from a contact
// message (`?invite=<message id>`, client/admin/inbox/) opens the new-user form filled in from it.
import type { ContactMessage } from '../../shared/contact.ts';
import type { NewUserPrefill } from '../../shared/page-data.ts';
import { idOf, SEARCH_MAX_LENGTH } from '../../shared/paging.ts';
import { COMPANY_NAME_MAX_LENGTH } from '../../shared/company.ts';
import { NAME_MAX_LENGTH, USER_NAME_MAX_LENGTH, USER_NAME_MIN_LENGTH } from '../../shared/validation.ts';
import { pageNumber } from '../http/paging.ts';
import { requireSession, type LoaderArgs, type PageLoader } from '../render/page-module.ts';
import type { PageServices } from '../boot/pages.ts';

/** The services this page uses (server/boot/pages.ts makes them). */
type Uses = Pick<PageServices, 'backend' | 'inbox'>;

/** The users list of the URL's query: the search (`q`) and the page (`page`, the last one past the end). */
export async function usersOfQuery(args: LoaderArgs<Pick<PageServices, 'backend'>>) {
  const { token } = requireSession(args);
  const query = (args.query.get('q') ?? '').trim().slice(0, SEARCH_MAX_LENGTH);
  const page = pageNumber(args.query);
  const search = query ? { q: query } : {};
  let users = await args.services.backend.listUsers(token, { ...search, page });
  const last = Math.max(1, Math.ceil(users.total / Math.max(1, users.pageSize)));
  if (page > last) users = await args.services.backend.listUsers(token, { ...search, page: last });
  return { users, query };
}

/** A user name to start from: the address's local part in plain letters ("lucía.pérez@…" → "lucia.perez"); the admin may change it. */
export function suggestedUserName(email: string): string {
  const local = email
    .slice(0, email.lastIndexOf('@'))
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, USER_NAME_MAX_LENGTH)
    .replace(/[._-]+$/, '');
  return local.length >= USER_NAME_MIN_LENGTH ? local : '';
}

/** The new-user form filled in from a contact message: its first word the name, the rest the last name. */
export function prefillOf(message: Pick<ContactMessage, 'name' | 'email' | 'company' | 'locale'>): NewUserPrefill {
  const [first = '', ...rest] = message.name.trim().split(/\s+/);
  return {
    userName: suggestedUserName(message.email),
    name: first.slice(0, NAME_MAX_LENGTH),
    lastName: rest.join(' ').slice(0, NAME_MAX_LENGTH),
    email: message.email,
    company: (message.company ?? '').slice(0, COMPANY_NAME_MAX_LENGTH),
    locale: message.locale,
  };
}

export const loader = (async (args) => {
  const id = idOf(args.query.get('invite'));
  const [data, message] = await Promise.all([usersOfQuery(args), id === null ? null : args.services.inbox.get(id)]);
  return { data: { ...data, invite: message ? prefillOf(message) : null } };
}) satisfies PageLoader<unknown, Uses>;
