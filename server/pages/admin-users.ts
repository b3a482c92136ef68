// The admin console's users (/admin/users): the page and search the URL asks for (`?q=&page=`);
// the actions go through the API (server/api/admin-users.ts).
import { SEARCH_MAX_LENGTH } from '../../shared/paging.ts';
import { pageNumber } from '../http/paging.ts';
import { requireSession, type LoaderArgs, type PageLoader } from '../render/page-module.ts';
import type { PageServices } from '../boot/pages.ts';

/** The services this page uses (server/boot/pages.ts makes them). */
type Uses = Pick<PageServices, 'backend'>;

/** The users list of the URL's query: the search (`q`) and the page (`page`, the last one past the end). */
export async function usersOfQuery(args: LoaderArgs<Uses>) {
  const { token } = requireSession(args);
  const query = (args.query.get('q') ?? '').trim().slice(0, SEARCH_MAX_LENGTH);
  const page = pageNumber(args.query);
  const search = query ? { q: query } : {};
  let users = await args.services.backend.listUsers(token, { ...search, page });
  const last = Math.max(1, Math.ceil(users.total / Math.max(1, users.pageSize)));
  if (page > last) users = await args.services.backend.listUsers(token, { ...search, page: last });
  return { users, query };
}

export const loader = (async (args) => ({ data: await usersOfQuery(args) })) satisfies PageLoader<unknown, Uses>;
